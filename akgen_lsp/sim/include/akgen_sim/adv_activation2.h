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
