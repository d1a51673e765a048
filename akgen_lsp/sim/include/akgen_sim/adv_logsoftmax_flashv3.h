// akgen sim: LogSoftMax (adv_api/activation/logsoftmax.h) on ND data of srcM rows x srcK columns (srcK 32-byte
// aligned), reduce along the last axis, as the A2/A3 (dav-2201) library computes it
// (membase/common/logsoftmax_common_impl.h), per row over the first oriSrcK columns:
//   max = max(x), e = exp(x - max), sum = sum(e), dst = Ln(e / sum) * 0.4342944819
// i.e. the library's LogSoftMax is log10 of the softmax (Ln followed by Muls with log10(e)), not the natural log.
// In float (half data is cast to float first and the results rounded once to half); sumTensor and maxTensor (type T)
// hold one 32-byte block per row filled with the row's value. The shape comes from softmaxShapeInfo when its srcM and
// srcK are set, otherwise from the source tensor's ShapeInfo (SetShapeInfo); the LogSoftMaxTiling argument is not
// read (the library recomputes a SoftMaxTiling from the work space). Columns past oriSrcK are not written.
// Checked: the 32-byte aligned last axis, oriSrcK <= srcK, operand sizes. Not checked: the sharedTmpBuffer size.
// Cost (an estimate): the vector passes of the library (reduce max, sub, exp, reduce sum, div, ln, muls).
#pragma once

#include <vector>

#include "adv_softmax.h"
#include "adv_softmax_grad.h"  // nd_row_sum
#include "vec_binary.h"
#include "shape_info.h"

namespace akgen_sim {

constexpr float kLogSoftMaxLog10E = 0.4342944819f;

template <typename T>
inline SmShape logsoftmax_shape(const AscendC::LocalTensor<T>& src, const AscendC::SoftMaxShapeInfo& si,
                                const char* api, const loc_t& loc) {
    SmShape r{0, 0, 0};
    if (si.srcM != 0 && si.srcK != 0) {
        r = {si.srcM, si.srcK, si.oriSrcK != 0 ? si.oriSrcK : si.srcK};
    } else {
        const AscendC::ShapeInfo& ts = src.shapeInfo_;
        if (ts.shapeDim == 0 || ts.shape[ts.shapeDim - 1] == 0) {
            fail("SIM-SOFTMAX-SHAPE", fmt("%s: no shape: pass a SoftMaxShapeInfo {srcM, srcK, oriSrcM, oriSrcK} or "
                                          "set the source tensor's shape with SetShapeInfo", api),
                 loc, "api_mismatch", api);
            return r;
        }
        r.k = ts.shape[ts.shapeDim - 1];
        r.m = static_cast<uint32_t>(AscendC::GetShapeSize(ts) / r.k);
        r.valid = ts.originalShapeDim > 0 && ts.originalShape[ts.originalShapeDim - 1] != 0
                      ? ts.originalShape[ts.originalShapeDim - 1] : r.k;
    }
    if (r.valid > r.k) {
        fail("SIM-SOFTMAX-SHAPE", fmt("%s: oriSrcK %u is larger than srcK %u (srcK is the 32-byte aligned row length)",
                                      api, r.valid, r.k), loc, "api_mismatch", api);
        r.m = 0;
    }
    return r;
}

template <typename T>
inline void logsoftmax_rows(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& sum,
                            const AscendC::LocalTensor<T>& max, const AscendC::LocalTensor<T>& src, SmShape sh,
                            const loc_t& loc) {
    const char* api = "LogSoftMax";
    if (sh.m == 0 || sh.k == 0) return;
    if ((uint64_t(sh.k) * sizeof(T)) % 32 != 0) {
        fail("SIM-SOFTMAX-SHAPE", fmt("%s: src local's last axis is %u, which must be 32B aligned; pad the last axis "
                                      "and pass the real length as oriSrcK", api, sh.k), loc, "api_mismatch", api);
        return;
    }
    const uint64_t n = uint64_t(sh.m) * sh.k;
    constexpr uint32_t blk = 32 / sizeof(T);
    check_local(src, "src", api, n * sizeof(T), loc);
    check_local(dst, "dst", api, n * sizeof(T), loc);
    check_local(sum, "sumTensor", api, uint64_t(sh.m) * 32, loc);
    check_local(max, "maxTensor", api, uint64_t(sh.m) * 32, loc);
    std::vector<float> e(sh.valid);
    for (uint32_t r = 0; r < sh.m; ++r) {
        const T* x = src.addr_ + uint64_t(r) * sh.k;
        T* y = dst.addr_ + uint64_t(r) * sh.k;
        float mx = static_cast<float>(x[0]);
        for (uint32_t j = 1; j < sh.valid; ++j) mx = static_cast<float>(x[j]) > mx ? static_cast<float>(x[j]) : mx;
        float sm = 0;
        for (uint32_t j = 0; j < sh.valid; ++j) {
            e[j] = m::exp(static_cast<float>(x[j]) - mx);
            sm += e[j];
        }
        // dst may be src: the row is read in full (max, e) before it is written
        for (uint32_t j = 0; j < sh.valid; ++j) y[j] = static_cast<T>(m::log(e[j] / sm) * kLogSoftMaxLog10E);
        for (uint32_t j = 0; j < blk; ++j) {
            sum.addr_[uint64_t(r) * blk + j] = static_cast<T>(sm);
            max.addr_[uint64_t(r) * blk + j] = static_cast<T>(mx);
        }
    }
    const double reps = double((n * sizeof(float) + 255) / 256);
    vec_charge("exp", api, reps * (std::is_same_v<T, half> ? 9.0 : 7.0), dst.slot_, {src.slot_, sum.slot_, max.slot_},
               loc);
}

}  // namespace akgen_sim

namespace AscendC {

template <typename T, bool isReuseSource = false, bool isDataFormatNZ = false>
inline void LogSoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& sumTensor, const LocalTensor<T>& maxTensor,
                       const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,
                       const LogSoftMaxTiling& tiling, const SoftMaxShapeInfo& softmaxShapeInfo = {}, AKGEN_LOC) {
    static_assert(::akgen_sim::one_of_v<T, half, float>,
                  "Failed to check dtype in LogSoftMax, current api support dtype combination is half, float");
    static_assert(!isDataFormatNZ, "akgen sim: LogSoftMax is emulated for ND data only");
    (void)sharedTmpBuffer;
    (void)tiling;
    ::akgen_sim::touch("LogSoftMax", loc);
    const ::akgen_sim::SmShape sh = ::akgen_sim::logsoftmax_shape(src, softmaxShapeInfo, "LogSoftMax", loc);
    ::akgen_sim::logsoftmax_rows(dst, sumTensor, maxTensor, src, sh, loc);
}

}  // namespace AscendC

// ---- SoftmaxFlashV3 (adv_api/activation/softmaxflashv3.h, A2/A3: membase/v220/softmax_flashv3_impl.h) ----
// T = half data, U = float statistics (one 32-byte block of 8 floats per row; expMaxTensor 16 halves per row). Per row
// of k columns (k >= 512, a whole number of 64-column repeats plus a tail), in float, s = alpha / (1 - alpha),
// baseK = k / splitMeanCnt:
//   lanes[64] = the 8-element block sums of the first 512 columns, plus, lane by lane, every further 64-column repeat
//   local[g] = (sum of lanes 8g..8g+7) / baseK (g < 8); gmean = (sum of local) / 8
//   x[g * baseK + j] -= (gmean - local[g]) * s
//   no update: mean = gmean; max = rowmax(x) + (gmean - mean) * s; dst = exp(x - (max - shiftCurr)); sum = rowsum
//   update:    mean = (inMean * (loopCnt - 1) + gmean) / loopCnt; shiftCurr = (gmean - mean) * s;
//              max = rowmax(x) + shiftCurr; shiftPrev = (inMean - mean) * s; max = max(max, inMax + shiftPrev);
//              em = exp(inMax - max + shiftPrev); sum = em * inSum + rowsum(exp(x - (max - shiftCurr)));
//              expMax = half(em)
// Each statistic is read from and written to its tensor in the library's order, so an output that is also the
// matching input (mean == inMean, as the library allows) sees the value the library's own steps leave there. Sums
// of 8 are adjacent-pair trees; the row sum of exp is nd_row_sum's order. Checked: k >= 512 (the library's assert),
// operand sizes. Not checked: the sharedTmpBuffer size.
namespace AscendC {
struct SoftMaxParams {
    uint32_t srcM{0};
    uint32_t srcK{0};
    uint32_t oriSrcM{0};
    uint32_t oriSrcK{0};
    uint32_t loopCnt{1};
    uint32_t splitMeanCnt{8};
    float alpha{0.9375f};
};
}  // namespace AscendC

namespace akgen_sim {

template <typename T, typename U, bool isUpdate>
inline void softmax_flash_v3(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& mean,
                             const AscendC::LocalTensor<U>& sum, const AscendC::LocalTensor<U>& max,
                             const AscendC::LocalTensor<T>& src, const AscendC::LocalTensor<T>& expMax,
                             const AscendC::LocalTensor<U>& inMean, const AscendC::LocalTensor<U>& inSum,
                             const AscendC::LocalTensor<U>& inMax, const AscendC::SoftMaxParams& p, const loc_t& loc) {
    static_assert(std::is_same_v<T, half> && std::is_same_v<U, float>,
                  "Failed to check dtype in SoftmaxFlashV3, current api support dtype combination is T: half, U: "
                  "float");
    const char* api = "SoftmaxFlashV3";
    touch(api, loc);
    const uint32_t m = p.srcM, k = p.srcK;
    if (m == 0) return;
    if (k < 512 || k % 16 != 0 || p.splitMeanCnt != 8 || p.loopCnt == 0) {
        fail("SIM-SOFTMAX-SHAPE", fmt("%s: srcK %u, splitMeanCnt %u, loopCnt %u: srcK must be at least 512 and 32-byte "
                                      "aligned, splitMeanCnt 8 and loopCnt at least 1 (SoftMaxParams)",
                                      api, k, p.splitMeanCnt, p.loopCnt), loc, "api_mismatch", api);
        return;
    }
    const uint64_t n = uint64_t(m) * k;
    check_local(src, "srcTensor", api, n * sizeof(T), loc);
    check_local(dst, "dstTensor", api, n * sizeof(T), loc);
    for (const auto* t : {&mean, &sum, &max}) check_local(*t, "statistics tensor", api, uint64_t(m) * 32, loc);
    if (isUpdate) {
        for (const auto* t : {&inMean, &inSum, &inMax}) check_local(*t, "input statistics", api, uint64_t(m) * 32, loc);
        check_local(expMax, "expMaxTensor", api, uint64_t(m) * 32, loc);
    }
    const float s = p.alpha / (1.0f - p.alpha);
    const uint32_t baseK = k / p.splitMeanCnt, reps = k / 64, tail = k % 64;
    std::vector<float> x(k);
    for (uint32_t r = 0; r < m; ++r) {
        const T* xs = src.addr_ + uint64_t(r) * k;
        for (uint32_t j = 0; j < k; ++j) x[j] = static_cast<float>(xs[j]);
        float lanes[64], v[8], local[8];
        for (uint32_t l = 0; l < 64; ++l) {
            for (uint32_t i = 0; i < 8; ++i) v[i] = x[l * 8 + i];
            lanes[l] = tree_sum<float>(v, 8);
        }
        for (uint32_t rep = 8; rep < reps; ++rep)
            for (uint32_t l = 0; l < 64; ++l) lanes[l] = x[rep * 64 + l] + lanes[l];
        for (uint32_t l = 0; l < tail; ++l) lanes[l] = x[reps * 64 + l] + lanes[l];
        for (uint32_t g = 0; g < 8; ++g) {
            for (uint32_t i = 0; i < 8; ++i) v[i] = lanes[g * 8 + i];
            local[g] = tree_sum<float>(v, 8) * (1.0f / static_cast<float>(baseK));
        }
        for (uint32_t g = 0; g < 8; ++g) v[g] = local[g];
        const float gmean = tree_sum<float>(v, 8) * (1.0f / 8.0f);
        for (uint32_t g = 0; g < 8; ++g) {
            const float shift = (gmean - local[g]) * s;
            for (uint32_t j = 0; j < baseK; ++j) x[g * baseK + j] = x[g * baseK + j] - shift;
        }
        float rowMax = x[0];
        for (uint32_t j = 1; j < k; ++j) rowMax = x[j] > rowMax ? x[j] : rowMax;
        U* me = mean.addr_ + uint64_t(r) * 8;
        U* su = sum.addr_ + uint64_t(r) * 8;
        U* mx = max.addr_ + uint64_t(r) * 8;
        const U* im = isUpdate ? inMean.addr_ + uint64_t(r) * 8 : nullptr;
        const U* is = isUpdate ? inSum.addr_ + uint64_t(r) * 8 : nullptr;
        const U* ix = isUpdate ? inMax.addr_ + uint64_t(r) * 8 : nullptr;
        float shiftCurr[8], em[8];
        for (uint32_t i = 0; i < 8; ++i) {
            if constexpr (isUpdate) {
                me[i] = im[i] * (static_cast<float>(p.loopCnt) - 1.0f);
                me[i] = me[i] + gmean;
                me[i] = me[i] * (1.0f / static_cast<float>(p.loopCnt));
            } else {
                me[i] = gmean;
            }
            shiftCurr[i] = (gmean - me[i]) * s;
            mx[i] = rowMax + shiftCurr[i];
        }
        if constexpr (isUpdate) {
            for (uint32_t i = 0; i < 8; ++i) {
                const float shiftPrev = (im[i] - me[i]) * s;  // im may be me: read after the mean is written
                const float prevMax = ix[i] + shiftPrev;      // ix may be mx
                mx[i] = mx[i] > prevMax ? mx[i] : prevMax;
                em[i] = m::exp(ix[i] - mx[i] + shiftPrev);
                su[i] = em[i] * is[i];
            }
        }
        const float shifted = mx[0] - shiftCurr[0];
        T* y = dst.addr_ + uint64_t(r) * k;
        for (uint32_t j = 0; j < k; ++j) x[j] = m::exp(x[j] - shifted);
        for (uint32_t j = 0; j < k; ++j) y[j] = static_cast<T>(x[j]);
        const float rs = nd_row_sum(k, [&x](uint32_t j) { return x[j]; });
        for (uint32_t i = 0; i < 8; ++i) su[i] = isUpdate ? su[i] + rs : rs;
        if constexpr (isUpdate) {
            for (uint32_t i = 0; i < 16; ++i) expMax.addr_[uint64_t(r) * 16 + i] = static_cast<T>(em[i % 8]);
        }
    }
    const double vr = double((n * sizeof(float) + 255) / 256);
    vec_charge("exp", api, vr * (isUpdate ? 10.0 : 8.0), dst.slot_, {src.slot_, mean.slot_, sum.slot_, max.slot_},
               loc);
}

}  // namespace akgen_sim

namespace AscendC {

template <typename T, typename U, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SoftmaxFlashV3(const LocalTensor<T>& dstTensor, const LocalTensor<U>& meanTensor,
                           const LocalTensor<U>& expSumTensor, const LocalTensor<U>& maxTensor,
                           const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor,
                           const LocalTensor<U>& inMeanTensor, const LocalTensor<U>& inExpSumTensor,
                           const LocalTensor<U>& inMaxTensor, const LocalTensor<uint8_t>& sharedTmpBuffer,
                           const SoftMaxTiling& tiling, const SoftMaxParams& params, AKGEN_LOC) {
    static_assert(!isDataFormatNZ, "akgen sim: SoftmaxFlashV3 takes ND data only (the library's only format)");
    (void)sharedTmpBuffer;
    (void)tiling;
    ::akgen_sim::softmax_flash_v3<T, U, isUpdate>(dstTensor, meanTensor, expSumTensor, maxTensor, srcTensor,
                                                  expMaxTensor, inMeanTensor, inExpSumTensor, inMaxTensor, params,
                                                  loc);
}
template <typename T, typename U, bool isUpdate = false, bool isReuseSource = false, bool isBasicBlock = false,
          bool isDataFormatNZ = false, const SoftmaxConfig& config = SOFTMAX_DEFAULT_CFG>
inline void SoftmaxFlashV3(const LocalTensor<T>& dstTensor, const LocalTensor<U>& meanTensor,
                           const LocalTensor<U>& expSumTensor, const LocalTensor<U>& maxTensor,
                           const LocalTensor<T>& srcTensor, const LocalTensor<T>& expMaxTensor,
                           const LocalTensor<U>& inMeanTensor, const LocalTensor<U>& inExpSumTensor,
                           const LocalTensor<U>& inMaxTensor, const SoftMaxTiling& tiling,
                           const SoftMaxParams& params, AKGEN_LOC) {
    SoftmaxFlashV3<T, U, isUpdate, isReuseSource, isBasicBlock, isDataFormatNZ, config>(
        dstTensor, meanTensor, expSumTensor, maxTensor, srcTensor, expMaxTensor, inMeanTensor, inExpSumTensor,
        inMaxTensor, LocalTensor<uint8_t>{}, tiling, params, loc);
}

}  // namespace AscendC
