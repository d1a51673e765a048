// akgen sim: the high-level SoftMax and SimpleSoftMax (ND input of srcM rows x srcK columns, reduce along the last
// axis), with the tiling type SoftMaxTiling (field names of CANN's softmax_tilingdata.h).
//
// Semantics (per row, over the first oriSrcK columns, or srcK when oriSrcK is 0): max = max(x), e = exp(x - max),
// sum = sum(e), dst = e / sum. Computed in float and rounded once to the output type (half inputs too, as the
// A2/A3 implementation works in float); columns past oriSrcK are not written. sumTensor and maxTensor hold one 32-byte
// block per row filled with the row's value (16 halves or 8 floats). The shape comes from softmaxShapeInfo when its
// srcM is set, otherwise from the tiling (srcM, srcK). sharedTmpBuffer is accepted and not needed by the emulation.
// Cost (an estimate): the vector passes of the real algorithm (reduce max, sub, exp, reduce sum, div) over the data.
#pragma once

#include "vec_reduce.h"
#include "math.h"
#include "adv_tiling.h"

namespace AscendC {

enum class SoftmaxMode { SOFTMAX_NORMAL = 0, SOFTMAX_OUTPUT_WITHOUT_BRC = 1 };
struct SoftmaxConfig {
    constexpr SoftmaxConfig(const bool isCheckTilingIn) : isCheckTiling(isCheckTilingIn) {}
    constexpr SoftmaxConfig(const bool isCheckTilingIn, const uint32_t oriSrcMIn, const uint32_t oriSrcKIn)
        : isCheckTiling(isCheckTilingIn), oriSrcM(oriSrcMIn), oriSrcK(oriSrcKIn) {}
    constexpr SoftmaxConfig(const bool isCheckTilingIn, const uint32_t oriSrcMIn, const uint32_t oriSrcKIn,
                            const SoftmaxMode modeIn)
        : isCheckTiling(isCheckTilingIn), oriSrcM(oriSrcMIn), oriSrcK(oriSrcKIn), mode(modeIn) {}
    bool isCheckTiling = true;
    uint32_t oriSrcM = 0;
    uint32_t oriSrcK = 0;
    SoftmaxMode mode = SoftmaxMode::SOFTMAX_NORMAL;
};
constexpr SoftmaxConfig SOFTMAX_DEFAULT_CFG = {true, 0, 0, SoftmaxMode::SOFTMAX_NORMAL};

struct SoftMaxShapeInfo {
    uint32_t srcM{0};
    uint32_t srcK{0};
    uint32_t oriSrcM{0};
    uint32_t oriSrcK{0};
};

}  // namespace AscendC

namespace akgen_sim {

struct SmShape { uint32_t m, k, valid; };

inline SmShape softmax_shape(const SoftMaxTiling& t, const AscendC::SoftMaxShapeInfo& s, const char* api,
                             const loc_t& loc) {
    SmShape r{s.srcM ? s.srcM : t.srcM, s.srcM ? s.srcK : t.srcK, 0};
    r.valid = s.srcM && s.oriSrcK ? s.oriSrcK : r.k;
    if (r.valid > r.k) {
        fail("SIM-SOFTMAX-SHAPE", fmt("%s: oriSrcK %u is larger than srcK %u (srcK is the 32-byte aligned row length)",
                                      api, r.valid, r.k), loc, "api_mismatch", api);
    }
    return r;
}

// SoftMax on rows; S is the type of sum/max (T, or float with half data). simple: sum/max are inputs.
template <typename T, typename S>
inline void softmax_rows(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<S>* sum,
                         const AscendC::LocalTensor<S>* max, const AscendC::LocalTensor<T>& src, SmShape sh,
                         bool simple, const loc_t& loc) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                  "Failed to check dtype in SoftMax, current api support dtype combination is half, float");
    touch(api, loc);
    if (sh.m == 0 || sh.k == 0) return;
    if ((uint64_t(sh.k) * sizeof(T)) % 32 != 0) {
        fail("SIM-SOFTMAX-SHAPE", fmt("%s: srcK %u x %zu B is not 32-byte aligned; pad the last axis and pass the real "
                                      "length as oriSrcK", api, sh.k, sizeof(T)), loc, "api_mismatch", api);
    }
    uint64_t n = uint64_t(sh.m) * sh.k;
    constexpr uint32_t blk = 32 / sizeof(S);
    check_local(src, "src", api, n * sizeof(T), loc);
    check_local(dst, "dst", api, n * sizeof(T), loc);
    if (sum) check_local(*sum, "sumTensor", api, uint64_t(sh.m) * 32, loc);
    if (max) check_local(*max, "maxTensor", api, uint64_t(sh.m) * 32, loc);
    for (uint32_t r = 0; r < sh.m; ++r) {
        const T* x = src.addr_ + uint64_t(r) * sh.k;
        T* y = dst.addr_ + uint64_t(r) * sh.k;
        float mx, sm = 0;
        if (simple) {
            mx = static_cast<float>(max->addr_[uint64_t(r) * blk]);
            sm = static_cast<float>(sum->addr_[uint64_t(r) * blk]);
        } else {
            mx = static_cast<float>(x[0]);
            for (uint32_t j = 1; j < sh.valid; ++j) mx = static_cast<float>(x[j]) > mx ? static_cast<float>(x[j]) : mx;
            for (uint32_t j = 0; j < sh.valid; ++j) sm += m::exp(static_cast<float>(x[j]) - mx);
        }
        for (uint32_t j = 0; j < sh.valid; ++j) y[j] = static_cast<T>(m::exp(static_cast<float>(x[j]) - mx) / sm);
        if (!simple) {
            for (uint32_t j = 0; j < blk; ++j) {
                if (sum) sum->addr_[uint64_t(r) * blk + j] = static_cast<S>(sm);
                if (max) max->addr_[uint64_t(r) * blk + j] = static_cast<S>(mx);
            }
        }
    }
    double reps = double((n * sizeof(T) + 255) / 256);
    vec_charge("exp", api, reps * (simple ? 3 : 5), dst.slot_,
               {src.slot_, sum ? sum->slot_ : nullptr, max ? max->slot_ : nullptr}, loc);
}

}  // namespace akgen_sim

namespace AscendC {

template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor,
                    const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling,
                    const SoftMaxShapeInfo& softmaxShapeInfo = {}, AKGEN_LOC) {
    static_assert(!isDataFormatNZ, "akgen sim: SoftMax is emulated for ND data only");
    ::akgen_sim::softmax_rows("SoftMax", dstTensor, &sumTensor, &maxTensor, srcTensor,
                              ::akgen_sim::softmax_shape(tiling, softmaxShapeInfo, "SoftMax", loc), false, loc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor,
                    const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                    const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}, AKGEN_LOC) {
    static_assert(!isDataFormatNZ, "akgen sim: SoftMax is emulated for ND data only");
    ::akgen_sim::softmax_rows("SoftMax", dstTensor, &sumTensor, &maxTensor, srcTensor,
                              ::akgen_sim::softmax_shape(tiling, softmaxShapeInfo, "SoftMax", loc), false, loc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor,
                    const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                    const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}, AKGEN_LOC) {
    (void)sharedTmpBuffer;
    SoftMax<T, isReuseSource, isBasicBlock, isDataFormatNZ, config>(dstTensor, sumTensor, maxTensor, srcTensor, tiling,
                                                                     softmaxShapeInfo, loc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SoftMax(const LocalTensor<half>& dstTensor, const LocalTensor<float>& sumTensor,
                    const LocalTensor<float>& maxTensor, const LocalTensor<half>& srcTensor,
                    const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                    const SoftMaxShapeInfo& softmaxShapeInfo = {}, AKGEN_LOC) {
    (void)sharedTmpBuffer;
    SoftMax<T, isReuseSource, isBasicBlock, isDataFormatNZ, config>(dstTensor, sumTensor, maxTensor, srcTensor, tiling,
                                                                     softmaxShapeInfo, loc);
}
// Without sum/max outputs.
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling,
                    const SoftMaxShapeInfo& softmaxShapeInfo = {}, AKGEN_LOC) {
    ::akgen_sim::softmax_rows("SoftMax", dstTensor, static_cast<const LocalTensor<T>*>(nullptr),
                              static_cast<const LocalTensor<T>*>(nullptr), srcTensor,
                              ::akgen_sim::softmax_shape(tiling, softmaxShapeInfo, "SoftMax", loc), false, loc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                    const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                    const SoftMaxShapeInfo& softmaxShapeInfo = {}, AKGEN_LOC) {
    (void)sharedTmpBuffer;
    SoftMax<T, isReuseSource, isBasicBlock, config>(dstTensor, srcTensor, tiling, softmaxShapeInfo, loc);
}

// SimpleSoftMax: sum and max are given (one 32-byte block per row).
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SimpleSoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& inSumTensor,
                          const LocalTensor<T>& inMaxTensor, const LocalTensor<T>& srcTensor,
                          const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}, AKGEN_LOC) {
    static_assert(!isDataFormatNZ, "akgen sim: SimpleSoftMax is emulated for ND data only");
    ::akgen_sim::softmax_rows("SimpleSoftMax", dstTensor, &inSumTensor, &inMaxTensor, srcTensor,
                              ::akgen_sim::softmax_shape(tiling, softmaxShapeInfo, "SimpleSoftMax", loc), true, loc);
}
template <typename T, bool isReuseSource = false, bool isBasicBlock = false, bool isDataFormatNZ = false,
          const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SimpleSoftMax(const LocalTensor<T>& dstTensor, const LocalTensor<T>& inSumTensor,
                          const LocalTensor<T>& inMaxTensor, const LocalTensor<T>& srcTensor,
                          const LocalTensor<uint8_t>& sharedTmpBuffer, const SoftMaxTiling& tiling,
                          const SoftMaxShapeInfo& softmaxShapeInfo = {}, AKGEN_LOC) {
    (void)sharedTmpBuffer;
    SimpleSoftMax<T, isReuseSource, isBasicBlock, isDataFormatNZ, config>(dstTensor, inSumTensor, inMaxTensor,
                                                                           srcTensor, tiling, softmaxShapeInfo, loc);
}

}  // namespace AscendC
