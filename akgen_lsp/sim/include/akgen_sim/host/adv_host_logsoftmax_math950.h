// akgen sim host side: the LogSoftMax tiling helpers of adv_api/activation/logsoftmax_tiling.h with the A2/A3
// (dav-2201) sizes; the host size functions of the Ascend-950-only math APIs (Rint, Fma, Where, BitwiseAnd,
// LogicalAnd: Get<Op>MaxMinTmpSize / Get<Op>TmpBufferFactorSize with a PlatformAscendC), which need no work space
// there (0) and, as the library's ASCENDC_HOST_ASSERT does, report "Unsupported NpuArch" on any other device and
// leave the outputs unchanged. Also GetSoftMaxFlashV3MaxMinTmpSize / SoftMaxFlashV3TilingFunc (A2/A3 sizes).
//   GetLogSoftMaxMaxTmpSize: srcM * (elementsPerBlock + srcK + 64) floats, in bytes
//   GetLogSoftMaxMinTmpSize: (elementsPerBlock + srcK + 64) floats (one row), in bytes
//   LogSoftMaxTilingFunc: rows of the last axis, baseM = the rows the work space holds (rounded down to 8 rows when
//     it is not all of them, then to the basic block), the tail; outMax / reduce blocks of one 32-byte block a row
// The shape is read as [prod(other axes), last axis]. A bad argument is reported on stderr; the sizes are then 0 and
// the tiling is left untouched, as the library's checks do.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "../../tiling/platform/platform_ascendc.h"
#include "../adv_tiling.h"
#include "adv_host_softmax.h"
#include "graph.h"

namespace AscendC {

namespace akgen_logsoftmax {
inline bool rows(const char* fn, const TensorShape& s, uint32_t typeSize, uint32_t& m, uint32_t& k) {
    if (!akgen_softmax::rows(fn, s, typeSize, m, k)) return false;
    if (k == 0 || m == 0) {
        std::fprintf(stderr, "[%s] the shape needs at least one row of a non-empty last axis\n", fn);
        return false;
    }
    return true;
}
constexpr uint32_t kUnit = akgen_softmax::kUnit, kFloat = 4, kBlk = akgen_softmax::kBlk;
}  // namespace akgen_logsoftmax

inline uint32_t GetLogSoftMaxMaxTmpSize(const TensorShape& srcShape, const uint32_t dataTypeSize,
                                        const bool isReuseSource) {
    (void)isReuseSource;
    uint32_t m = 0, k = 0;
    if (!akgen_logsoftmax::rows("GetLogSoftMaxMaxTmpSize", srcShape, dataTypeSize, m, k)) return 0;
    const uint32_t perBlk = akgen_logsoftmax::kBlk / dataTypeSize;
    return m * (perBlk + k + akgen_logsoftmax::kUnit) * akgen_logsoftmax::kFloat;
}

inline uint32_t GetLogSoftMaxMinTmpSize(const TensorShape& srcShape, const uint32_t dataTypeSize,
                                        const bool isReuseSource) {
    (void)isReuseSource;
    uint32_t m = 0, k = 0;
    if (!akgen_logsoftmax::rows("GetLogSoftMaxMinTmpSize", srcShape, dataTypeSize, m, k)) return 0;
    const uint32_t perBlk = akgen_logsoftmax::kBlk / dataTypeSize;
    return (perBlk + k + akgen_logsoftmax::kUnit) * akgen_logsoftmax::kFloat;
}

inline void LogSoftMaxTilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize,
                                 const uint32_t localWorkSpaceSize, LogSoftMaxTiling& tiling) {
    uint32_t m = 0, k = 0;
    if (!akgen_logsoftmax::rows("LogSoftMaxTilingFunc", srcShape, dataTypeSize, m, k)) return;
    if (localWorkSpaceSize == 0) {
        std::fprintf(stderr, "[LogSoftMaxTilingFunc] localWorkSpaceSize must be greater than 0: pass the bytes of the "
                             "work space (GetLogSoftMaxMinTmpSize at least)\n");
        return;
    }
    const uint32_t perBlk = akgen_logsoftmax::kBlk / dataTypeSize;
    const uint32_t baseM = akgen_softmax::split_m(localWorkSpaceSize / akgen_logsoftmax::kFloat,
                                                  perBlk + k + akgen_logsoftmax::kUnit, m, k);
    if (baseM == 0) {
        std::fprintf(stderr, "[LogSoftMaxTilingFunc] localWorkSpaceSize %u bytes does not hold one row; pass at least "
                             "GetLogSoftMaxMinTmpSize bytes\n", localWorkSpaceSize);
        return;
    }
    akgen_softmax::fill(tiling, m, k, perBlk, baseM);
}

// SoftmaxFlashV3 (softmax_tiling.h), A2/A3 sizes: one row needs 5 statistics blocks + 2 rows of floats + 64 floats;
// min is one row, max all srcM rows. The tiling splits the rows by what the work space holds (rounded down to 8 rows
// when it is not all of them). dataTypeSize1 must be 2 (half), dataTypeSize2 4 (float).
namespace akgen_flash3 {
inline bool shape(const char* fn, const TensorShape& s, uint32_t ts1, uint32_t ts2, uint32_t& m, uint32_t& k) {
    if (ts1 != 2 || ts2 != 4) {
        std::fprintf(stderr, "[%s] dataTypeSize1 must be sizeof(half) and dataTypeSize2 sizeof(float) (got %u, %u)\n",
                     fn, ts1, ts2);
        return false;
    }
    return akgen_logsoftmax::rows(fn, s, ts1, m, k);
}
inline uint32_t row_floats(uint32_t k) { return 8 * 5 + 2 * k + 64; }
}  // namespace akgen_flash3

inline void GetSoftMaxFlashV3MaxMinTmpSize(const TensorShape& srcShape, const uint32_t dataTypeSize1,
                                           const uint32_t dataTypeSize2, uint32_t& maxValue, uint32_t& minValue,
                                           const bool isUpdate, const bool isBasicBlock = false) {
    (void)isUpdate;
    (void)isBasicBlock;
    uint32_t m = 0, k = 0;
    if (!akgen_flash3::shape("GetSoftMaxFlashV3MaxMinTmpSize", srcShape, dataTypeSize1, dataTypeSize2, m, k)) return;
    minValue = akgen_flash3::row_floats(k) * 4;
    maxValue = m * minValue;
}

inline void SoftMaxFlashV3TilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize1,
                                     const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                                     SoftMaxTiling& tiling, const bool isUpdate, const bool isBasicBlock = false) {
    (void)isUpdate;
    (void)isBasicBlock;
    uint32_t m = 0, k = 0;
    if (!akgen_flash3::shape("SoftMaxFlashV3TilingFunc", srcShape, dataTypeSize1, dataTypeSize2, m, k)) return;
    if (localWorkSpaceSize == 0) {
        std::fprintf(stderr, "[SoftMaxFlashV3TilingFunc] localWorkSpaceSize must be greater than 0: pass the bytes of "
                             "the work space (GetSoftMaxFlashV3MaxMinTmpSize's minValue at least)\n");
        return;
    }
    uint32_t baseM = std::min(localWorkSpaceSize / 4 / akgen_flash3::row_floats(k), m);
    if (baseM < m && baseM > 8) baseM = baseM / 8 * 8;
    tiling.set_srcM(m);
    tiling.set_srcK(k);
    tiling.set_srcSize(m * k);
    tiling.set_outMaxM(m);
    tiling.set_outMaxK(8);
    tiling.set_outMaxSize(m * 8);
    tiling.set_splitM(baseM);
    tiling.set_splitK(k);
    tiling.set_splitSize(baseM * k);
    tiling.set_reduceM(baseM);
    tiling.set_reduceK(8);
    tiling.set_reduceSize(baseM * 8);
    if (baseM != 0) {
        tiling.set_rangeM(m / baseM);
        tiling.set_tailM(m % baseM);
        tiling.set_tailSplitSize(m % baseM * k);
        tiling.set_tailReduceSize(m % baseM * 8);
    }
}

// The Ascend-950-only math APIs' host size functions.
namespace akgen_host950 {
inline bool on_950(const platform_ascendc::PlatformAscendC& plat, const char* fn, const char* api) {
    if (plat.GetSocVersion() == platform_ascendc::SocVersion::ASCEND950) return true;
    std::fprintf(stderr, "[%s] Unsupported NpuArch of %s API: %s is implemented for Ascend 950 (dav-3510) only; the "
                         "outputs are left unchanged\n", fn, api, api);
    return false;
}
}  // namespace akgen_host950

#define AKGEN_950_TMPSIZE(OP)                                                                                          \
    inline void Get##OP##MaxMinTmpSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,                      \
                                       const TensorShape& srcShape, const uint32_t typeSize, const bool isReuseSource, \
                                       uint32_t& maxValue, uint32_t& minValue) {                                       \
        (void)srcShape;                                                                                                \
        (void)typeSize;                                                                                                \
        (void)isReuseSource;                                                                                           \
        if (!akgen_host950::on_950(ascendcPlatform, "Get" #OP "MaxMinTmpSize", #OP)) return;                          \
        maxValue = 0;                                                                                                  \
        minValue = 0;                                                                                                  \
    }                                                                                                                  \
    inline void Get##OP##TmpBufferFactorSize(const platform_ascendc::PlatformAscendC& ascendcPlatform,                \
                                             const uint32_t typeSize, uint32_t& maxLivedNodeCount,             \
                                             uint32_t& extraBuf) {                                             \
        (void)typeSize;                                                                                                \
        if (!akgen_host950::on_950(ascendcPlatform, "Get" #OP "TmpBufferFactorSize", #OP)) return;                    \
        maxLivedNodeCount = 0;                                                                                         \
        extraBuf = 0;                                                                                                  \
    }

AKGEN_950_TMPSIZE(Rint)
AKGEN_950_TMPSIZE(Fma)
AKGEN_950_TMPSIZE(Where)
AKGEN_950_TMPSIZE(BitwiseAnd)
AKGEN_950_TMPSIZE(LogicalAnd)
#undef AKGEN_950_TMPSIZE

}  // namespace AscendC
