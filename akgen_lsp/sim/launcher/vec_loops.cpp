// akgen sim launcher: the element loops of the count forms of the listed vector ops (akgen_sim/vec_ops.h), one per
// (op, dtype the hardware takes). Compiled on its own at -O2 (sim/pch.py) and joined to the launcher's and the
// program runtime's objects, so kernels only call them: their compile does not instantiate the loops at -Og, and their
// runs execute optimised ones. -O2 keeps the results bit for bit: no -ffast-math, and ISO C++ (-std=c++20) means no
// contraction into fused multiply-adds; the loops run in order, so an in-place call reads each element before it
// writes it, as element by element.
#include "akgen_sim/vec_ops.h"

namespace akgen_sim {

template <VecOp Op, typename T> void binary_loop(T* d, const T* a, const T* b, int64_t n) {
    using C = calc_t<T>;
    for (int64_t i = 0; i < n; ++i) d[i] = static_cast<T>(VecExpr<Op>::binary(static_cast<C>(a[i]), static_cast<C>(b[i])));
}

template <VecOp Op, typename T> void unary_loop(T* d, const T* a, int64_t n) {
    for (int64_t i = 0; i < n; ++i) d[i] = VecExpr<Op>::template unary<T>(a[i]);
}

template <VecOp Op, typename T> void scalar_loop(T* d, const T* a, calc_t<T> s, int64_t n) {
    for (int64_t i = 0; i < n; ++i) d[i] = VecExpr<Op>::template scalar<T>(a[i], s);
}

// Explicit instantiations: one loop per (op, dtype of its list entry); the lists have at most 5 dtypes.
#define AKGEN_EACH_1(M, O, T) M(O, T)
#define AKGEN_EACH_2(M, O, T, ...) M(O, T) AKGEN_EACH_1(M, O, __VA_ARGS__)
#define AKGEN_EACH_3(M, O, T, ...) M(O, T) AKGEN_EACH_2(M, O, __VA_ARGS__)
#define AKGEN_EACH_4(M, O, T, ...) M(O, T) AKGEN_EACH_3(M, O, __VA_ARGS__)
#define AKGEN_EACH_5(M, O, T, ...) M(O, T) AKGEN_EACH_4(M, O, __VA_ARGS__)
#define AKGEN_EACH_PICK(_1, _2, _3, _4, _5, NAME, ...) NAME
#define AKGEN_EACH(M, O, ...)                                                                                          \
    AKGEN_EACH_PICK(__VA_ARGS__, AKGEN_EACH_5, AKGEN_EACH_4, AKGEN_EACH_3, AKGEN_EACH_2, AKGEN_EACH_1)(M, O, __VA_ARGS__)

#define AKGEN_BINARY_LOOP(O, T) template void binary_loop<VecOp::O, T>(T*, const T*, const T*, int64_t);
#define AKGEN_UNARY_LOOP(O, T) template void unary_loop<VecOp::O, T>(T*, const T*, int64_t);
#define AKGEN_SCALAR_LOOP(O, T) template void scalar_loop<VecOp::O, T>(T*, const T*, calc_t<T>, int64_t);
#define AKGEN_BINARY_LOOPS(NAME, COST, EXPR, ...) AKGEN_EACH(AKGEN_BINARY_LOOP, NAME, __VA_ARGS__)
#define AKGEN_UNARY_LOOPS(NAME, COST, EXPR, ...) AKGEN_EACH(AKGEN_UNARY_LOOP, NAME, __VA_ARGS__)
#define AKGEN_SCALAR_LOOPS(NAME, COST, EXPR, ...) AKGEN_EACH(AKGEN_SCALAR_LOOP, NAME, __VA_ARGS__)
AKGEN_BINARY_OPS(AKGEN_BINARY_LOOPS)
AKGEN_UNARY_OPS(AKGEN_UNARY_LOOPS)
AKGEN_SCALAR_OPS(AKGEN_SCALAR_LOOPS)

}  // namespace akgen_sim
