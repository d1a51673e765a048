// akgen sim: the high-level Power (lib/math/kernel_operator_power_intf.h): dst = base ^ exponent element-wise, in the
// three forms of the API (tensor ^ tensor, tensor ^ scalar, scalar ^ tensor), each with and without sharedTmpBuffer
// and calCount. A2/A3 take half, float and int32_t. Floats: computed in float (IEEE pow: a negative base with an
// integral exponent keeps its sign, otherwise NaN) and rounded once to T; int32_t: exact integer power (a negative
// exponent gives 0 unless the base is 1 or -1). Charged like the exp/ln pair it is built from.
#pragma once

#include "math.h"  // not <cmath>: a kernel may be named like a libm function (NPUKernelBench's `sqrt`)
#include "vec_engine.h"

namespace AscendC {

struct PowerConfig {
    uint32_t algo = 0;  // INTRINSIC; DOUBLE_FLOAT_TECH exists on Ascend 950 only
};
inline constexpr PowerConfig defaultPowerConfig{};

}  // namespace AscendC

namespace akgen_sim {

template <typename T> inline T power_of(T base, T exponent) {
    if constexpr (std::is_same_v<T, int32_t>) {
        if (exponent < 0) return base == 1 ? 1 : (base == -1 ? ((exponent & 1) ? -1 : 1) : 0);
        int64_t r = 1, b = base;
        for (int32_t e = exponent; e > 0; e >>= 1) {
            if (e & 1) r = static_cast<int32_t>(r * b);
            b = static_cast<int32_t>(b * b);
        }
        return static_cast<int32_t>(r);
    } else {
        return static_cast<T>(::akgen_sim::m::pow(static_cast<float>(base), static_cast<float>(exponent)));
    }
}

template <typename T>
inline void power_apply(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>* s0, const T* c0,
                        const AscendC::LocalTensor<T>* s1, const T* c1, uint32_t count, const loc_t& loc) {
    static_assert(one_of_v<T, half, float, int32_t>,
                  "Failed to check dtype in Power, current api support dtype combination is half, float, int32_t");
    touch("Power", loc);
    if (count == 0) return;
    uint64_t bytes = uint64_t(count) * sizeof(T);
    check_local(dst, "dst", "Power", bytes, loc);
    if (s0) check_local(*s0, "src0", "Power", bytes, loc);
    if (s1) check_local(*s1, "src1", "Power", bytes, loc);
    for (uint32_t i = 0; i < count; ++i) {
        T a = s0 ? s0->addr_[i] : *c0;
        T b = s1 ? s1->addr_[i] : *c1;
        dst.addr_[i] = power_of<T>(a, b);
    }
    Slot* srcs[2] = {s0 ? s0->slot_ : nullptr, s1 ? s1->slot_ : nullptr};
    double repeats = repeats_for<T>(uint64_t(count)) * 3.0;  // Ln, Mul, Exp
    if (srcs[0] && srcs[1]) vec_charge("exp", "Power", repeats, dst.slot_, {srcs[0], srcs[1]}, loc);
    else vec_charge("exp", "Power", repeats, dst.slot_, {srcs[0] ? srcs[0] : srcs[1]}, loc);
}

}  // namespace akgen_sim

namespace AscendC {

#define AKGEN_POWER_FORMS(ARG0, ARG1, P0, C0, P1, C1, SIZE)                                                            \
    template <typename T, bool isReuseSource = false, const PowerConfig& config = defaultPowerConfig>                 \
    inline void Power(const LocalTensor<T>& dst, ARG0, ARG1, const LocalTensor<uint8_t>& sharedTmpBuffer,            \
                      uint32_t calCount, AKGEN_LOC) {                                                                  \
        (void)sharedTmpBuffer;                                                                                         \
        ::akgen_sim::power_apply<T>(dst, P0, C0, P1, C1, calCount, loc);                                               \
    }                                                                                                                  \
    template <typename T, bool isReuseSource = false, const PowerConfig& config = defaultPowerConfig>                 \
    inline void Power(const LocalTensor<T>& dst, ARG0, ARG1, const LocalTensor<uint8_t>& sharedTmpBuffer, AKGEN_LOC) { \
        (void)sharedTmpBuffer;                                                                                         \
        ::akgen_sim::power_apply<T>(dst, P0, C0, P1, C1, SIZE, loc);                                                   \
    }                                                                                                                  \
    template <typename T, bool isReuseSource = false, const PowerConfig& config = defaultPowerConfig>                 \
    inline void Power(const LocalTensor<T>& dst, ARG0, ARG1, uint32_t calCount, AKGEN_LOC) {                          \
        ::akgen_sim::power_apply<T>(dst, P0, C0, P1, C1, calCount, loc);                                               \
    }                                                                                                                  \
    template <typename T, bool isReuseSource = false, const PowerConfig& config = defaultPowerConfig>                 \
    inline void Power(const LocalTensor<T>& dst, ARG0, ARG1, AKGEN_LOC) {                                             \
        ::akgen_sim::power_apply<T>(dst, P0, C0, P1, C1, SIZE, loc);                                                   \
    }

AKGEN_POWER_FORMS(const LocalTensor<T>& src0, const LocalTensor<T>& src1, &src0, nullptr, &src1, nullptr,
                  src0.GetSize())
AKGEN_POWER_FORMS(const LocalTensor<T>& src0, const T& src1Scalar, &src0, nullptr, nullptr, &src1Scalar,
                  src0.GetSize())
AKGEN_POWER_FORMS(const T& src0Scalar, const LocalTensor<T>& src1, nullptr, &src0Scalar, &src1, nullptr,
                  src1.GetSize())
#undef AKGEN_POWER_FORMS

}  // namespace AscendC
