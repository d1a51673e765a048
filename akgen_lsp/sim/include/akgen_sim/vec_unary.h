// akgen sim: unary vector ops (Exp, Ln, Abs, Reciprocal, Sqrt, Rsqrt, Relu, Not, Neg) in the count and
// mask + repeat forms. Computed in float for half/bfloat16_t and rounded once per element.
#pragma once

#include "vec_binary.h"

// One API of the vec_ops.h list (EXPR is that list's column: the element is VecExpr<NAME>'s).
#define AKGEN_UNARY_OP(NAME, COST, EXPR, ...)                                                                           \
    template <typename T>                                                                                              \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count, AKGEN_LOC) {         \
        static_assert(::akgen_sim::one_of_v<T, __VA_ARGS__>,                                                           \
                      "Failed to check dtype in " #NAME ", current api support dtype combination is " #__VA_ARGS__);   \
        ::akgen_sim::unary_count_op<::akgen_sim::VecOp::NAME>(#NAME, COST, dst, src, count, loc);                      \
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
        using E = ::akgen_sim::VecExpr<::akgen_sim::VecOp::NAME>;  /* the element: vec_ops.h */                        \
        ::akgen_sim::unary_repeat(#NAME, COST, dst, src, ::akgen_sim::to_mask(mask, isSetMask), repeatTime,            \
                                  ::akgen_sim::Stride{p.dstBlkStride, p.dstRepStride},                                \
                                  ::akgen_sim::Stride{p.srcBlkStride, p.srcRepStride},                                \
                                  [](const T& x) { return E::template unary<T>(x); }, loc);                            \
    }

namespace akgen_sim {
inline MaskArg to_mask(uint64_t m, bool set) { return MaskArg{false, set, m, 0}; }
inline MaskArg to_mask(const uint64_t* m, bool set) { return MaskArg{true, set, m[0], m[1]}; }
template <size_t N> inline MaskArg to_mask(const uint64_t (&m)[N], bool set) { return MaskArg{true, set, m[0], m[1]}; }
}  // namespace akgen_sim

namespace AscendC {

AKGEN_UNARY_OPS(AKGEN_UNARY_OP)  // the list: vec_ops.h

}  // namespace AscendC
