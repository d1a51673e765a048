// akgen sim host side: the SoftmaxFlashV2 tiling helpers of adv_api/activation/softmax_tiling.h with the A2/A3
// (dav-2201) and 310P (dav-2002) sizes: GetSoftMaxFlashV2MaxTmpSize / GetSoftMaxFlashV2MinTmpSize (bytes of float
// work space) and SoftMaxFlashV2TilingFunc (fills SoftMaxTiling: [prod(other axes), last axis], the rows one pass of
// the work space holds, rounded to 8 rows (16 for half data with isFlashOutputBrc) and, for a basic block, to a
// divisor of the rows under 255 repeats). A bad argument is reported on stderr; the sizes are then 0 and the tiling
// untouched.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdio>

#include "adv_host_softmax.h"

namespace AscendC {

namespace akgen_softmax {
constexpr uint32_t kSpecialK = 1024;  // SOFTMAX_SPECIAL_BASICBLOCK_LEN: rows of 1024 floats need two 64-float units

inline bool flash_v2_args(const char* fn, const TensorShape& s, uint32_t typeSize1, uint32_t typeSize2, uint32_t& m,
                          uint32_t& k) {
    if (typeSize2 != 2 && typeSize2 != 4) {
        std::fprintf(stderr, "[%s] dataTypeSize2 must be 2 (half) or 4 (float) (got %u)\n", fn, typeSize2);
        return false;
    }
    return rows(fn, s, typeSize1, m, k);
}

// Floats per row of the work space in the basic-block split (CANN's basic-block branch).
inline uint32_t flash_v2_basic_row(uint32_t typeSize1, uint32_t perBlk, uint32_t k) {
    const uint32_t units = k == kSpecialK ? 2 * kUnit : kUnit;
    return perBlk + (typeSize1 == 2 ? k : 0) + units;
}
inline uint32_t flash_v2_row(uint32_t typeSize1, uint32_t perBlk, uint32_t k) {
    return typeSize1 == 2 ? perBlk * 2 + k + kUnit : perBlk + kUnit;
}
}  // namespace akgen_softmax

inline uint32_t GetSoftMaxFlashV2MaxTmpSize(const TensorShape& srcShape, const uint32_t dataTypeSize1,
                                            const uint32_t dataTypeSize2, const bool isUpdate,
                                            const bool isBasicBlock = false, const bool isFlashOutputBrc = false) {
    (void)isUpdate;
    (void)isFlashOutputBrc;
    uint32_t m = 0, k = 0;
    if (!akgen_softmax::flash_v2_args("GetSoftMaxFlashV2MaxTmpSize", srcShape, dataTypeSize1, dataTypeSize2, m, k))
        return 0;
    const uint32_t perBlk = akgen_softmax::kBlk / dataTypeSize2;
    if (isBasicBlock && k % akgen_softmax::kUnit == 0 && m % akgen_softmax::kBasicTile == 0) {
        while (m * k >= akgen_softmax::kUnit * akgen_softmax::kBasicMin) m /= 2;  // at most 255 repeats
        return m * akgen_softmax::flash_v2_basic_row(dataTypeSize1, perBlk, k) * 4;
    }
    return m * akgen_softmax::flash_v2_row(dataTypeSize1, perBlk, k) * 4;
}

inline uint32_t GetSoftMaxFlashV2MinTmpSize(const TensorShape& srcShape, const uint32_t dataTypeSize1,
                                            const uint32_t dataTypeSize2, const bool isUpdate,
                                            const bool isBasicBlock = false, const bool isFlashOutputBrc = false) {
    (void)isUpdate;
    uint32_t m = 0, k = 0;
    if (!akgen_softmax::flash_v2_args("GetSoftMaxFlashV2MinTmpSize", srcShape, dataTypeSize1, dataTypeSize2, m, k))
        return 0;
    const uint32_t perBlk = akgen_softmax::kBlk / dataTypeSize2;
    const bool basic = isBasicBlock && k % akgen_softmax::kUnit == 0;
    uint32_t need = basic ? akgen_softmax::kBasicTile * akgen_softmax::flash_v2_basic_row(dataTypeSize1, perBlk, k)
                          : akgen_softmax::flash_v2_row(dataTypeSize1, perBlk, k);
    if (isFlashOutputBrc) {
        const uint32_t rowsPerBlock = std::min(akgen_softmax::kBlk / dataTypeSize1, m);
        need = basic ? need / akgen_softmax::kBasicTile * rowsPerBlock : need * rowsPerBlock;
    }
    return need * 4;
}

inline void SoftMaxFlashV2TilingFunc(const TensorShape& srcShape, const uint32_t dataTypeSize1,
                                     const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                                     SoftMaxTiling& softmaxFlashTiling, const bool isUpdate,
                                     const bool isBasicBlock = false, const bool isFlashOutputBrc = false) {
    (void)isUpdate;
    uint32_t m = 0, k = 0;
    if (!akgen_softmax::flash_v2_args("SoftMaxFlashV2TilingFunc", srcShape, dataTypeSize1, dataTypeSize2, m, k))
        return;
    const uint32_t perBlk = akgen_softmax::kBlk / dataTypeSize2;
    const uint32_t work = localWorkSpaceSize / 4;
    uint32_t baseM;
    if (isBasicBlock && k % akgen_softmax::kUnit == 0 && m % akgen_softmax::kBasicTile == 0) {
        baseM = std::min(work / akgen_softmax::flash_v2_basic_row(dataTypeSize1, perBlk, k), m);
        akgen_softmax::basic_block_m(baseM, m, k);
    } else {
        baseM = work / akgen_softmax::flash_v2_row(dataTypeSize1, perBlk, k);
    }
    const uint32_t tile = isFlashOutputBrc && dataTypeSize1 == 2 ? 16 : akgen_softmax::kBasicTile;
    baseM = std::min(baseM, m);
    if (baseM < m && baseM > tile) baseM = baseM / tile * tile;
    akgen_softmax::fill(softmaxFlashTiling, m, k, perBlk, baseM);
    if (isFlashOutputBrc && (softmaxFlashTiling.get_rangeM() > 1 || softmaxFlashTiling.get_tailM() != 0) &&
        baseM % (akgen_softmax::kBlk / dataTypeSize1) != 0) {
        std::fprintf(stderr, "[SoftMaxFlashV2TilingFunc] When dataTypeSize1(%u) is float(or half), "
                             "softmaxFlashTiling.reduceM(%u) must be a multiple of 8(or 16), Adjust the input parameter "
                             "-> localWorkSpaceSize.\n", dataTypeSize1, baseM);
    }
}

}  // namespace AscendC
