// akgen sim: element-wise adv APIs of the A2/A3 (dav-2201) library, each computed in the library's own step order
// (impl/adv_api/detail/*/..._common_impl.h) with a rounding to the step's type after every step:
//   Xor<T>(dst, src0, src1[, tmp][, count])        int16_t / uint16_t, dst = src0 ^ src1
//   Fmod<T>(dst, src0, src1[, tmp][, count])       half / float: in float, q = src0 / src1, trunc(q), q * src1,
//                                                  src0 - that (half: cast to float first, rounded once at the end)
//   ClampMax / ClampMin<T>(dst, src, [tmp,] scalar, count)   the library's Mins / Maxs
//   Swish<T>(dst, src, dataSize, beta)             in T: x * -beta, Exp, + 1, x / that
//   GeGLU<T>(dst, src0, src1[, tmp][, count])      in float: g = x1 / (exp((x1^2 + C1) * x1 * C0) + 1),
//                                                  dst = x0 * g, C0 = -0.0713548162726, C1 = 22.363860002236
//   Arange<T>(dst, first, diff, count)             a 32-byte block of first + diff * i (half: in float), then each
//                                                  block / repeat is the one before plus diff * its length, in T;
//                                                  the last repeat's tail is written up to its 32-byte block
// Checked: operand sizes against the count. Not checked: the size of sharedTmpBuffer (the CPU needs none).
#pragma once

#include "math.h"  // not <cmath>: a kernel may be named like a libm function
#include "vec_engine.h"
#include "vec_scalar.h"

namespace akgen_sim {

template <typename T, typename F>
inline void adv_binary(const char* api, const char* cost, double steps, const AscendC::LocalTensor<T>& dst,
                       const AscendC::LocalTensor<T>& s0, const AscendC::LocalTensor<T>& s1, uint32_t count, F f,
                       const loc_t& loc) {
    touch(api, loc);
    if (count == 0) return;
    const uint64_t bytes = uint64_t(count) * sizeof(T);
    check_local(dst, "dst", api, bytes, loc);
    check_local(s0, "src0", api, bytes, loc);
    check_local(s1, "src1", api, bytes, loc);
    for (uint32_t i = 0; i < count; ++i) dst.addr_[i] = f(s0.addr_[i], s1.addr_[i]);
    vec_charge(cost_key(cost, cost_kind<T>()), api, repeats_for<T>(uint64_t(count)) * steps, dst.slot_,
               {s0.slot_, s1.slot_}, loc);
}

inline float fmod_steps(float a, float b) {
    float q = a / b;
    q = m::trunc(q);
    q = q * b;
    return a - q;
}

inline float geglu_steps(float x0, float x1) {
    constexpr float kC0 = -0.0713548162726f, kC1 = 2.2363860002236e1f;
    float t = x1 * x1;
    t = t + kC1;
    t = t * x1;
    t = t * kC0;
    t = m::exp(t);
    t = t + 1.0f;
    t = x1 / t;
    return x0 * t;
}

template <typename T> inline T swish_steps(T x, T negBeta) {
    T t = static_cast<T>(static_cast<float>(x) * static_cast<float>(negBeta));
    t = static_cast<T>(m::exp(static_cast<float>(t)));
    t = static_cast<T>(static_cast<float>(t) + 1.0f);
    return static_cast<T>(static_cast<float>(x) / static_cast<float>(t));
}

template <typename T> inline T arange_add(T a, T step) {
    if constexpr (std::is_integral_v<T>) return static_cast<T>(static_cast<int64_t>(a) + static_cast<int64_t>(step));
    else return static_cast<T>(static_cast<float>(a) + static_cast<float>(step));
}

template <typename T> inline T arange_step(T diff, int32_t n) {
    if constexpr (std::is_integral_v<T>) return static_cast<T>(static_cast<int64_t>(diff) * n);
    else return static_cast<T>(static_cast<float>(diff) * static_cast<float>(n));
}

template <typename T>
inline void arange_impl(const AscendC::LocalTensor<T>& dst, T first, T diff, int32_t count, const loc_t& loc) {
    const char* api = "Arange";
    touch(api, loc);
    static_assert(one_of_v<T, half, float, int16_t, int32_t>,
                  "Failed to check dtype in Arange, current api support dtype combination is half, float, int16_t, "
                  "int32_t");
    if (count <= 0) {
        if (count < 0) fail("SIM-COUNT", fmt("Arange: count %d is negative; pass the number of elements to write",
                                             count), loc, "api_mismatch", api);
        return;
    }
    constexpr int32_t blk = 32 / sizeof(T), rep = 256 / sizeof(T);
    int32_t end = count;  // how far the library writes
    if (count > rep) {
        const int32_t tail = count % rep;
        end = count / rep * rep + (tail + blk - 1) / blk * blk;
    } else if (count > blk) {
        end = (count + blk - 1) / blk * blk;
    }
    check_local(dst, "dst", api, uint64_t(end) * sizeof(T), loc);
    T* d = dst.addr_;
    const int32_t base = count > blk ? blk : count;
    for (int32_t i = 0; i < base; ++i) {
        if constexpr (std::is_integral_v<T>) d[i] = static_cast<T>(first + diff * static_cast<T>(i));
        else d[i] = static_cast<T>(static_cast<float>(first) + static_cast<float>(diff) * static_cast<float>(i));
    }
    if (count > blk) {
        const int32_t blkEnd = count > rep ? rep : end;
        const T sb = arange_step(diff, blk);
        for (int32_t i = blk; i < blkEnd; ++i) d[i] = arange_add(d[i - blk], sb);
        const T sr = arange_step(diff, rep);
        for (int32_t i = rep; i < end; ++i) d[i] = arange_add(d[i - rep], sr);
    }
    vec_charge(cost_key("adds", cost_kind<T>()), api, double(end / blk) / 8.0 + 8.0, dst.slot_, {}, loc);
}

}  // namespace akgen_sim

namespace AscendC {

// ---- Xor ----
template <typename T, bool isReuseSource = false>
inline void Xor(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount, AKGEN_LOC) {
    static_assert(::akgen_sim::one_of_v<T, int16_t, uint16_t>,
                  "Failed to check the data types, current api support data types are int16_t/uint16_t.");
    (void)sharedTmpBuffer;
    ::akgen_sim::adv_binary("Xor", "and", 4.0, dst, src0, src1, calCount,
                            [](T a, T b) { return static_cast<T>(a ^ b); }, loc);
}
template <typename T, bool isReuseSource = false>
inline void Xor(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                const LocalTensor<uint8_t>& sharedTmpBuffer, AKGEN_LOC) {
    Xor<T, isReuseSource>(dst, src0, src1, sharedTmpBuffer, src0.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
inline void Xor(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                const uint32_t calCount, AKGEN_LOC) {
    Xor<T, isReuseSource>(dst, src0, src1, LocalTensor<uint8_t>{}, calCount, loc);
}
template <typename T, bool isReuseSource = false>
inline void Xor(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, AKGEN_LOC) {
    Xor<T, isReuseSource>(dst, src0, src1, LocalTensor<uint8_t>{}, src0.GetSize(), loc);
}

// ---- Fmod ----
template <typename T, bool isReuseSource = false>
inline void Fmod(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount, AKGEN_LOC) {
    static_assert(::akgen_sim::one_of_v<T, half, float>,
                  "Failed to check dtype in Fmod, current api support dtype combination is half, float.");
    (void)sharedTmpBuffer;
    ::akgen_sim::adv_binary("Fmod", "div", 4.0, dst, src0, src1, calCount, [](T a, T b) {
        return static_cast<T>(::akgen_sim::fmod_steps(static_cast<float>(a), static_cast<float>(b)));
    }, loc);
}
template <typename T, bool isReuseSource = false>
inline void Fmod(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, AKGEN_LOC) {
    Fmod<T, isReuseSource>(dst, src0, src1, sharedTmpBuffer, src0.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
inline void Fmod(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                 const uint32_t calCount, AKGEN_LOC) {
    Fmod<T, isReuseSource>(dst, src0, src1, LocalTensor<uint8_t>{}, calCount, loc);
}
template <typename T, bool isReuseSource = false>
inline void Fmod(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, AKGEN_LOC) {
    Fmod<T, isReuseSource>(dst, src0, src1, LocalTensor<uint8_t>{}, src0.GetSize(), loc);
}

// ---- ClampMax / ClampMin ----
template <typename T, bool isReuseSource = false>
inline void ClampMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,
                     const T scalar, const uint32_t calCount, AKGEN_LOC) {
    static_assert(::akgen_sim::one_of_v<T, half, float>,
                  "Failed to check dtype in ClampMax, current api support dtype combination is half, float.");
    (void)sharedTmpBuffer;
    Mins(dst, src, scalar, static_cast<int32_t>(calCount), loc);
}
template <typename T, bool isReuseSource = false>
inline void ClampMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T scalar, const uint32_t calCount,
                     AKGEN_LOC) {
    ClampMax<T, isReuseSource>(dst, src, LocalTensor<uint8_t>{}, scalar, calCount, loc);
}
template <typename T, bool isReuseSource = false>
inline void ClampMin(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint8_t>& sharedTmpBuffer,
                     const T scalar, const uint32_t calCount, AKGEN_LOC) {
    static_assert(::akgen_sim::one_of_v<T, half, float>,
                  "Failed to check dtype in ClampMin, current api support dtype combination is half, float.");
    (void)sharedTmpBuffer;
    Maxs(dst, src, scalar, static_cast<int32_t>(calCount), loc);
}
template <typename T, bool isReuseSource = false>
inline void ClampMin(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T scalar, const uint32_t calCount,
                     AKGEN_LOC) {
    ClampMin<T, isReuseSource>(dst, src, LocalTensor<uint8_t>{}, scalar, calCount, loc);
}

// ---- Swish ----
template <typename T, bool isReuseSource = false>
inline void Swish(const LocalTensor<T>& dst, const LocalTensor<T>& src, uint32_t dataSize, const T scalarValue,
                  AKGEN_LOC) {
    static_assert(::akgen_sim::one_of_v<T, half, float>,
                  "Failed to check dtype in Swish, current api support dtype combination is half, float.");
    const T negBeta = static_cast<T>(-1.0f * static_cast<float>(scalarValue));
    ::akgen_sim::unary_count("Swish", "exp", dst, src, dataSize,
                             [negBeta](const T& x) { return ::akgen_sim::swish_steps<T>(x, negBeta); }, loc);
}

// ---- GeGLU ----
template <typename T, bool isReuseSource = false>
inline void GeGLU(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                  const LocalTensor<uint8_t>& sharedTmpBuffer, uint32_t calCount, AKGEN_LOC) {
    static_assert(::akgen_sim::one_of_v<T, half, float>,
                  "Failed to check dtype in GeGLU, current api support dtype combination is half, float.");
    (void)sharedTmpBuffer;
    ::akgen_sim::adv_binary("GeGLU", "exp", 3.0, dst, src0, src1, calCount, [](T a, T b) {
        return static_cast<T>(::akgen_sim::geglu_steps(static_cast<float>(a), static_cast<float>(b)));
    }, loc);
}
template <typename T, bool isReuseSource = false>
inline void GeGLU(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, uint32_t calCount,
                  AKGEN_LOC) {
    GeGLU<T, isReuseSource>(dst, src0, src1, LocalTensor<uint8_t>{}, calCount, loc);
}
template <typename T, bool isReuseSource = false>
inline void GeGLU(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                  const LocalTensor<uint8_t>& sharedTmpBuffer, AKGEN_LOC) {
    GeGLU<T, isReuseSource>(dst, src0, src1, sharedTmpBuffer, src0.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
inline void GeGLU(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, AKGEN_LOC) {
    GeGLU<T, isReuseSource>(dst, src0, src1, LocalTensor<uint8_t>{}, src0.GetSize(), loc);
}

// ---- Arange (lib/index/arithprogression.h) ----
template <typename T>
inline void Arange(const LocalTensor<T>& dst, const T firstValue, const T diffValue, const int32_t count, AKGEN_LOC) {
    ::akgen_sim::arange_impl(dst, firstValue, diffValue, count, loc);
}
template <typename T>
inline void ArithProgression(const LocalTensor<T>& dst, const T firstValue, const T diffValue, const int32_t count,
                             AKGEN_LOC) {
    ::akgen_sim::arange_impl(dst, firstValue, diffValue, count, loc);
}

}  // namespace AscendC
