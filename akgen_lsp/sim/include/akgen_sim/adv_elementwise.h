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
//   Axpy<T, U>(dst, src, scalar, tmp, count)       half source: in float (dst + src * scalar), rounded once
//   SwiGLU<T>(dst, src0, src1, beta[, tmp][, count])  in float: src0 * (src1 / (exp(src1 * -beta) + 1))
//   DropOut<T, isInitBitMode, mode>(dst, src, mask[, tmp], keepProb, info)   byte or bit (LSB first) mask
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

// ---- Axpy with sharedTmpBuffer (lib/math/axpy.h): dst += src * scalar. T/U: half/half, float/half, float/float. A
// half source goes through float (cast, Muls in float, Add in float, the sum rounded once to T); float is the basic
// Axpy.
template <typename T, typename U, bool isReuseSource = false>
inline void Axpy(const LocalTensor<T>& dst, const LocalTensor<U>& src, const U scalarValue,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount, AKGEN_LOC) {
    static_assert((std::is_same_v<T, half> && std::is_same_v<U, half>) ||
                      (std::is_same_v<T, float> && std::is_same_v<U, half>) ||
                      (std::is_same_v<T, float> && std::is_same_v<U, float>),
                  "Failed to check the data types, current api support data types are T: half, U: half / T: float, "
                  "U: float / T: float, U: half.");
    (void)sharedTmpBuffer;
    if constexpr (sizeof(U) == sizeof(float)) {
        Axpy(dst, src, scalarValue, static_cast<int32_t>(calCount), loc);
    } else {
        const char* api = "Axpy";
        ::akgen_sim::touch(api, loc);
        if (calCount == 0) return;
        ::akgen_sim::check_local(dst, "dst", api, uint64_t(calCount) * sizeof(T), loc);
        ::akgen_sim::check_local(src, "src", api, uint64_t(calCount) * sizeof(U), loc);
        const float s = static_cast<float>(scalarValue);
        for (uint32_t i = 0; i < calCount; ++i) {
            const float prod = static_cast<float>(src.addr_[i]) * s;
            dst.addr_[i] = static_cast<T>(static_cast<float>(dst.addr_[i]) + prod);
        }
        ::akgen_sim::vec_charge("muls", api, ::akgen_sim::repeats_for<float>(uint64_t(calCount)) * 4.0, dst.slot_,
                                {src.slot_, dst.slot_}, loc);
    }
}

// ---- SwiGLU (lib/activation/swiglu.h): dst = src0 * Swish(src1, beta), in float as the library does (half: cast to
// float, rounded once at the end): t = src1 * -beta, Exp, + 1, src1 / t, src0 * that.
template <typename T, bool isReuseSource = false>
inline void SwiGLU(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                   const float& scalarValue, const LocalTensor<uint8_t>& sharedTmpBuffer, const uint32_t calCount,
                   AKGEN_LOC) {
    static_assert(::akgen_sim::one_of_v<T, half, float>,
                  "Failed to check dtype in SwiGLU, current api support dtype combination is half, float.");
    (void)sharedTmpBuffer;
    const float nb = -1.0f * scalarValue;
    ::akgen_sim::adv_binary("SwiGLU", "exp", 3.0, dst, src0, src1, calCount, [nb](T a, T b) {
        const float x1 = static_cast<float>(b);
        float t = x1 * nb;
        t = ::akgen_sim::m::exp(t);
        t = t + 1.0f;
        t = x1 / t;
        return static_cast<T>(static_cast<float>(a) * t);
    }, loc);
}
template <typename T, bool isReuseSource = false>
inline void SwiGLU(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                   const float& scalarValue, const uint32_t calCount, AKGEN_LOC) {
    SwiGLU<T, isReuseSource>(dst, src0, src1, scalarValue, LocalTensor<uint8_t>{}, calCount, loc);
}
template <typename T, bool isReuseSource = false>
inline void SwiGLU(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                   const float& scalarValue, const LocalTensor<uint8_t>& sharedTmpBuffer, AKGEN_LOC) {
    SwiGLU<T, isReuseSource>(dst, src0, src1, scalarValue, sharedTmpBuffer, src0.GetSize(), loc);
}
template <typename T, bool isReuseSource = false>
inline void SwiGLU(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1,
                   const float& scalarValue, AKGEN_LOC) {
    SwiGLU<T, isReuseSource>(dst, src0, src1, scalarValue, LocalTensor<uint8_t>{}, src0.GetSize(), loc);
}

// ---- DropOut (lib/filter/dropout.h): dst = (mask keeps src ? src : 0) * T(1 / keepProb), over firstAxis rows of
// srcLastAxis elements. The mask is bytes (non-zero keeps) or bits (bit c % 8 of byte c / 8, LSB first) per row of
// maskLastAxis bytes; dropOutMode 0 infers the form as the library does: srcLastAxis < maskLastAxis byte rows with
// padding, == byte, == maskLastAxis * 8 bits, otherwise bit rows with padding.
struct DropOutShapeInfo {
    DropOutShapeInfo() {}
    uint32_t firstAxis = 0;
    uint32_t srcLastAxis = 0;
    uint32_t maskLastAxis = 0;
};

template <typename T, bool isInitBitMode = false, uint32_t dropOutMode = 0>
inline void DropOut(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                    const LocalTensor<uint8_t>& maskLocal, const LocalTensor<uint8_t>& sharedTmpBuffer,
                    const float keepProb, const DropOutShapeInfo& info, AKGEN_LOC) {
    static_assert(::akgen_sim::one_of_v<T, half, float>,
                  "Failed to check dtype in DropOut, current api support dtype combination is half, float.");
    static_assert(dropOutMode <= 4, "dropOutMode should be 0 / 1 / 2 / 3 / 4");
    (void)sharedTmpBuffer;
    const char* api = "DropOut";
    ::akgen_sim::touch(api, loc);
    if (!(keepProb > 0.0f && keepProb < 1.0f)) {
        ::akgen_sim::fail("SIM-DROPOUT-ARGS", ::akgen_sim::fmt("DropOut: keepProb should be larger than 0 and smaller "
                                                               "than 1, current keepProb is %f", keepProb),
                          loc, "api_mismatch", api);
        return;
    }
    if ((dropOutMode == 1 || dropOutMode == 4) && info.maskLastAxis % 2 != 0) {
        ::akgen_sim::fail("SIM-DROPOUT-ARGS", ::akgen_sim::fmt("DropOut: maskLastAxis should be multiples of 2 when "
                                                               "dropOutMode is 1 or 4 (got %u)", info.maskLastAxis),
                          loc, "api_mismatch", api);
        return;
    }
    uint32_t mode = dropOutMode;
    if (mode == 0) {
        if (info.srcLastAxis < info.maskLastAxis) mode = 1;
        else if (info.srcLastAxis == info.maskLastAxis) mode = 2;
        else if (info.srcLastAxis == info.maskLastAxis * 8) mode = 3;
        else mode = 4;
    }
    const bool bits = mode >= 3;
    const uint64_t n = uint64_t(info.firstAxis) * info.srcLastAxis;
    if (n == 0) return;
    ::akgen_sim::check_local(dstLocal, "dst", api, n * sizeof(T), loc);
    ::akgen_sim::check_local(srcLocal, "src", api, n * sizeof(T), loc);
    const uint64_t rowBytes = info.maskLastAxis;  // bytes per mask row, valid data first
    ::akgen_sim::check_local(maskLocal, "mask", api, uint64_t(info.firstAxis) * rowBytes, loc);
    const T div = static_cast<T>(1.0f / keepProb);
    for (uint32_t r = 0; r < info.firstAxis; ++r) {
        const uint8_t* m = maskLocal.addr_ + uint64_t(r) * rowBytes;
        for (uint32_t c = 0; c < info.srcLastAxis; ++c) {
            const uint64_t i = uint64_t(r) * info.srcLastAxis + c;
            const bool keep = bits ? ((m[c / 8] >> (c % 8)) & 1u) != 0 : m[c] != 0;
            const T v = keep ? srcLocal.addr_[i] : static_cast<T>(0.0f);
            dstLocal.addr_[i] = static_cast<T>(static_cast<float>(v) * static_cast<float>(div));
        }
    }
    ::akgen_sim::vec_charge(::akgen_sim::cost_key("muls", ::akgen_sim::cost_kind<T>()), api,
                            ::akgen_sim::repeats_for<T>(n) * 3.0, dstLocal.slot_, {srcLocal.slot_, maskLocal.slot_},
                            loc);
}
template <typename T, bool isInitBitMode = false, uint32_t dropOutMode = 0>
inline void DropOut(const LocalTensor<T>& dstLocal, const LocalTensor<T>& srcLocal,
                    const LocalTensor<uint8_t>& maskLocal, const float keepProb, const DropOutShapeInfo& info,
                    AKGEN_LOC) {
    DropOut<T, isInitBitMode, dropOutMode>(dstLocal, srcLocal, maskLocal, LocalTensor<uint8_t>{}, keepProb, info, loc);
}

}  // namespace AscendC
