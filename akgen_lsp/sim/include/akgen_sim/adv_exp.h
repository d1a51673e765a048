// akgen sim: the advanced Exp of adv_api/math/exp.h, Exp<T, taylorExpandLevel, isReuseSource>(dst, src[, tmp], count),
// built as the A2/A3 library does (exp_common_impl.h), in float: x = float(src), IntX = floor(x), DecimalX = x - IntX,
// exp(DecimalX) = 1 + DecimalX + sum_{n=2..level} DecimalX^n / n! (each power as pow * DecimalX * (1/n), every step
// rounded to float), times exp(IntX) (the vector Exp, here expf); half results are rounded once at the end.
// taylorExpandLevel 0 is the basic Exp. Checked: operand sizes. Not checked: the size of sharedTmpBuffer.
#pragma once

#include "vec_engine.h"

namespace akgen_sim {

template <typename T>
inline void adv_exp_impl(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src, uint32_t count,
                         uint32_t level, const loc_t& loc) {
    const char* api = "Exp";
    touch(api, loc);
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                  "Failed to check dtype in Exp, current api support dtype combination is src and dst both: half / "
                  "float.");
    if (count == 0) return;
    check_local(src, "src", api, uint64_t(count) * sizeof(T), loc);
    check_local(dst, "dst", api, uint64_t(count) * sizeof(T), loc);
    for (uint32_t i = 0; i < count; ++i) {
        float x = static_cast<float>(src.addr_[i]);
        if (level == 0) {
            dst.addr_[i] = static_cast<T>(m::exp(x));
            continue;
        }
        float ip = static_cast<float>(m::floor(static_cast<double>(x)));
        float d = x - ip;
        float eip = m::exp(ip);
        float pw = d;
        float res = d + 1.0f;
        for (uint32_t n = 2; n <= level; ++n) {
            pw = d * pw;
            pw = pw * (1.0f / static_cast<float>(n));
            res = res + pw;
        }
        res = res * eip;
        dst.addr_[i] = static_cast<T>(res);
    }
    double reps = double((uint64_t(count) * sizeof(float) + 255) / 256);
    vec_charge("exp", api, reps * (4.0 + 3.0 * level), dst.slot_, {src.slot_}, loc);
}

}  // namespace akgen_sim

namespace AscendC {

template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
inline void Exp(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal, const uint32_t calCount, AKGEN_LOC) {
    ::akgen_sim::adv_exp_impl(dstLocal, srcLocal, calCount, taylorExpandLevel, loc);
}
template <typename T, uint8_t taylorExpandLevel, bool isReuseSource = false>
inline void Exp(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount, AKGEN_LOC) {
    (void)sharedTmpBuffer;
    ::akgen_sim::adv_exp_impl(dstLocal, srcLocal, calCount, taylorExpandLevel, loc);
}

}  // namespace AscendC
