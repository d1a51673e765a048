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
        ::akgen_sim::unary_repeat(#NAME, COST, dst, src, ::akgen_sim::to_mask(mask, isSetMask), repeatTime,            \
                                  ::akgen_sim::Stride{p.dstBlkStride, p.dstRepStride},                                \
                                  ::akgen_sim::Stride{p.srcBlkStride, p.srcRepStride},                                \
                                  [s](const T& x) { C a = static_cast<C>(x); return static_cast<T>(EXPR); }, loc);     \
    }

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

}  // namespace akgen_sim

namespace AscendC {

AKGEN_SCALAR_OP(Adds, "adds", a + s, half, float, int16_t, int32_t, bfloat16_t)
AKGEN_SCALAR_OP(Subs, "adds", a - s, half, float, int16_t, int32_t, bfloat16_t)
AKGEN_SCALAR_OP(Muls, "muls", a * s, half, float, int16_t, int32_t, bfloat16_t)
AKGEN_SCALAR_OP(Divs, "muls", a / s, half, float)
AKGEN_SCALAR_OP(Maxs, "maxs", (a > s ? a : s), half, float, int16_t, int32_t, bfloat16_t)
AKGEN_SCALAR_OP(Mins, "mins", (a < s ? a : s), half, float, int16_t, int32_t, bfloat16_t)
AKGEN_SCALAR_OP(LeakyRelu, "muls", (a >= C(0) ? a : a * s), half, float)
AKGEN_SCALAR_OP(ShiftLeft, "adds", ::akgen_sim::vec_shift_left<C>(a, s), int16_t, uint16_t, int32_t, uint32_t)
AKGEN_SCALAR_OP(ShiftRight, "adds", ::akgen_sim::vec_shift_right<C>(a, s), int16_t, uint16_t, int32_t, uint32_t)

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
