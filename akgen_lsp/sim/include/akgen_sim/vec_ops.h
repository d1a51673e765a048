// akgen sim: the element-wise vector ops as data, one list per family, and their element loops.
//
// Each list entry is X(NAME, COST, EXPR, dtypes...): the API's name, its cost-table key, the element expression and
// the dtypes the A2/A3 hardware takes. vec_binary.h, vec_unary.h and vec_scalar.h make the API overloads from these
// lists; the count forms' element loops (`binary_loop`, `unary_loop`, `scalar_loop`) are only declared here and are
// compiled once, at -O2, in the launcher's vector object (launcher/vec_loops.cpp, from these same lists), so that a
// kernel's compile does not instantiate them again at -Og and its run does not execute them at -Og.
// Element rule: computed in calc_t<T> (float for half / bfloat16_t), rounded once to T.
#pragma once

#include <type_traits>

#include "types.h"

namespace akgen_sim {
// Max / Min (and Maxs / Mins) of floating-point elements: a NaN operand gives NaN, whichever operand it is (the
// Memory vector APIs' INF/NAN mode, asc-devkit "Memory矢量计算接口边界值汇总": an input that contains nan gives nan,
// of no particular sign), as the quiet NaN of the computing type; otherwise the larger / smaller value.
template <typename A, typename B> inline auto vmax_elem(A a, B b) -> std::decay_t<decltype(a > b ? a : b)> {
    using C = std::decay_t<decltype(a > b ? a : b)>;
    if constexpr (std::is_floating_point_v<C>) {
        if (a != a || b != b) return static_cast<C>(__builtin_nan(""));
    }
    return a > b ? a : b;
}
template <typename A, typename B> inline auto vmin_elem(A a, B b) -> std::decay_t<decltype(a < b ? a : b)> {
    using C = std::decay_t<decltype(a < b ? a : b)>;
    if constexpr (std::is_floating_point_v<C>) {
        if (a != a || b != b) return static_cast<C>(__builtin_nan(""));
    }
    return a < b ? a : b;
}
}  // namespace akgen_sim

#define AKGEN_BINARY_OPS(X)                                                                                            \
    X(Add, "add", a + b, half, float, int16_t, int32_t, bfloat16_t)                                                    \
    X(Sub, "sub", a - b, half, float, int16_t, int32_t, bfloat16_t)                                                    \
    X(Mul, "mul", a * b, half, float, int16_t, int32_t, bfloat16_t)                                                    \
    X(Div, "div", a / b, half, float)                                                                                  \
    X(Max, "max", ::akgen_sim::vmax_elem(a, b), half, float, int16_t, int32_t, bfloat16_t)                             \
    X(Min, "min", ::akgen_sim::vmin_elem(a, b), half, float, int16_t, int32_t, bfloat16_t)                             \
    X(And, "and", (a & b), int16_t, uint16_t)                                                                          \
    X(Or, "or", (a | b), int16_t, uint16_t)                                                                            \
    X(AddRelu, "add", ((a + b) > 0 ? (a + b) : decltype(a + b)(0)), half, float, int16_t)                             \
    X(SubRelu, "sub", ((a - b) > 0 ? (a - b) : decltype(a - b)(0)), half, float, int16_t)

// EXPR in `a` (the element in C = calc_t<T>) and C.
#define AKGEN_UNARY_OPS(X)                                                                                             \
    X(Exp, "exp", ::akgen_sim::m::exp(a), half, float)                                                                 \
    X(Ln, "ln", ::akgen_sim::m::log(a), half, float)                                                                   \
    X(Abs, "abs", ::akgen_sim::m::fabs(a), half, float)                                                                \
    X(Reciprocal, "reciprocal", C(1) / a, half, float)                                                                 \
    X(Sqrt, "sqrt", ::akgen_sim::m::sqrt(a), half, float)                                                              \
    X(Rsqrt, "rsqrt", C(1) / ::akgen_sim::m::sqrt(a), half, float)                                                     \
    X(Relu, "relu", (a > C(0) ? a : C(0)), half, float, int32_t)                                                       \
    X(Not, "not", C(~a), int16_t, uint16_t)                                                                            \
    X(Neg, "neg", (-a), half, float, int16_t, int32_t)

// EXPR in `a`, the scalar `s` (both in C) and C.
#define AKGEN_SCALAR_OPS(X)                                                                                            \
    X(Adds, "adds", a + s, half, float, int16_t, int32_t, bfloat16_t)                                                  \
    X(Subs, "adds", a - s, half, float, int16_t, int32_t, bfloat16_t)                                                  \
    X(Muls, "muls", a * s, half, float, int16_t, int32_t, bfloat16_t)                                                  \
    X(Divs, "muls", a / s, half, float)                                                                                \
    X(Maxs, "maxs", ::akgen_sim::vmax_elem(a, s), half, float, int16_t, int32_t, bfloat16_t)                           \
    X(Mins, "mins", ::akgen_sim::vmin_elem(a, s), half, float, int16_t, int32_t, bfloat16_t)                           \
    X(LeakyRelu, "muls", (a >= C(0) ? a : a * s), half, float)                                                         \
    X(ShiftLeft, "adds", ::akgen_sim::vec_shift_left<C>(a, s), int16_t, uint16_t, int32_t, uint32_t)                   \
    X(ShiftRight, "adds", ::akgen_sim::vec_shift_right<C>(a, s), int16_t, uint16_t, int32_t, uint32_t)

namespace akgen_sim {

// Vector shifts by a scalar count. The hardware takes counts up to the element width (A2/A3: [0, 16] for 16-bit and
// [0, 32] for 32-bit types, ShiftLeft.md / ShiftRight.md): a count of the full width shifts every bit out, giving 0,
// or the sign (-1 for a negative element) for the arithmetic right shift of a signed type (the same rule Ascend 950's
// page states for counts past the width). In C++ a shift by the width is undefined (x86 masks the count, so a 32-bit
// x >> 32 would be x), hence these helpers. A negative count is read as unsigned, so it shifts everything out too.
template <typename T>
inline T vec_shift_right(T a, T s) {
    constexpr long long width = static_cast<long long>(sizeof(T)) * 8;
    const long long n = static_cast<long long>(s);
    if (n < 0 || n >= width) return (std::is_signed_v<T> && a < T(0)) ? T(-1) : T(0);
    return static_cast<T>(a >> n);
}

template <typename T>
inline T vec_shift_left(T a, T s) {
    constexpr long long width = static_cast<long long>(sizeof(T)) * 8;
    const long long n = static_cast<long long>(s);
    if (n < 0 || n >= width) return T(0);
    using U = std::make_unsigned_t<T>;
    return static_cast<T>(static_cast<U>(static_cast<U>(a) << n));
}

#define AKGEN_VEC_OP_ENUM(NAME, ...) NAME,
enum class VecOp : uint16_t { AKGEN_BINARY_OPS(AKGEN_VEC_OP_ENUM) AKGEN_UNARY_OPS(AKGEN_VEC_OP_ENUM)
                                  AKGEN_SCALAR_OPS(AKGEN_VEC_OP_ENUM) };
#undef AKGEN_VEC_OP_ENUM

// One element of each op: `VecExpr<VecOp::Add>::binary(a, b)` (in C, unrounded), `::unary<T>(x)` and
// `::scalar<T>(x, s)` (rounded to T). The repeat forms (in the kernel's translation unit) and the count loops (in the
// launcher's) both compute through these.
template <VecOp Op> struct VecExpr;
#define AKGEN_VEC_BINARY_EXPR(NAME, COST, EXPR, ...)                                                                   \
    template <> struct VecExpr<VecOp::NAME> {                                                                          \
        template <typename C> static auto binary(C a, C b) { return EXPR; }                                            \
    };
#define AKGEN_VEC_UNARY_EXPR(NAME, COST, EXPR, ...)                                                                    \
    template <> struct VecExpr<VecOp::NAME> {                                                                          \
        template <typename T> static T unary(const T& x) {                                                             \
            using C = calc_t<T>;                                                                                       \
            C a = static_cast<C>(x);                                                                                   \
            return static_cast<T>(EXPR);                                                                               \
        }                                                                                                              \
    };
#define AKGEN_VEC_SCALAR_EXPR(NAME, COST, EXPR, ...)                                                                   \
    template <> struct VecExpr<VecOp::NAME> {                                                                          \
        template <typename T> static T scalar(const T& x, calc_t<T> s) {                                               \
            using C = calc_t<T>;                                                                                       \
            C a = static_cast<C>(x);                                                                                   \
            return static_cast<T>(EXPR);                                                                               \
        }                                                                                                              \
    };
AKGEN_BINARY_OPS(AKGEN_VEC_BINARY_EXPR)
AKGEN_UNARY_OPS(AKGEN_VEC_UNARY_EXPR)
AKGEN_SCALAR_OPS(AKGEN_VEC_SCALAR_EXPR)
#undef AKGEN_VEC_BINARY_EXPR
#undef AKGEN_VEC_UNARY_EXPR
#undef AKGEN_VEC_SCALAR_EXPR

// The count forms' element loops, defined in launcher/vec_loops.cpp for every (op, listed dtype): d[i] = op(a[i]...)
// for i in [0, n), in order (an in-place call, d == a, is the same as element by element).
template <VecOp Op, typename T> void binary_loop(T* d, const T* a, const T* b, int64_t n);
template <VecOp Op, typename T> void unary_loop(T* d, const T* a, int64_t n);
template <VecOp Op, typename T> void scalar_loop(T* d, const T* a, calc_t<T> s, int64_t n);

}  // namespace akgen_sim
