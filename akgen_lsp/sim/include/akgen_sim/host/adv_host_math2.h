// akgen sim host side: the LogSoftMax tiling helpers of adv_api/activation/logsoftmax_tiling.h with the A2/A3
// (dav-2201) sizes; the host size functions of the Ascend-950-only math APIs (Rint, Fma, Where, BitwiseAnd,
// LogicalAnd: Get<Op>MaxMinTmpSize / Get<Op>TmpBufferFactorSize with a PlatformAscendC), which need no work space
// there (0) and, as the library's ASCENDC_HOST_ASSERT does, report "Unsupported NpuArch" on any other device and
// leave the outputs unchanged.
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
constexpr uint32_t kUnit = 64, kFloat = 4, kBlk = 32, kBasicTile = 8;
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
    const uint32_t work = localWorkSpaceSize / akgen_logsoftmax::kFloat;
    uint32_t baseM = std::min(work / (perBlk + k + akgen_logsoftmax::kUnit), m);
    if (baseM < m && baseM > akgen_logsoftmax::kBasicTile)
        baseM = baseM / akgen_logsoftmax::kBasicTile * akgen_logsoftmax::kBasicTile;
    akgen_softmax::basic_block_m(baseM, m, k);
    if (baseM == 0) {
        std::fprintf(stderr, "[LogSoftMaxTilingFunc] localWorkSpaceSize %u bytes does not hold one row; pass at least "
                             "GetLogSoftMaxMinTmpSize bytes\n", localWorkSpaceSize);
        return;
    }
    tiling.set_srcM(m);
    tiling.set_srcK(k);
    tiling.set_srcSize(m * k);
    tiling.set_outMaxM(m);
    tiling.set_outMaxK(perBlk);
    tiling.set_outMaxSize(m * perBlk);
    tiling.set_splitM(baseM);
    tiling.set_splitK(k);
    tiling.set_splitSize(baseM * k);
    tiling.set_reduceM(baseM);
    tiling.set_reduceK(perBlk);
    tiling.set_reduceSize(baseM * perBlk);
    tiling.set_rangeM(m / baseM);
    tiling.set_tailM(m % baseM);
    tiling.set_tailSplitSize(m % baseM * k);
    tiling.set_tailReduceSize(m % baseM * perBlk);
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
