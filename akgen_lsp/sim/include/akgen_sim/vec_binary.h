// akgen sim: binary vector ops (Add, Sub, Mul, Div, Max, Min, And, Or, AddRelu, SubRelu) in the three call forms:
// count, mask + repeat (continuous mask or mask[2] bits), and operators (`dst = a + b`).
#pragma once

#include "vec_engine.h"
#include "vec_ops.h"

namespace akgen_sim {
template <typename T, typename... Ok> inline constexpr bool one_of_v = (std::is_same_v<T, Ok> || ...);
}

// One binary API (an entry of vec_ops.h's AKGEN_BINARY_OPS): NAME, the cost-table key, the element expression in a, b
// (computed in float for half/bfloat16_t, then rounded once) and the dtype list of the A2/A3 hardware. Both forms
// compute the element through vec_ops.h (the count form's loop there, the repeat form's by VecExpr<NAME>), so EXPR is
// the list's column and not used here. The same holds for the unary and tensor-scalar macros.
#define AKGEN_BINARY_OP(NAME, COST, EXPR, ...)                                                                          \
    template <typename T>                                                                                              \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,               \
                     const int32_t& count, AKGEN_LOC) {                                                                \
        static_assert(::akgen_sim::one_of_v<T, __VA_ARGS__>,                                                           \
                      "Failed to check dtype in " #NAME ", current api support dtype combination is " #__VA_ARGS__);   \
        ::akgen_sim::binary_count_op<::akgen_sim::VecOp::NAME>(#NAME, COST, dst, src0, src1, count, loc);              \
    }                                                                                                                  \
    /* the exact CANN signature, for kernels that take the API's address (Foreach ops); checks then report at the  \
       last API call. Direct calls prefer the overload above (more specialised). */                                   \
    template <typename T, typename C>                                                                                  \
        requires std::is_same_v<C, int32_t>                                                                            \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,               \
                     const C& count) {                                                                                 \
        NAME(dst, src0, src1, count, ::akgen_sim::ctx().last);                                                         \
    }                                                                                                                  \
    template <typename T, bool isSetMask = true, typename R,                                                          \
              std::enable_if_t<std::is_integral_v<R>, int> = 0>                                                        \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, uint64_t mask, \
                     R repeatTime, const BinaryRepeatParams& p, AKGEN_LOC) {                                           \
        static_assert(::akgen_sim::one_of_v<T, __VA_ARGS__>,                                                           \
                      "Failed to check dtype in " #NAME ", current api support dtype combination is " #__VA_ARGS__);   \
        using E = ::akgen_sim::VecExpr<::akgen_sim::VecOp::NAME>;  /* the element: vec_ops.h */                        \
        ::akgen_sim::binary_repeat(#NAME, COST, dst, src0, src1, ::akgen_sim::mask_count<T>(mask, isSetMask),          \
                                   repeatTime, p, [](auto a, auto b) { return E::binary(a, b); }, loc);                \
    }                                                                                                                  \
    /* CANN's exact level-0 signature, for kernels that take its address (mask as uint64_t, repeat as uint8_t) */     \
    template <typename T, bool isSetMask = true, typename M, typename R>                                              \
        requires(std::is_same_v<M, uint64_t> && std::is_same_v<R, uint8_t>)                                           \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, M mask,       \
                     const R repeatTime, const BinaryRepeatParams& p) {                                                \
        NAME<T, isSetMask>(dst, src0, src1, static_cast<uint64_t>(mask), repeatTime, p, ::akgen_sim::ctx().last);     \
    }                                                                                                                  \
    template <typename T, bool isSetMask = true, typename R,                                                          \
              std::enable_if_t<std::is_integral_v<R>, int> = 0>                                                        \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,               \
                     const uint64_t mask[], R repeatTime, const BinaryRepeatParams& p, AKGEN_LOC) {                    \
        static_assert(::akgen_sim::one_of_v<T, __VA_ARGS__>,                                                           \
                      "Failed to check dtype in " #NAME ", current api support dtype combination is " #__VA_ARGS__);   \
        using E = ::akgen_sim::VecExpr<::akgen_sim::VecOp::NAME>;  /* the element: vec_ops.h */                        \
        ::akgen_sim::binary_repeat(#NAME, COST, dst, src0, src1, ::akgen_sim::mask_bits(mask, isSetMask), repeatTime, \
                                   p, [](auto a, auto b) { return E::binary(a, b); }, loc);                            \
    }

namespace AscendC {

AKGEN_BINARY_OPS(AKGEN_BINARY_OP)  // the list: vec_ops.h

// Operator forms: `dst = src0 + src1` computes over dst's size. Operators cannot take a source location: checks report
// at the last API call before them (documented fallback).
template <typename T, int OP> struct BinaryExpr {
    const LocalTensor<T>& a;
    const LocalTensor<T>& b;
    static constexpr bool is_tensor_expr = true;
    void assign_to(const LocalTensor<T>& d) const;
};

template <typename T> BinaryExpr<T, 0> operator+(const LocalTensor<T>& a, const LocalTensor<T>& b) { return {a, b}; }
template <typename T> BinaryExpr<T, 1> operator-(const LocalTensor<T>& a, const LocalTensor<T>& b) { return {a, b}; }
template <typename T> BinaryExpr<T, 2> operator*(const LocalTensor<T>& a, const LocalTensor<T>& b) { return {a, b}; }
template <typename T> BinaryExpr<T, 3> operator/(const LocalTensor<T>& a, const LocalTensor<T>& b) { return {a, b}; }
template <typename T> BinaryExpr<T, 4> operator&(const LocalTensor<T>& a, const LocalTensor<T>& b) { return {a, b}; }
template <typename T> BinaryExpr<T, 5> operator|(const LocalTensor<T>& a, const LocalTensor<T>& b) { return {a, b}; }

template <typename T, int OP> inline void assign(const LocalTensor<T>& dst, const BinaryExpr<T, OP>& e) {
    const auto& loc = ::akgen_sim::ctx().last;
    int32_t n = static_cast<int32_t>(dst.GetSize());
    if constexpr (OP == 0) Add(dst, e.a, e.b, n, loc);
    else if constexpr (OP == 1) Sub(dst, e.a, e.b, n, loc);
    else if constexpr (OP == 2) Mul(dst, e.a, e.b, n, loc);
    else if constexpr (OP == 3) Div(dst, e.a, e.b, n, loc);
    else if constexpr (OP == 4) And(dst, e.a, e.b, n, loc);
    else Or(dst, e.a, e.b, n, loc);
}

template <typename T, int OP> void BinaryExpr<T, OP>::assign_to(const LocalTensor<T>& d) const { assign(d, *this); }

}  // namespace AscendC
