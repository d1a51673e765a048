// akgen sim: the high-level SoftmaxGrad and SoftmaxGradFront (adv_api/activation/softmax.h), ND data of srcM rows x
// srcK columns (srcK 32-byte aligned), reduce along the last axis.
//
// Semantics (asc-devkit SoftmaxGrad.md / SoftmaxGradFront.md), per row, with grad and src (the softmax output y):
//   s = sum(grad * src) over the first oriSrcK columns (srcK when oriSrcK is 0);
//   SoftmaxGrad, isFront false: dst[j] = (grad[j] - s) * src[j] for every one of the srcK columns (the padded columns
//     take part, as the documentation says: the result overwrites dst's padding);
//   SoftmaxGrad with isFront true, and SoftmaxGradFront: dst holds one 32-byte block per row filled with s.
// Computed in float and rounded once to the output type (half data too: the A2/A3 implementation casts to float,
// membase/common/softmax_grad_nd_impl.h). The shape comes from softmaxShapeInfo when its srcM is set, otherwise from
// the tiling (SoftMaxGradTilingFunc). sharedTmpBuffer must be a live UB tensor; its size is not checked.
// Cost (an estimate): the vector passes of the real algorithm (mul, reduce sum, brcb, sub, mul; casts for half).
#pragma once

#include <vector>

#include "adv_softmax.h"
#include "vec_reduce.h"

namespace akgen_sim {

// The row sum of the library's ReduceSumLastNDImpl (membase/v220 softmax_common_nd_reduce.h) over `valid` float
// values: each 64-column chunk block-reduced to 8 sums (adjacent-pair trees of 8), the chunks' block sums added in
// chunk order, the 8 totals block-reduced; a tail of valid % 64 columns whole-reduced (one 64-lane tree, the masked
// lanes 0) and added last. Every add rounds to float.
template <typename F> inline float nd_row_sum(uint32_t valid, F at) {
    const uint32_t chunks = valid / 64, tail = valid % 64;
    float acc[8] = {0, 0, 0, 0, 0, 0, 0, 0}, v[64];
    for (uint32_t c = 0; c < chunks; ++c) {
        for (uint32_t b = 0; b < 8; ++b) {
            for (uint32_t i = 0; i < 8; ++i) v[i] = at(c * 64 + b * 8 + i);
            const float bs = tree_sum<float>(v, 8);
            acc[b] = c == 0 ? bs : acc[b] + bs;
        }
    }
    float total = 0;
    if (chunks > 0) total = tree_sum<float>(acc, 8);
    if (tail != 0) {
        for (uint32_t i = 0; i < 64; ++i) v[i] = i < tail ? at(chunks * 64 + i) : 0.0f;
        const float t = tree_sum<float>(v, 64);
        total = chunks > 0 ? total + t : t;
    }
    return total;
}

template <typename T>
inline void softmax_grad_rows(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& grad,
                              const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<uint8_t>* tmp,
                              SmShape sh, bool front, const loc_t& loc) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                  "Failed to check dtype in SoftmaxGrad, current api support dtype combination is half, float");
    touch(api, loc);
    if (sh.m == 0 || sh.k == 0) return;
    if ((uint64_t(sh.k) * sizeof(T)) % 32 != 0) {
        fail("SIM-SOFTMAX-SHAPE", fmt("%s: srcK %u x %zu B is not 32-byte aligned; pad the last axis and pass the real "
                                      "length as oriSrcK", api, sh.k, sizeof(T)), loc, "api_mismatch", api);
    }
    const uint64_t n = uint64_t(sh.m) * sh.k;
    constexpr uint32_t blk = 32 / sizeof(T);
    check_local(grad, "gradTensor", api, n * sizeof(T), loc);
    check_local(src, "srcTensor", api, n * sizeof(T), loc);
    check_local(dst, "dstTensor", api, front ? uint64_t(sh.m) * 32 : n * sizeof(T), loc);
    if (tmp) check_local(*tmp, "sharedTmpBuffer", api, 0, loc);
    std::vector<float> sums(sh.m);
    for (uint32_t r = 0; r < sh.m; ++r) {
        const T* g = grad.addr_ + uint64_t(r) * sh.k;
        const T* y = src.addr_ + uint64_t(r) * sh.k;
        sums[r] = nd_row_sum(sh.valid, [g, y](uint32_t j) {
            return static_cast<float>(g[j]) * static_cast<float>(y[j]);
        });
    }
    // dst may be src or grad (the documented reuse): every row's sum is taken before anything is written
    for (uint32_t r = 0; r < sh.m; ++r) {
        if (front) {
            for (uint32_t j = 0; j < blk; ++j) dst.addr_[uint64_t(r) * blk + j] = static_cast<T>(sums[r]);
            continue;
        }
        const T* g = grad.addr_ + uint64_t(r) * sh.k;
        const T* y = src.addr_ + uint64_t(r) * sh.k;
        T* d = dst.addr_ + uint64_t(r) * sh.k;
        for (uint32_t j = 0; j < sh.k; ++j) {
            d[j] = static_cast<T>((static_cast<float>(g[j]) - sums[r]) * static_cast<float>(y[j]));
        }
    }
    const double reps = double((n * sizeof(float) + 255) / 256);
    const double passes = (front ? 3.0 : 5.0) + (std::is_same_v<T, half> ? 3.0 : 0.0);
    vec_charge("mul", api, reps * passes, dst.slot_, {grad.slot_, src.slot_, tmp ? tmp->slot_ : nullptr}, loc);
}

}  // namespace akgen_sim

namespace AscendC {

template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
inline void SoftmaxGrad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                        const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling, bool isFront = false,
                        const SoftMaxShapeInfo& softmaxShapeInfo = {}, AKGEN_LOC) {
    static_assert(!isDataFormatNZ, "akgen sim: SoftmaxGrad is emulated for ND data only");
    ::akgen_sim::softmax_grad_rows("SoftmaxGrad", dstTensor, gradTensor, srcTensor, nullptr,
                                   ::akgen_sim::softmax_shape(tiling, softmaxShapeInfo, "SoftmaxGrad", loc), isFront,
                                   loc);
}
template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
inline void SoftmaxGrad(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                        const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                        const SoftMaxTiling& tiling, bool isFront = false,
                        const SoftMaxShapeInfo& softmaxShapeInfo = {}, AKGEN_LOC) {
    static_assert(!isDataFormatNZ, "akgen sim: SoftmaxGrad is emulated for ND data only");
    ::akgen_sim::softmax_grad_rows("SoftmaxGrad", dstTensor, gradTensor, srcTensor, &sharedTmpBuffer,
                                   ::akgen_sim::softmax_shape(tiling, softmaxShapeInfo, "SoftmaxGrad", loc), isFront,
                                   loc);
}

template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
inline void SoftmaxGradFront(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                             const LocalTensor<T>& srcTensor, const SoftMaxTiling& tiling,
                             const SoftMaxShapeInfo& softmaxShapeInfo = {}, AKGEN_LOC) {
    static_assert(!isDataFormatNZ, "akgen sim: SoftmaxGradFront is emulated for ND data only");
    ::akgen_sim::softmax_grad_rows("SoftmaxGradFront", dstTensor, gradTensor, srcTensor, nullptr,
                                   ::akgen_sim::softmax_shape(tiling, softmaxShapeInfo, "SoftmaxGradFront", loc), true,
                                   loc);
}
template <typename T, bool isBasicBlock = false, bool isDataFormatNZ = false>
inline void SoftmaxGradFront(const LocalTensor<T>& dstTensor, const LocalTensor<T>& gradTensor,
                             const LocalTensor<T>& srcTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                             const SoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}, AKGEN_LOC) {
    static_assert(!isDataFormatNZ, "akgen sim: SoftmaxGradFront is emulated for ND data only");
    ::akgen_sim::softmax_grad_rows("SoftmaxGradFront", dstTensor, gradTensor, srcTensor, &sharedTmpBuffer,
                                   ::akgen_sim::softmax_shape(tiling, softmaxShapeInfo, "SoftmaxGradFront", loc), true,
                                   loc);
}

}  // namespace AscendC
