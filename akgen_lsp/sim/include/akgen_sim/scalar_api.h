// akgen sim: the scalar computation APIs of basic_api/kernel_operator_scalar_intf.h and the system values of
// kernel_operator_sys_var_intf.h that A2/A3 kernels of CANN's operator repositories call:
//   GetBitCount<v> / ScalarGetCountOfValue<v>   how many bits of a uint64_t equal v (0 or 1)
//   CountLeadingZero / ScalarCountLeadingZero   the zeros above the highest 1 of a uint64_t (64 for 0)
//   CountBitsCntSameAsSignBit                   the bits below the sign bit of an int64_t, from bit 62 down, that
//                                               equal the sign bit, up to the first that does not
//   GetSFFValue<v> / ScalarGetSFFValue<v>       the position of the first bit equal to v from bit 0 (-1: none)
//   Cast<T, U, roundMode>(x) / ScalarCast       a scalar conversion with a RoundMode (the vector Cast's rounding)
//   Cast(float) -> bfloat16_t, Cast(bfloat16_t) -> float, ToFloat(float)
//   GetDataBlockSizeInBytes()                   32: one data block of the Unified Buffer on A2/A3
//   Trap()                                      stops the kernel: SIM-TRAP at the calling line
//   __bf16                                      bisheng's name of bfloat16_t
// Written from the API pages of asc-devkit (docs/zh/api/SIMD-API/基础API/标量计算, 系统变量访问).
#pragma once

#include <bit>
#include <cstdint>

#include "vec_misc.h"

// bisheng's built-in name of the bfloat16 type, which kernels compare with (`std::is_same_v<T, __bf16>`); g++ before
// 13 has no such type on x86 (g++ 13 has its own, a different type from bfloat16_t there).
#if !defined(__BFLT16_MANT_DIG__)
using __bf16 = bfloat16_t;
#endif

namespace AscendC {

template <int countValue> inline int64_t GetBitCount(uint64_t valueIn) {
    static_assert(countValue == 0 || countValue == 1, "GetBitCount<countValue>: countValue is 0 or 1");
    const int64_t ones = std::popcount(valueIn);
    return countValue == 1 ? ones : 64 - ones;
}
template <int countValue> inline int64_t ScalarGetCountOfValue(uint64_t valueIn) {
    return GetBitCount<countValue>(valueIn);
}

inline int64_t CountLeadingZero(uint64_t valueIn) { return std::countl_zero(valueIn); }
inline int64_t ScalarCountLeadingZero(uint64_t valueIn) { return CountLeadingZero(valueIn); }

inline int64_t CountBitsCntSameAsSignBit(int64_t valueIn) {
    const uint64_t bits = static_cast<uint64_t>(valueIn);
    const uint64_t sign = bits >> 63;
    int64_t n = 0;
    for (int b = 62; b >= 0 && ((bits >> b) & 1u) == sign; --b) ++n;
    return n;
}

template <int countValue> inline int64_t GetSFFValue(uint64_t valueIn) {
    static_assert(countValue == 0 || countValue == 1, "GetSFFValue<countValue>: countValue is 0 or 1");
    const uint64_t v = countValue == 1 ? valueIn : ~valueIn;
    return v == 0 ? -1 : static_cast<int64_t>(std::countr_zero(v));
}
template <int countValue> inline int64_t ScalarGetSFFValue(uint64_t valueIn) { return GetSFFValue<countValue>(valueIn); }

// The documented pairs are float -> half (CAST_ODD) and float -> int32_t (CAST_ROUND / CEIL / FLOOR / RINT); other
// pairs convert with the same rounding as the vector Cast.
template <typename T, typename U, RoundMode roundMode> inline U Cast(T valueIn) {
    return ::akgen_sim::cast_value<U>(valueIn, roundMode);
}
template <typename T, typename U, RoundMode roundMode> inline U ScalarCast(T valueIn) {
    return Cast<T, U, roundMode>(valueIn);
}
// float -> bfloat16_t rounds to nearest even; bfloat16_t -> float is exact.
inline bfloat16_t Cast(const float& fVal) { return bfloat16_t(fVal); }
inline float Cast(const bfloat16_t& bVal) { return static_cast<float>(bVal); }
// The A2/A3 library declares ToFloat for bfloat16_t only, so a float argument reaches it converted to bfloat16_t:
// the result is the float rounded to bfloat16's precision (code that calls ToFloat on a float, in the branch of
// another dtype, builds as it does there).
inline float ToFloat(const float& v) { return static_cast<float>(bfloat16_t(v)); }

constexpr int16_t GetDataBlockSizeInBytes() { return ONE_BLK_SIZE; }

inline void Trap(AKGEN_LOC) {
    ::akgen_sim::fail("SIM-TRAP", "Trap(): the kernel stopped itself here (on the NPU this raises an AI Core "
                                  "exception and the launch fails); see the condition that led to this call",
                      loc, "runtime", "Trap");
}

}  // namespace AscendC
