// akgen sim: tensor-scalar vector ops (Adds, Subs, Muls, Divs, Maxs, Mins, LeakyRelu, ShiftLeft, ShiftRight) in the
// count and mask + repeat forms. The scalar is taken in the tensor's type (a non-deduced parameter: `Muls(h, h, 0.5f,
// n)` on half tensors compiles, as on CANN 9).
#pragma once

#include "vec_unary.h"

// One API of the vec_ops.h list (EXPR is that list's column: the element is VecExpr<NAME>'s).
#define AKGEN_SCALAR_OP(NAME, COST, EXPR, ...)                                                                          \
    template <typename T>                                                                                              \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::type_identity_t<T>& scalarValue, \
                     const int32_t& count, AKGEN_LOC) {                                                                \
        static_assert(::akgen_sim::one_of_v<T, __VA_ARGS__>,                                                           \
                      "Failed to check dtype in " #NAME ", current api support dtype combination is " #__VA_ARGS__);   \
        ::akgen_sim::scalar_count_op<::akgen_sim::VecOp::NAME>(#NAME, COST, dst, src,                                  \
                                                               static_cast<::akgen_sim::calc_t<T>>(scalarValue), count, loc); \
    }                                                                                                                  \
    template <typename T, typename CT>                                                                                 \
        requires std::is_same_v<CT, int32_t>                                                                           \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::type_identity_t<T>& scalarValue, \
                     const CT& count) {                                                                                \
        NAME(dst, src, scalarValue, count, ::akgen_sim::ctx().last);                                                   \
    }                                                                                                                  \
    template <typename T, bool isSetMask = true, typename M, typename R,                                              \
              std::enable_if_t<std::is_integral_v<R>, int> = 0>                                                        \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const std::type_identity_t<T>& scalarValue, \
                     const M& mask, R repeatTime, const UnaryRepeatParams& p, AKGEN_LOC) {                             \
        static_assert(::akgen_sim::one_of_v<T, __VA_ARGS__>,                                                           \
                      "Failed to check dtype in " #NAME ", current api support dtype combination is " #__VA_ARGS__);   \
        using C = ::akgen_sim::calc_t<T>;                                                                              \
        const C s = static_cast<C>(scalarValue);                                                                       \
        using E = ::akgen_sim::VecExpr<::akgen_sim::VecOp::NAME>;  /* the element: vec_ops.h */                        \
        ::akgen_sim::unary_repeat(#NAME, COST, dst, src, ::akgen_sim::to_mask(mask, isSetMask), repeatTime,            \
                                  ::akgen_sim::Stride{p.dstBlkStride, p.dstRepStride},                                \
                                  ::akgen_sim::Stride{p.srcBlkStride, p.srcRepStride},                                \
                                  [s](const T& x) { return E::template scalar<T>(x, s); }, loc);                       \
    }

namespace AscendC {

AKGEN_SCALAR_OPS(AKGEN_SCALAR_OP)  // the list: vec_ops.h

// Axpy: dst = dst + src * scalar (the destination is read too).
template <typename T, typename U>
inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const std::type_identity_t<U>& scalarValue,
                 const int32_t& count, AKGEN_LOC) {
    ::akgen_sim::touch("Axpy", loc);
    if (count <= 0) return;
    ::akgen_sim::check_local(dst, "dst", "Axpy", uint64_t(count) * sizeof(T), loc);
    ::akgen_sim::check_local(src, "src", "Axpy", uint64_t(count) * sizeof(U), loc);
    const float s = static_cast<float>(scalarValue);
    for (int32_t i = 0; i < count; ++i) {
        float prod = static_cast<float>(src.addr_[i]) * s;
        if constexpr (std::is_same_v<T, U>) prod = static_cast<float>(static_cast<T>(prod));  // same-type: product rounded to T, then the add (as NPU results show)
        dst.addr_[i] = static_cast<T>(static_cast<float>(dst.addr_[i]) + prod);
    }
    ::akgen_sim::vec_charge("muls", "Axpy", ::akgen_sim::repeats_for<T>(uint64_t(count)), dst.slot_,
                            {src.slot_, dst.slot_}, loc);
}

}  // namespace AscendC
