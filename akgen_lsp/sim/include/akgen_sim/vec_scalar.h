// akgen sim: tensor-scalar vector ops (Adds, Subs, Muls, Divs, Maxs, Mins, LeakyRelu, ShiftLeft, ShiftRight) in the
// count and mask + repeat forms. The scalar is taken in the tensor's type (a non-deduced parameter: `Muls(h, h, 0.5f,
// n)` on half tensors compiles, as on CANN 9).
#pragma once

#include "vec_unary.h"

#define AKGEN_SCALAR_OP(NAME, COST, EXPR, ...)                                                                          \
    template <typename T>                                                                                              \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::type_identity_t<T>& scalarValue, \
                     const int32_t& count, AKGEN_LOC) {                                                                \
        static_assert(::akgen_sim::one_of_v<T, __VA_ARGS__>,                                                           \
                      "Failed to check dtype in " #NAME ", current api support dtype combination is " #__VA_ARGS__);   \
        using C = ::akgen_sim::calc_t<T>;                                                                              \
        const C s = static_cast<C>(scalarValue);                                                                       \
        ::akgen_sim::unary_count(#NAME, COST, dst, src, count,                                                         \
                                 [s](const T& x) { C a = static_cast<C>(x); return static_cast<T>(EXPR); }, loc);      \
    }                                                                                                                  \
    template <typename T, bool isSetMask = true, typename M, typename R,                                              \
              std::enable_if_t<std::is_integral_v<R>, int> = 0>                                                        \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::type_identity_t<T>& scalarValue, \
                     const M& mask, R repeatTime, const UnaryRepeatParams& p, AKGEN_LOC) {                             \
        static_assert(::akgen_sim::one_of_v<T, __VA_ARGS__>,                                                           \
                      "Failed to check dtype in " #NAME ", current api support dtype combination is " #__VA_ARGS__);   \
        using C = ::akgen_sim::calc_t<T>;                                                                              \
        const C s = static_cast<C>(scalarValue);                                                                       \
        ::akgen_sim::unary_repeat(#NAME, COST, dst, src, ::akgen_sim::to_mask(mask, isSetMask), repeatTime,            \
                                  ::akgen_sim::Stride{p.dstBlkStride, p.dstRepStride},                                \
                                  ::akgen_sim::Stride{p.srcBlkStride, p.srcRepStride},                                \
                                  [s](const T& x) { C a = static_cast<C>(x); return static_cast<T>(EXPR); }, loc);     \
    }

namespace AscendC {

AKGEN_SCALAR_OP(Adds, "adds", a + s, half, float, int16_t, int32_t, bfloat16_t)
AKGEN_SCALAR_OP(Subs, "adds", a - s, half, float, int16_t, int32_t, bfloat16_t)
AKGEN_SCALAR_OP(Muls, "muls", a * s, half, float, int16_t, int32_t, bfloat16_t)
AKGEN_SCALAR_OP(Divs, "muls", a / s, half, float)
AKGEN_SCALAR_OP(Maxs, "maxs", (a > s ? a : s), half, float, int16_t, int32_t, bfloat16_t)
AKGEN_SCALAR_OP(Mins, "mins", (a < s ? a : s), half, float, int16_t, int32_t, bfloat16_t)
AKGEN_SCALAR_OP(LeakyRelu, "muls", (a >= C(0) ? a : a * s), half, float)
AKGEN_SCALAR_OP(ShiftLeft, "adds", C(a << s), int16_t, uint16_t, int32_t, uint32_t)
AKGEN_SCALAR_OP(ShiftRight, "adds", C(a >> s), int16_t, uint16_t, int32_t, uint32_t)

}  // namespace AscendC
