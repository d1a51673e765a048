// akgen sim: the element-wise math of the high-level API (lib/math/*: Tanh, Sin, Cos, ..., Sigmoid, Silu), in the
// count form and the sharedTmpBuffer form. Computed in float, rounded once; charged like Exp.
#pragma once

#include "vec_reduce.h"

namespace akgen_sim {
// The math APIs' docs (Sigmoid.md, Tanh.md, ...: "不支持源操作数与目的操作数地址重叠") do not support a dst that
// overlaps src without being it: the NPU's result is then undefined (its multi-step implementation reads src after
// writing dst), and the sim's element order gives one arbitrary outcome. Reported as a warning, so the wrong numbers
// that follow have their cause next to them.
template <typename T>
inline void math_overlap(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                         uint32_t count, const loc_t& loc) {
    const T* d = dst.addr_;
    const T* a = src.addr_;
    if (d == nullptr || a == nullptr || d == a || count == 0) return;
    if (d < a + count && a < d + count) {
        warn("SIM-OVERLAP",
             fmt("%s: dst and src overlap (dst starts %lld elements %s src, %u elements each); the API does not "
                 "support overlapping source and destination, so the NPU's result is undefined: use separate buffers "
                 "(TBuf::GetWithOffset takes its offset in bytes)", api,
                 static_cast<long long>(d > a ? d - a : a - d), d > a ? "after" : "before", count),
             loc, "memory", api);
    }
}
}  // namespace akgen_sim

#define AKGEN_MATH_OP(NAME, EXPR)                                                                                      \
    template <typename T, bool isReuseSource = false>                                                                  \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count, AKGEN_LOC) {         \
        static_assert(::akgen_sim::one_of_v<T, half, float, bfloat16_t>,                                               \
                      "Failed to check dtype in " #NAME ", current api support dtype combination is half, float");     \
        ::akgen_sim::math_overlap(#NAME, dst, src, count, loc);                                                        \
        ::akgen_sim::unary_count(#NAME, "exp", dst, src, count,                                                        \
                                 [](const T& x) { float a = static_cast<float>(x); return static_cast<T>(EXPR); }, loc);\
    }                                                                                                                  \
    template <typename T, bool isReuseSource = false>                                                                  \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, \
                     const uint32_t count, AKGEN_LOC) {                                                                \
        (void)sharedTmpBuffer;                                                                                         \
        NAME<T, isReuseSource>(dst, src, count, loc);                                                                  \
    }                                                                                                                  \
    template <typename T, bool isReuseSource = false>                                                                  \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, AKGEN_LOC) {                               \
        NAME<T, isReuseSource>(dst, src, src.GetSize(), loc);                                                          \
    }                                                                                                                  \
    template <typename T, bool isReuseSource = false>                                                                  \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer, \
                     AKGEN_LOC) {                                                                                      \
        (void)sharedTmpBuffer;                                                                                         \
        NAME<T, isReuseSource>(dst, src, src.GetSize(), loc);                                                          \
    }                                                                                                                  \
    template <typename T, bool isReuseSource = false, typename CT>                                                     \
        requires std::is_same_v<CT, uint32_t>                                                                          \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, CT count) {                                \
        NAME<T, isReuseSource>(dst, src, count, ::akgen_sim::ctx().last);                                              \
    }

namespace AscendC {
namespace am = ::akgen_sim::m;
AKGEN_MATH_OP(Tanh, am::tanh(a))
AKGEN_MATH_OP(Sin, am::sin(a))
AKGEN_MATH_OP(Cos, am::cos(a))
AKGEN_MATH_OP(Tan, am::tan(a))
AKGEN_MATH_OP(Asin, am::asin(a))
AKGEN_MATH_OP(Acos, am::acos(a))
AKGEN_MATH_OP(Atan, am::atan(a))
AKGEN_MATH_OP(Sinh, am::sinh(a))
AKGEN_MATH_OP(Cosh, am::cosh(a))
AKGEN_MATH_OP(Asinh, am::asinh(a))
AKGEN_MATH_OP(Acosh, am::acosh(a))
AKGEN_MATH_OP(Atanh, am::atanh(a))
AKGEN_MATH_OP(Erf, am::erf(a))
AKGEN_MATH_OP(Erfc, am::erfc(a))
AKGEN_MATH_OP(Log, am::log(a))
AKGEN_MATH_OP(Log2, am::log2(a))
AKGEN_MATH_OP(Log10, am::log10(a))
AKGEN_MATH_OP(Floor, static_cast<float>(am::floor(a)))
AKGEN_MATH_OP(Ceil, static_cast<float>(am::ceil(a)))
AKGEN_MATH_OP(Round, static_cast<float>(am::nearbyint(a)))
AKGEN_MATH_OP(Trunc, static_cast<float>(am::trunc(a)))
AKGEN_MATH_OP(Frac, a - static_cast<float>(am::trunc(a)))
AKGEN_MATH_OP(Sign, (a > 0.0f ? 1.0f : a < 0.0f ? -1.0f : 0.0f))
AKGEN_MATH_OP(Sigmoid, 1.0f / (1.0f + am::exp(-a)))
AKGEN_MATH_OP(Silu, a / (1.0f + am::exp(-a)))
AKGEN_MATH_OP(Gelu, 0.5f * a * (1.0f + am::tanh(0.7978845608f * (a + 0.044715f * a * a * a))))
}  // namespace AscendC
