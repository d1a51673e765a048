// akgen sim: unary vector ops (Exp, Ln, Abs, Reciprocal, Sqrt, Rsqrt, Relu, Not, Neg) in the count and
// mask + repeat forms. Computed in float for half/bfloat16_t and rounded once per element.
#pragma once

#include "vec_binary.h"

#define AKGEN_UNARY_OP(NAME, COST, EXPR, ...)                                                                           \
    template <typename T>                                                                                              \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count, AKGEN_LOC) {         \
        static_assert(::akgen_sim::one_of_v<T, __VA_ARGS__>,                                                           \
                      "Failed to check dtype in " #NAME ", current api support dtype combination is " #__VA_ARGS__);   \
        using C = ::akgen_sim::calc_t<T>;                                                                              \
        ::akgen_sim::unary_count(#NAME, COST, dst, src, count,                                                         \
                                 [](const T& x) { C a = static_cast<C>(x); return static_cast<T>(EXPR); }, loc);       \
    }                                                                                                                  \
    template <typename T, typename CT>                                                                                 \
        requires std::is_same_v<CT, int32_t>                                                                           \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const CT& count) {                         \
        NAME(dst, src, count, ::akgen_sim::ctx().last);                                                                \
    }                                                                                                                  \
    template <typename T, bool isSetMask = true, typename M, typename R,                                              \
              std::enable_if_t<std::is_integral_v<R>, int> = 0>                                                        \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const M& mask, R repeatTime,               \
                     const UnaryRepeatParams& p, AKGEN_LOC) {                                                          \
        static_assert(::akgen_sim::one_of_v<T, __VA_ARGS__>,                                                           \
                      "Failed to check dtype in " #NAME ", current api support dtype combination is " #__VA_ARGS__);   \
        using C = ::akgen_sim::calc_t<T>;                                                                              \
        ::akgen_sim::unary_repeat(#NAME, COST, dst, src, ::akgen_sim::to_mask(mask, isSetMask), repeatTime,            \
                                  ::akgen_sim::Stride{p.dstBlkStride, p.dstRepStride},                                \
                                  ::akgen_sim::Stride{p.srcBlkStride, p.srcRepStride},                                \
                                  [](const T& x) { C a = static_cast<C>(x); return static_cast<T>(EXPR); }, loc);      \
    }

namespace akgen_sim {
inline MaskArg to_mask(uint64_t m, bool set) { return MaskArg{false, set, m, 0}; }
inline MaskArg to_mask(const uint64_t* m, bool set) { return MaskArg{true, set, m[0], m[1]}; }
template <size_t N> inline MaskArg to_mask(const uint64_t (&m)[N], bool set) { return MaskArg{true, set, m[0], m[1]}; }
}  // namespace akgen_sim

namespace AscendC {

AKGEN_UNARY_OP(Exp, "exp", ::akgen_sim::m::exp(a), half, float)
AKGEN_UNARY_OP(Ln, "ln", ::akgen_sim::m::log(a), half, float)
AKGEN_UNARY_OP(Abs, "abs", ::akgen_sim::m::fabs(a), half, float)
AKGEN_UNARY_OP(Reciprocal, "reciprocal", C(1) / a, half, float)
AKGEN_UNARY_OP(Sqrt, "sqrt", ::akgen_sim::m::sqrt(a), half, float)
AKGEN_UNARY_OP(Rsqrt, "rsqrt", C(1) / ::akgen_sim::m::sqrt(a), half, float)
AKGEN_UNARY_OP(Relu, "relu", (a > C(0) ? a : C(0)), half, float, int32_t)
AKGEN_UNARY_OP(Not, "not", C(~a), int16_t, uint16_t)
AKGEN_UNARY_OP(Neg, "neg", (-a), half, float, int16_t, int32_t)

}  // namespace AscendC
