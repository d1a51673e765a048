// akgen sim: device keywords, scalar types (half, bfloat16_t with IEEE round-to-nearest-even) and the API enums.
#pragma once

#include <bit>

#include "math.h"
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <type_traits>

// ---------------------------------------------------------------------------------------------- device keywords
// CPU mode: every device qualifier is empty, as CANN's own CPU debug build does (stub_def.h).
#define __global__
#define __aicore__
#define __vector__
#define __cube__
#define __mix__(...)
#define __gm__
#define __ubuf__
#define __cbuf__
#define __ca__
#define __cb__
#define __cc__
#define __fbuf__
#define __sync_alias__
#define __sync_noalias__
#define __in_pipe__(...)
#define __out_pipe__(...)
#ifndef __forceinline__
#define __forceinline__ inline
#endif
#ifndef __NPU_ARCH__
#define __NPU_ARCH__ 2201
#endif
#ifndef __CCE_AICORE__
#define __CCE_AICORE__ 220
#endif

using GM_ADDR = uint8_t*;

#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#endif
#ifndef unlikely
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif

namespace akgen_sim {

// ---------------------------------------------------------------------------------------------- fp16 / bf16 bits
constexpr uint32_t f32_bits(float f) { return std::bit_cast<uint32_t>(f); }
constexpr float f32_from(uint32_t u) { return std::bit_cast<float>(u); }

#if defined(__F16C__)
// The x86 F16C conversions (the build adds -mf16c where the CPU has them: compiler.HOST_FLAGS): the same IEEE
// results as the bit code below (round to nearest even, subnormals, overflow to inf, NaN made quiet; checked on every
// float and every half bit pattern), several times
// faster, which the element-wise half APIs spend most of their time in. Constant evaluation takes the bit code.
typedef float akgen_v4sf __attribute__((vector_size(16)));
typedef short akgen_v8hi __attribute__((vector_size(16)));
inline uint16_t f32_to_f16_hw(float f) {
    return static_cast<uint16_t>(__builtin_ia32_vcvtps2ph(akgen_v4sf{f, 0.0f, 0.0f, 0.0f}, 0)[0]);
}
inline float f16_to_f32_hw(uint16_t h) {
    return __builtin_ia32_vcvtph2ps(akgen_v8hi{static_cast<short>(h), 0, 0, 0, 0, 0, 0, 0})[0];
}
#endif

// float -> IEEE binary16, round to nearest even, overflow to inf, NaN kept quiet.
constexpr uint16_t f32_to_f16(float f) {
#if defined(__F16C__)
    if (!std::is_constant_evaluated()) return f32_to_f16_hw(f);
#endif
    uint32_t x = f32_bits(f);
    uint32_t sign = (x >> 16) & 0x8000u;
    uint32_t exp = (x >> 23) & 0xFFu;
    uint32_t man = x & 0x7FFFFFu;
    if (exp == 0xFF) return static_cast<uint16_t>(sign | 0x7C00u | (man ? 0x200u | (man >> 13) : 0u));
    int32_t e = static_cast<int32_t>(exp) - 127 + 15;
    if (e >= 31) return static_cast<uint16_t>(sign | 0x7C00u);
    if (e <= 0) {
        if (e < -10) return static_cast<uint16_t>(sign);
        man |= 0x800000u;
        uint32_t shift = static_cast<uint32_t>(14 - e);
        uint32_t half_man = man >> shift;
        uint32_t rem = man & ((1u << shift) - 1u);
        uint32_t halfway = 1u << (shift - 1);
        if (rem > halfway || (rem == halfway && (half_man & 1u))) ++half_man;
        return static_cast<uint16_t>(sign | half_man);
    }
    uint32_t out = sign | (static_cast<uint32_t>(e) << 10) | (man >> 13);
    uint32_t rem = man & 0x1FFFu;
    if (rem > 0x1000u || (rem == 0x1000u && (out & 1u))) ++out;  // may carry into the exponent: correct
    return static_cast<uint16_t>(out);
}

constexpr float f16_to_f32(uint16_t h) {
#if defined(__F16C__)
    // (a signaling NaN stays signaling, as in the bit code: the instruction would make it quiet)
    if (!std::is_constant_evaluated() && (h & 0x7C00u) != 0x7C00u) return f16_to_f32_hw(h);
#endif
    uint32_t sign = (static_cast<uint32_t>(h) & 0x8000u) << 16;
    uint32_t exp = (h >> 10) & 0x1Fu;
    uint32_t man = h & 0x3FFu;
    if (exp == 0) {
        if (man == 0) return f32_from(sign);
        float v = static_cast<float>(man) * (1.0f / 16777216.0f);  // exact: subnormal half
        return sign ? -v : v;
    }
    if (exp == 31) return f32_from(sign | 0x7F800000u | (man << 13));
    return f32_from(sign | ((exp + 112u) << 23) | (man << 13));
}

constexpr uint16_t f32_to_bf16(float f) {
    uint32_t x = f32_bits(f);
    if ((x & 0x7F800000u) == 0x7F800000u && (x & 0x7FFFFFu)) return static_cast<uint16_t>((x >> 16) | 0x40u);
    uint32_t lsb = (x >> 16) & 1u;
    x += 0x7FFFu + lsb;
    return static_cast<uint16_t>(x >> 16);
}
constexpr float bf16_to_f32(uint16_t b) { return f32_from(static_cast<uint32_t>(b) << 16); }

struct from_bits_t {};
inline constexpr from_bits_t from_bits{};

}  // namespace akgen_sim

// Half precision: storage is the 16 IEEE bits; every arithmetic result is rounded back to half (per operation).
struct half {
    uint16_t bits = 0;
    constexpr half() = default;
    constexpr half(akgen_sim::from_bits_t, uint16_t b) : bits(b) {}
    constexpr half(float f) : bits(akgen_sim::f32_to_f16(f)) {}
    constexpr half(double d) : bits(akgen_sim::f32_to_f16(static_cast<float>(d))) {}
    template <typename I, std::enable_if_t<std::is_integral_v<I>, int> = 0>
    constexpr half(I i) : bits(akgen_sim::f32_to_f16(static_cast<float>(i))) {}
    constexpr operator float() const { return akgen_sim::f16_to_f32(bits); }
    float ToFloat() const { return akgen_sim::f16_to_f32(bits); }
    half& operator+=(float o) { *this = half(float(*this) + o); return *this; }
    half& operator-=(float o) { *this = half(float(*this) - o); return *this; }
    half& operator*=(float o) { *this = half(float(*this) * o); return *this; }
    half& operator/=(float o) { *this = half(float(*this) / o); return *this; }
    half operator-() const { return half(akgen_sim::from_bits, static_cast<uint16_t>(bits ^ 0x8000u)); }
};

struct bfloat16_t {
    uint16_t bits = 0;
    constexpr bfloat16_t() = default;
    constexpr bfloat16_t(akgen_sim::from_bits_t, uint16_t b) : bits(b) {}
    constexpr bfloat16_t(float f) : bits(akgen_sim::f32_to_bf16(f)) {}
    constexpr bfloat16_t(double d) : bits(akgen_sim::f32_to_bf16(static_cast<float>(d))) {}
    constexpr bfloat16_t(half h) : bits(akgen_sim::f32_to_bf16(float(h))) {}
    template <typename I, std::enable_if_t<std::is_integral_v<I>, int> = 0>
    constexpr bfloat16_t(I i) : bits(akgen_sim::f32_to_bf16(static_cast<float>(i))) {}
    constexpr operator float() const { return akgen_sim::bf16_to_f32(bits); }
    float ToFloat() const { return akgen_sim::bf16_to_f32(bits); }
    bfloat16_t& operator+=(float o) { *this = bfloat16_t(float(*this) + o); return *this; }
    bfloat16_t& operator-=(float o) { *this = bfloat16_t(float(*this) - o); return *this; }
    bfloat16_t& operator*=(float o) { *this = bfloat16_t(float(*this) * o); return *this; }
    bfloat16_t& operator/=(float o) { *this = bfloat16_t(float(*this) / o); return *this; }
    bfloat16_t operator-() const { return bfloat16_t(akgen_sim::from_bits, static_cast<uint16_t>(bits ^ 0x8000u)); }
};

#ifndef float16_t  // a UT build may define it as a macro (ops-nn's log_softmax_grad: -Dfloat16_t=uint16_t)
using float16_t = half;
#endif
using float32_t = float;
#ifdef __CCE_KT_TEST__
// C's float_t / double_t (the C math library's evaluation types; float and double on the CPUs the simulator runs on):
// CANN's CPU-debug headers bring them, and kernel UTs name them (ops-nn: `#define DTYPE_DY float_t` in a tiling header
// the separately compiled kernel gets). Declared without <cmath> (see math.h); a later <cmath> redeclares the same.
typedef float float_t;
typedef double double_t;
#endif
using bfloat16 = bfloat16_t;  // some kernels spell it this way under CPU debug

namespace akgen_sim {

template <typename T> inline constexpr bool is_half_v = std::is_same_v<T, half> || std::is_same_v<T, bfloat16_t>;

// The arithmetic type a vector op computes in: float for the 16-bit floats (then rounded per op), T otherwise.
template <typename T> struct calc_type { using type = T; };
template <> struct calc_type<half> { using type = float; };
template <> struct calc_type<bfloat16_t> { using type = float; };
template <typename T> using calc_t = typename calc_type<T>::type;

template <typename T> inline const char* type_name() {
    if constexpr (std::is_same_v<T, half>) return "half";
    else if constexpr (std::is_same_v<T, bfloat16_t>) return "bfloat16_t";
    else if constexpr (std::is_same_v<T, float>) return "float";
    else if constexpr (std::is_same_v<T, double>) return "double";
    else if constexpr (std::is_same_v<T, int8_t>) return "int8_t";
    else if constexpr (std::is_same_v<T, uint8_t>) return "uint8_t";
    else if constexpr (std::is_same_v<T, int16_t>) return "int16_t";
    else if constexpr (std::is_same_v<T, uint16_t>) return "uint16_t";
    else if constexpr (std::is_same_v<T, int32_t>) return "int32_t";
    else if constexpr (std::is_same_v<T, uint32_t>) return "uint32_t";
    else if constexpr (std::is_same_v<T, int64_t>) return "int64_t";
    else if constexpr (std::is_same_v<T, uint64_t>) return "uint64_t";
    else return "T";
}

}  // namespace akgen_sim

// ---------------------------------------------------------------------------------------------- enums
namespace AscendC {

enum class TPosition : int32_t { GM, A1, A2, B1, B2, C1, C2, CO1, CO2, VECIN, VECOUT, VECCALC, LCM = VECCALC, SPM,
                                 SHM = SPM, TSCM, C2PIPE2GM, C2PIPE2LOCAL, MAX };
using QuePosition = TPosition;

enum class HardEvent : uint8_t {
    MTE2_MTE1, MTE1_MTE2, MTE1_M, M_MTE1, MTE2_V, V_MTE2, MTE3_V, V_MTE3, M_V, V_M, V_V, MTE3_MTE1, MTE1_MTE3,
    MTE1_V, MTE2_M, M_MTE2, V_MTE1, M_FIX, FIX_M, MTE3_MTE2, MTE2_MTE3, S_V, V_S, S_MTE2, MTE2_S, S_MTE3, MTE3_S,
    MTE2_FIX, FIX_MTE2, FIX_S, M_S, FIX_MTE3, MTE1_FIX, FIX_MTE1, FIX_FIX, MAX
};

enum class RoundMode : uint8_t { CAST_NONE = 0, CAST_RINT, CAST_FLOOR, CAST_CEIL, CAST_ROUND, CAST_TRUNC, CAST_ODD,
                                 CAST_HYBRID };
enum class CMPMODE : uint8_t { LT = 0, GT, EQ, LE, GE, NE };
enum class SELMODE : uint8_t { VSEL_CMPMASK_SPR = 0, VSEL_TENSOR_SCALAR_MODE, VSEL_TENSOR_TENSOR_MODE };
enum class ReduceType : uint8_t { SUM = 0, MAX, MIN };
enum class MaskMode : uint8_t { NORMAL = 0, COUNTER };
enum class KernelMode : uint8_t { MIX_MODE = 0, AIC_MODE, AIV_MODE, MIX_AIC_1_1 };

}  // namespace AscendC

namespace AscendC {
// Scalar conversions and type traits of the device library.
constexpr float ToFloat(const bfloat16_t& v) { return static_cast<float>(v); }
constexpr float ToFloat(const half& v) { return static_cast<float>(v); }
constexpr bfloat16_t ToBfloat16(const float& v) { return bfloat16_t(v); }
constexpr half ToHalf(const float& v) { return half(v); }
template <typename T, typename U> struct IsSameType { static constexpr bool value = std::is_same_v<T, U>; };
// The library's compile-time booleans (basic_api utils): kernels test members with them (SFINAE: `decltype(...,
// TrueType())`, then IsSameType<..., TrueType>::value).
template <bool b> struct BoolInst {
    using Type = BoolInst<b>;
    static constexpr bool value = b;
};
using TrueType = BoolInst<true>;
using FalseType = BoolInst<false>;
// A sub-byte integer (the device library's common_types.h): the storage byte holds the value's low k_bits. int4b_t
// is the type name kernels use; tensors of it (two elements per byte) are not emulated yet: making one fails with
// SIM-UNSUPPORTED (tensor.h), so code that only names the type (another scenario's branch) builds and runs.
template <int32_t k_bits_, bool sign> struct integer_sub_type {
    static constexpr int32_t k_bits = k_bits_;
    static constexpr bool k_signed = sign;
    using T = std::conditional_t<sign, int8_t, uint8_t>;
    using Storage = uint8_t;
    static constexpr Storage mask = static_cast<Storage>((1u << k_bits_) - 1u);
    Storage storage = 0;
    constexpr integer_sub_type() = default;
    constexpr integer_sub_type(uint32_t value) : storage(static_cast<Storage>(value & mask)) {}
    constexpr integer_sub_type(int32_t value) : storage(static_cast<Storage>(static_cast<uint32_t>(value) & mask)) {}
    // from a floating value: truncated to an integer first (what a Cast's rounding hands over is already integral)
    template <typename F, std::enable_if_t<std::is_floating_point_v<F>, int> = 0>
    constexpr integer_sub_type(F value) : integer_sub_type(static_cast<int32_t>(value)) {}
    constexpr operator T() const {
        if (k_signed && (storage & (1u << (k_bits_ - 1))) != 0) return static_cast<T>(storage | ~mask);
        return static_cast<T>(storage);
    }
    constexpr bool operator==(const integer_sub_type& o) const { return storage == o.storage; }
    constexpr bool operator!=(const integer_sub_type& o) const { return storage != o.storage; }
};
using int4b_t = integer_sub_type<4, true>;
}  // namespace AscendC
namespace akgen_sim {
// a sub-byte integer computes as an int (atomic accumulation, comparisons)
template <int32_t K, bool S> struct calc_type<AscendC::integer_sub_type<K, S>> { using type = int32_t; };
}  // namespace akgen_sim
// its range (a Cast to int4b_t saturates to [-8, 7])
template <int32_t K, bool S> struct std::numeric_limits<AscendC::integer_sub_type<K, S>> {
    using V = AscendC::integer_sub_type<K, S>;
    static constexpr bool is_specialized = true;
    static constexpr bool is_signed = S;
    static constexpr bool is_integer = true;
    static constexpr int digits = S ? K - 1 : K;
    static constexpr V lowest() { return V(S ? -(1 << (K - 1)) : 0); }
    static constexpr V min() { return lowest(); }
    static constexpr V max() { return V(S ? (1 << (K - 1)) - 1 : (1 << K) - 1); }
};
namespace AscendC {
using TEventID = int8_t;
// Hardware constants of the device library.
constexpr int32_t ONE_BLK_SIZE = 32;
constexpr int32_t ONE_REPEAT_BYTE_SIZE = 256;
constexpr int32_t MAX_REPEAT_TIMES = 255;
constexpr int32_t DEFAULT_BLK_NUM = 8;
constexpr int32_t DEFAULT_BLK_STRIDE = 1;
constexpr int32_t DEFAULT_REPEAT_STRIDE = 8;
constexpr int32_t BLOCK_CUBE = 16;
constexpr int32_t ONE_BLOCK_SIZE = 32;
}  // namespace AscendC

// pipe_t is a global enum in CANN (used as PIPE_V, ...).
enum pipe_t : uint8_t { PIPE_S = 0, PIPE_V, PIPE_M, PIPE_MTE1, PIPE_MTE2, PIPE_MTE3, PIPE_ALL, PIPE_MTE4, PIPE_MTE5,
                        PIPE_V2, PIPE_FIX, PIPE_UNASSIGNED = 99 };
enum event_t : uint8_t { EVENT_ID0 = 0, EVENT_ID1, EVENT_ID2, EVENT_ID3, EVENT_ID4, EVENT_ID5, EVENT_ID6, EVENT_ID7 };
