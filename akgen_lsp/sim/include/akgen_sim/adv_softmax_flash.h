// akgen sim: SoftmaxFlashV2 (adv_api/activation/softmaxflashv2.h), the FlashAttention-2 online softmax, and its
// kernel-side tiling SoftMaxFlashV2TilingFuncImpl / SoftMaxFlashV2TilingFunc.
//
// Per row of an [m, k] ND tensor (T1 data, T2 sums and maxima: both T, or half data with float sums):
//   isUpdate false: max = max(x), dst = exp(x - max), sum = sum(dst)
//   isUpdate true:  max = max(inMax, max(x)), dst = exp(x - max), expMax = exp(inMax - max),
//                   sum = expMax * inSum + sum(dst)
// (the Python of SoftmaxFlashV2.md). Computed in float, each output rounded once to its type. max, sum, expMax,
// inMax and inSum hold one 32-byte block per row filled with the row's value (8 floats or 16 halves; expMax is of
// the data type), or one element per row when config.mode is SOFTMAX_OUTPUT_WITHOUT_BRC. Inputs may share buffers
// with outputs (src/dst, inMax/max, inSum/sum): each row's inputs are read before its outputs are written.
// The shape, as the A2/A3 implementation picks it: the tiling's (srcM, srcK) when config.isCheckTiling is false,
// else softmaxShapeInfo (srcM, srcK) when set, else the src tensor's ShapeInfo (SetShapeInfo: product of the other
// axes x last axis), else the tiling. max and sum are taken over the valid columns: config.oriSrcK when the config
// fixes the shape, else softmaxShapeInfo.oriSrcK (when set) or the last axis of the tensor's original shape; dst is
// written over all srcK columns (the padding too, as the docs say). With isBasicBlock the implementation reduces
// over all srcK columns, and so does this. The variants with outReduceMax (the row max of x alone, written only
// when isUpdate) run only with config.mode SOFTMAX_OUTPUT_WITHOUT_BRC; in SOFTMAX_NORMAL they do nothing (docs), with
// a warning here. Not emulated: isDataFormatNZ (reported). sharedTmpBuffer is checked (alive, in UB) and otherwise
// not needed. Cost (an estimate): the vector passes of the real algorithm (reduce max, sub, exp, reduce sum, the
// update's max/sub/exp/mul/add) over the data.
#pragma once

#include <algorithm>
#include <vector>

#include "adv_softmax.h"

namespace AscendC {

// Kernel-side tiling (softmax_flashv2_base_impl.h); localWorkSpaceSize counts float elements.
inline SoftMaxTiling SoftMaxFlashV2TilingFuncImpl(const uint32_t srcM, const uint32_t srcK,
                                                  const uint32_t dataTypeSize1, const uint32_t dataTypeSize2,
                                                  const uint32_t localWorkSpaceSize, const bool isUpdate = false,
                                                  const bool isBasicBlock = false, const bool isDataFormatNZ = false,
                                                  const bool isFlashOutputBrc = false) {
    (void)isUpdate;
    constexpr uint32_t kBasicTile = 8, kRepeatFloats = 64, kNzBasic = 16, kNzBlocks = 3;
    SoftMaxTiling t;
    const uint32_t perBlk = dataTypeSize2 ? 32 / dataTypeSize2 : 8;
    t.srcM = srcM;
    t.srcK = srcK;
    t.srcSize = srcM * srcK;
    t.outMaxM = srcM;
    t.outMaxK = perBlk;
    t.outMaxSize = srcM * perBlk;
    uint32_t reduceM;
    if (isDataFormatNZ) {
        reduceM = localWorkSpaceSize / (kNzBasic * kNzBlocks + srcK);
    } else if (isBasicBlock && srcK % kRepeatFloats == 0 && srcM % kBasicTile == 0) {
        // CalculateNDSplitM: rows of (perBlk + srcK (half data) + 64) floats, a divisor of srcM, < 255 repeats
        uint32_t row = perBlk + (dataTypeSize1 == 2 ? srcK : 0) + kRepeatFloats;
        reduceM = std::min(localWorkSpaceSize / row, srcM);
        if (reduceM > kBasicTile) {
            reduceM = reduceM / kBasicTile * kBasicTile;
            while (reduceM != 0 && srcM % reduceM != 0) reduceM -= kBasicTile;
            while (reduceM * srcK >= kRepeatFloats * 256) reduceM /= 2;
        }
    } else {
        reduceM = dataTypeSize1 == 2 ? localWorkSpaceSize / (2 * perBlk + srcK + kRepeatFloats)
                                     : localWorkSpaceSize / (perBlk + kRepeatFloats);
    }
    const uint32_t tile = isFlashOutputBrc && dataTypeSize1 == 2 ? 16 : kBasicTile;
    if (reduceM < srcM && reduceM > tile) reduceM = reduceM / tile * tile;
    reduceM = std::min(reduceM, srcM);
    t.reduceM = reduceM;
    t.reduceK = perBlk;
    t.reduceSize = reduceM * perBlk;
    t.splitM = reduceM;
    t.splitK = srcK;
    t.splitSize = reduceM * srcK;
    t.rangeM = reduceM ? srcM / reduceM : 0;
    t.tailM = reduceM ? srcM % reduceM : srcM;
    t.tailSplitSize = t.tailM * srcK;
    t.tailReduceSize = t.tailM * perBlk;
    return t;
}

inline SoftMaxTiling SoftMaxFlashV2TilingFunc(const SoftMaxShapeInfo& shapeInfo, const uint32_t dataTypeSize1,
                                              const uint32_t dataTypeSize2, const uint32_t localWorkSpaceSize,
                                              const bool isUpdate = false, const bool isBasicBlock = false,
                                              const bool isDataFormatNZ = false, const bool isFlashOutputBrc = false) {
    return SoftMaxFlashV2TilingFuncImpl(shapeInfo.srcM, shapeInfo.srcK, dataTypeSize1, dataTypeSize2,
                                        localWorkSpaceSize / 4, isUpdate, isBasicBlock, isDataFormatNZ,
                                        isFlashOutputBrc);
}

}  // namespace AscendC

namespace akgen_sim {

// The shape and valid columns SoftmaxFlashV2 uses (see the header comment).
template <typename T1, bool isBasicBlock, const AscendC::SoftmaxConfig& config>
inline SmShape flash_v2_shape(const AscendC::LocalTensor<T1>& src, const SoftMaxTiling& tiling,
                              const AscendC::SoftMaxShapeInfo& si) {
    const AscendC::ShapeInfo& ts = src.shapeInfo_;
    const bool given = si.srcM != 0 && si.srcK != 0;
    SmShape r{tiling.srcM, tiling.srcK, 0};
    if (config.isCheckTiling) {
        if (given) {
            r.m = si.srcM;
            r.k = si.srcK;
        } else if (ts.shapeDim > 0 && ts.shape[ts.shapeDim - 1] != 0) {
            r.k = ts.shape[ts.shapeDim - 1];
            r.m = static_cast<uint32_t>(AscendC::GetShapeSize(ts) / r.k);
        }
    }
    uint32_t valid = 0;
    if (config.oriSrcM != 0 && config.oriSrcK != 0) {
        valid = config.oriSrcK;
    } else if (given) {
        valid = si.oriSrcK;
    } else if (ts.originalShapeDim > 0) {
        valid = ts.originalShape[ts.originalShapeDim - 1];
    }
    r.valid = (isBasicBlock || valid == 0) ? r.k : valid;
    return r;
}

template <typename T> inline float f32(T v) { return static_cast<float>(v); }

// One SoftmaxFlashV2 call. reduce_max: the outReduceMax tensor of the variants that output it (else nullptr).
template <typename T1, typename T2, bool isUpdate, bool isBasicBlock, bool isDataFormatNZ,
          const AscendC::SoftmaxConfig& config>
inline void softmax_flash_v2(const AscendC::LocalTensor<T1>& dst, const AscendC::LocalTensor<T1>* reduce_max,
                             const AscendC::LocalTensor<T2>& sum, const AscendC::LocalTensor<T2>& max,
                             const AscendC::LocalTensor<T1>& src, const AscendC::LocalTensor<T1>& exp_max,
                             const AscendC::LocalTensor<T2>& in_sum, const AscendC::LocalTensor<T2>& in_max,
                             const AscendC::LocalTensor<uint8_t>* tmp, const SoftMaxTiling& tiling,
                             const AscendC::SoftMaxShapeInfo& si, const loc_t& loc) {
    static_assert((std::is_same_v<T1, half> || std::is_same_v<T1, float>) &&
                      (std::is_same_v<T2, half> || std::is_same_v<T2, float>),
                  "Failed to check dtype in SoftmaxFlashV2, current api support dtype combination is half, float");
    const char* api = "SoftmaxFlashV2";
    touch(api, loc);
    if constexpr (isDataFormatNZ) {
        fail("SIM-UNSUPPORTED", "SoftmaxFlashV2 on NZ data is not emulated yet", loc, "api_mismatch", api);
    } else {
        const bool brc = config.mode != AscendC::SoftmaxMode::SOFTMAX_OUTPUT_WITHOUT_BRC;
        if (reduce_max && brc) {
            warn("SIM-SOFTMAX-NOOP", "SoftmaxFlashV2 with outReduceMax runs only with config.mode "
                                     "SOFTMAX_OUTPUT_WITHOUT_BRC; in SOFTMAX_NORMAL it computes nothing and leaves every "
                                     "output as it was", loc, "api_mismatch", api);
            return;
        }
        if (tmp) check_local(*tmp, "sharedTmpBuffer", api, 0, loc);
        SmShape sh = flash_v2_shape<T1, isBasicBlock, config>(src, tiling, si);
        if (sh.m == 0 || sh.k == 0) return;
        if ((uint64_t(sh.k) * sizeof(T1)) % 32 != 0) {
            fail("SIM-SOFTMAX-SHAPE", fmt("%s: srcK %u x %zu B is not 32-byte aligned; pad the last axis and pass the "
                                          "real length as oriSrcK", api, sh.k, sizeof(T1)), loc, "api_mismatch", api);
        }
        if (sh.valid > sh.k) {
            fail("SIM-SOFTMAX-SHAPE", fmt("%s: the original last axis %u is longer than srcK %u (srcK is the 32-byte "
                                          "aligned row length)", api, sh.valid, sh.k), loc, "api_mismatch", api);
        }
        const uint64_t n = uint64_t(sh.m) * sh.k;
        const uint32_t s2 = brc ? 32 / sizeof(T2) : 1;  // elements per row of sum / max
        const uint32_t s1 = brc ? 32 / sizeof(T1) : 1;  // ... of expMax / outReduceMax (data type)
        check_local(src, "srcTensor", api, n * sizeof(T1), loc);
        check_local(dst, "dstTensor", api, n * sizeof(T1), loc);
        check_local(sum, "expSumTensor", api, uint64_t(sh.m) * s2 * sizeof(T2), loc);
        check_local(max, "maxTensor", api, uint64_t(sh.m) * s2 * sizeof(T2), loc);
        if constexpr (isUpdate) {
            check_local(exp_max, "expMaxTensor", api, uint64_t(sh.m) * s1 * sizeof(T1), loc);
            check_local(in_sum, "inExpSumTensor", api, uint64_t(sh.m) * s2 * sizeof(T2), loc);
            check_local(in_max, "inMaxTensor", api, uint64_t(sh.m) * s2 * sizeof(T2), loc);
            if (reduce_max) check_local(*reduce_max, "outReduceMax", api, uint64_t(sh.m) * s1 * sizeof(T1), loc);
        }
        std::vector<float> row(sh.k);
        for (uint32_t r = 0; r < sh.m; ++r) {
            const T1* x = src.addr_ + uint64_t(r) * sh.k;
            for (uint32_t j = 0; j < sh.k; ++j) row[j] = f32(x[j]);
            float rmax = row[0];
            for (uint32_t j = 1; j < sh.valid; ++j) rmax = std::max(rmax, row[j]);
            float mx = rmax, old_max = 0, old_sum = 0;
            if constexpr (isUpdate) {
                old_max = f32(in_max.addr_[uint64_t(r) * s2]);
                old_sum = f32(in_sum.addr_[uint64_t(r) * s2]);
                mx = std::max(old_max, rmax);
            }
            T1* y = dst.addr_ + uint64_t(r) * sh.k;
            float total = 0;
            for (uint32_t j = 0; j < sh.k; ++j) {
                float e = m::exp(row[j] - mx);
                if (j < sh.valid) total += e;
                y[j] = static_cast<T1>(e);
            }
            float em = 1;
            if constexpr (isUpdate) {
                em = m::exp(old_max - mx);
                total = em * old_sum + total;
            }
            for (uint32_t j = 0; j < s2; ++j) {
                sum.addr_[uint64_t(r) * s2 + j] = static_cast<T2>(total);
                max.addr_[uint64_t(r) * s2 + j] = static_cast<T2>(mx);
            }
            if constexpr (isUpdate) {
                for (uint32_t j = 0; j < s1; ++j) {
                    exp_max.addr_[uint64_t(r) * s1 + j] = static_cast<T1>(em);
                    if (reduce_max) reduce_max->addr_[uint64_t(r) * s1 + j] = static_cast<T1>(rmax);
                }
            }
        }
        double reps = double((n * sizeof(float) + 255) / 256);
        vec_charge("exp", api, reps * (isUpdate ? 5 : 4) + double(sh.m) * (isUpdate ? 5 : 1) / 8, dst.slot_,
                   {src.slot_, in_sum.slot_, in_max.slot_}, loc);
    }
}

}  // namespace akgen_sim

namespace AscendC {

#define AKGEN_FLASH_V2_TPL                                                                                       \
    template <typename T, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,          \
              bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>

AKGEN_FLASH_V2_TPL
inline void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& expSumTensor,
                           const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
                           const LocalTensor<T>& expMaxTensor, const LocalTensor<T>& inExpSumTensor,
                           const LocalTensor<T>& inMaxTensor, const SoftMaxTiling& tiling,
                           const SoftMaxShapeInfo& softmaxShapeInfo = {}, AKGEN_LOC) {
    ::akgen_sim::softmax_flash_v2<T, T, isUpdate, isBasicBlock, isDataFormatNZ, config>(
        dstTensor, nullptr, expSumTensor, maxTensor, srcTensor, expMaxTensor, inExpSumTensor, inMaxTensor, nullptr,
        tiling, softmaxShapeInfo, loc);
}

AKGEN_FLASH_V2_TPL
inline void SoftmaxFlashV2(const LocalTensor<half>& dstTensor, const LocalTensor<float>& expSumTensor,
                           const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                           const LocalTensor<half>& expMaxTensor, const LocalTensor<float>& inExpSumTensor,
                           const LocalTensor<float>& inMaxTensor, const SoftMaxTiling& tiling,
                           const SoftMaxShapeInfo& softmaxShapeInfo = {}, AKGEN_LOC) {
    ::akgen_sim::softmax_flash_v2<half, float, isUpdate, isBasicBlock, isDataFormatNZ, config>(
        dstTensor, nullptr, expSumTensor, maxTensor, srcTensor, expMaxTensor, inExpSumTensor, inMaxTensor, nullptr,
        tiling, softmaxShapeInfo, loc);
}

AKGEN_FLASH_V2_TPL
inline void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& expSumTensor,
                           const LocalTensor<T>& maxTensor, const LocalTensor<T>& srcTensor,
                           const LocalTensor<T>& expMaxTensor, const LocalTensor<T>& inExpSumTensor,
                           const LocalTensor<T>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                           const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}, AKGEN_LOC) {
    ::akgen_sim::softmax_flash_v2<T, T, isUpdate, isBasicBlock, isDataFormatNZ, config>(
        dstTensor, nullptr, expSumTensor, maxTensor, srcTensor, expMaxTensor, inExpSumTensor, inMaxTensor,
        &sharedTmpBuffer, tiling, softmaxShapeInfo, loc);
}

AKGEN_FLASH_V2_TPL
inline void SoftmaxFlashV2(const LocalTensor<half>& dstTensor, const LocalTensor<float>& expSumTensor,
                           const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                           const LocalTensor<half>& expMaxTensor, const LocalTensor<float>& inExpSumTensor,
                           const LocalTensor<float>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                           const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}, AKGEN_LOC) {
    ::akgen_sim::softmax_flash_v2<half, float, isUpdate, isBasicBlock, isDataFormatNZ, config>(
        dstTensor, nullptr, expSumTensor, maxTensor, srcTensor, expMaxTensor, inExpSumTensor, inMaxTensor,
        &sharedTmpBuffer, tiling, softmaxShapeInfo, loc);
}

AKGEN_FLASH_V2_TPL
inline void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& outReduceMax,
                           const LocalTensor<T>& outExpSum, const LocalTensor<T>& outMax,
                           const LocalTensor<T>& srcTensor, const LocalTensor<T>& outExpMax,
                           const LocalTensor<T>& inExpSum, const LocalTensor<T>& inMax, const SoftMaxTiling& tiling,
                           const SoftMaxShapeInfo& softmaxShapeInfo = {}, AKGEN_LOC) {
    ::akgen_sim::softmax_flash_v2<T, T, isUpdate, isBasicBlock, isDataFormatNZ, config>(
        dstTensor, &outReduceMax, outExpSum, outMax, srcTensor, outExpMax, inExpSum, inMax, nullptr, tiling,
        softmaxShapeInfo, loc);
}

AKGEN_FLASH_V2_TPL
inline void SoftmaxFlashV2(const LocalTensor<T>& dstTensor, const LocalTensor<T>& outReduceMax,
                           const LocalTensor<T>& outExpSum, const LocalTensor<T>& outMax,
                           const LocalTensor<T>& srcTensor, const LocalTensor<T>& outExpMax,
                           const LocalTensor<T>& inExpSum, const LocalTensor<T>& inMax,
                           const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                           const SoftMaxShapeInfo& softmaxShapeInfo = {}, AKGEN_LOC) {
    ::akgen_sim::softmax_flash_v2<T, T, isUpdate, isBasicBlock, isDataFormatNZ, config>(
        dstTensor, &outReduceMax, outExpSum, outMax, srcTensor, outExpMax, inExpSum, inMax, &sharedTmpBuffer, tiling,
        softmaxShapeInfo, loc);
}

#undef AKGEN_FLASH_V2_TPL

}  // namespace AscendC
