// akgen sim: Duplicate, Cast (every RoundMode), mask control (SetMaskCount/SetMaskNorm/SetVectorMask/ResetMask),
// Copy, CreateVecIndex, Brcb.
#pragma once

#include "vec_scalar.h"

namespace akgen_sim {

// Neighbours of a 16-bit float given by its bits (F = half or bfloat16_t): one step toward +inf / -inf.
template <typename F> inline F f16_step(F v, bool up) {
    uint16_t b = v.bits;
    bool neg = b & 0x8000u;
    if ((b & 0x7FFFu) == 0) return F(from_bits, static_cast<uint16_t>(up ? 0x0001u : 0x8001u));
    if (up != neg) ++b; else --b;
    return F(from_bits, b);
}

// Round x to the float type F (half / bfloat16_t / float) with a RoundMode.
template <typename F> inline F round_float(double x, AscendC::RoundMode mode) {
    using AscendC::RoundMode;
    if constexpr (std::is_same_v<F, float>) {
        float r = static_cast<float>(x);  // nearest even
        if (m::isnan(x) || mode == RoundMode::CAST_NONE || mode == RoundMode::CAST_RINT ||
            static_cast<double>(r) == x) return r;
        float lo = static_cast<double>(r) > x ? m::nextafter(r, -m::inf) : r;
        float hi = static_cast<double>(r) < x ? m::nextafter(r, m::inf) : r;
        switch (mode) {
            case RoundMode::CAST_FLOOR: return lo;
            case RoundMode::CAST_CEIL: return hi;
            case RoundMode::CAST_TRUNC: return x < 0 ? hi : lo;
            case RoundMode::CAST_ROUND: {
                double dl = x - lo, dh = hi - x;
                return dl < dh ? lo : dh < dl ? hi : (x < 0 ? lo : hi);
            }
            case RoundMode::CAST_ODD: { uint32_t lb = f32_bits(lo); return (lb & 1u) ? lo : hi; }
            default: return r;
        }
    } else {
        float xf = static_cast<float>(x);
        F r(xf);
        double rv = static_cast<float>(r);
        if (m::isnan(xf) || m::isinf(rv) || mode == RoundMode::CAST_NONE || mode == RoundMode::CAST_RINT ||
            rv == x) return r;
        F lo = rv > x ? f16_step(r, false) : r;
        F hi = rv < x ? f16_step(r, true) : r;
        switch (mode) {
            case RoundMode::CAST_FLOOR: return lo;
            case RoundMode::CAST_CEIL: return hi;
            case RoundMode::CAST_TRUNC: return x < 0 ? hi : lo;
            case RoundMode::CAST_ROUND: {
                double dl = x - static_cast<float>(lo), dh = static_cast<float>(hi) - x;
                return dl < dh ? lo : dh < dl ? hi : (x < 0 ? lo : hi);
            }
            case RoundMode::CAST_ODD: return (lo.bits & 1u) ? lo : hi;
            default: return r;
        }
    }
}

template <typename I> inline I round_int(double x, AscendC::RoundMode mode) {
    using AscendC::RoundMode;
    if (m::isnan(x)) return I(0);
    double r;
    switch (mode) {
        case RoundMode::CAST_FLOOR: r = m::floor(x); break;
        case RoundMode::CAST_CEIL: r = m::ceil(x); break;
        case RoundMode::CAST_ROUND: r = m::round(x); break;
        case RoundMode::CAST_TRUNC: r = m::trunc(x); break;
        default: r = m::nearbyint(x); break;  // CAST_RINT / CAST_NONE: nearest even
    }
    constexpr double lo = static_cast<double>(std::numeric_limits<I>::lowest());
    constexpr double hi = static_cast<double>(std::numeric_limits<I>::max());
    if (r <= lo) return std::numeric_limits<I>::lowest();
    if (r >= hi) return std::numeric_limits<I>::max();
    return static_cast<I>(r);
}

template <typename To, typename From> inline To cast_value(const From& v, AscendC::RoundMode mode) {
    if constexpr (std::is_same_v<To, From> && (std::is_floating_point_v<To> || is_half_v<To>)) {
        // float -> float (half -> half) with a round mode rounds to an integral value in that type
        double y = static_cast<double>(static_cast<float>(v));
        if (m::isnan(y) || m::isinf(y)) return v;
        switch (mode) {
            case AscendC::RoundMode::CAST_FLOOR: return static_cast<To>(m::floor(y));
            case AscendC::RoundMode::CAST_CEIL: return static_cast<To>(m::ceil(y));
            case AscendC::RoundMode::CAST_ROUND: return static_cast<To>(m::round(y));
            case AscendC::RoundMode::CAST_TRUNC: return static_cast<To>(m::trunc(y));
            case AscendC::RoundMode::CAST_RINT: return static_cast<To>(m::nearbyint(y));
            default: return v;
        }
    }
    double x;
    if constexpr (std::is_floating_point_v<From> || is_half_v<From>) x = static_cast<double>(static_cast<float>(v));
    else x = static_cast<double>(v);
    if constexpr (std::is_floating_point_v<To> || is_half_v<To>) return round_float<To>(x, mode);
    else return round_int<To>(x, mode);
}

}  // namespace akgen_sim

namespace AscendC {

// ---- Duplicate: fill with a scalar
template <typename T>
inline void Duplicate(const LocalTensor<T>& dst, const std::type_identity_t<T>& scalarValue, const int32_t& count,
                      AKGEN_LOC) {
    const T s = scalarValue;
    ::akgen_sim::unary_count("Duplicate", "duplicate", dst, dst, count, [s](const T&) { return s; }, loc, false);
}
template <typename T, bool isSetMask = true, typename M, typename R, std::enable_if_t<std::is_integral_v<R>, int> = 0>
inline void Duplicate(const LocalTensor<T>& dst, const std::type_identity_t<T>& scalarValue, const M& mask,
                      R repeatTime, const uint16_t dstBlockStride, const uint8_t dstRepeatStride, AKGEN_LOC) {
    const T s = scalarValue;
    ::akgen_sim::unary_repeat("Duplicate", "duplicate", dst, dst, ::akgen_sim::to_mask(mask, isSetMask), repeatTime,
                              ::akgen_sim::Stride{dstBlockStride, dstRepeatStride},
                              ::akgen_sim::Stride{dstBlockStride, dstRepeatStride}, [s](const T&) { return s; }, loc,
                              false);
}

// ---- Cast: every RoundMode; the repeat is sized by the wider type.
template <typename Td, typename Ts>
inline void Cast(const LocalTensor<Td>& dst, const LocalTensor<Ts>& src, const RoundMode& roundMode,
                 const uint32_t count, AKGEN_LOC) {
    RoundMode mode = roundMode;
    ::akgen_sim::unary_count("Cast", "cast", dst, src, count,
                             [mode](const Ts& x) { return ::akgen_sim::cast_value<Td>(x, mode); }, loc);
}
template <typename Td, typename Ts, bool isSetMask = true, typename M, typename R,
          std::enable_if_t<std::is_integral_v<R>, int> = 0>
inline void Cast(const LocalTensor<Td>& dst, const LocalTensor<Ts>& src, const RoundMode& roundMode, const M& mask,
                 R repeatTime, const UnaryRepeatParams& p, AKGEN_LOC) {
    RoundMode mode = roundMode;
    ::akgen_sim::unary_repeat("Cast", "cast", dst, src, ::akgen_sim::to_mask(mask, isSetMask), repeatTime,
                              ::akgen_sim::Stride{p.dstBlkStride, p.dstRepStride},
                              ::akgen_sim::Stride{p.srcBlkStride, p.srcRepStride},
                              [mode](const Ts& x) { return ::akgen_sim::cast_value<Td>(x, mode); }, loc);
}

// ---- mask control
inline void SetMaskCount(AKGEN_LOC) { ::akgen_sim::touch("SetMaskCount", loc); ::akgen_sim::ctx().mask_counter = true; }
inline void SetMaskNorm(AKGEN_LOC) { ::akgen_sim::touch("SetMaskNorm", loc); ::akgen_sim::ctx().mask_counter = false; }
template <typename T = half, MaskMode mode = MaskMode::NORMAL>
inline void SetVectorMask(const uint64_t maskHigh, const uint64_t maskLow, AKGEN_LOC) {
    ::akgen_sim::touch("SetVectorMask", loc);
    auto& c = ::akgen_sim::ctx();
    c.mask_hi = maskHigh;
    c.mask_lo = maskLow;
    ::akgen_sim::charge_scalar();
}
template <typename T = half, MaskMode mode = MaskMode::NORMAL>
inline void SetVectorMask(const int32_t len, AKGEN_LOC) {
    ::akgen_sim::touch("SetVectorMask", loc);
    auto& c = ::akgen_sim::ctx();
    if (c.mask_counter) {
        c.mask_lo = static_cast<uint64_t>(len);
        c.mask_hi = 0;
    } else {
        uint64_t n = static_cast<uint64_t>(len);
        c.mask_lo = n >= 64 ? ~0ull : ((1ull << n) - 1);
        c.mask_hi = n >= 128 ? ~0ull : (n > 64 ? ((1ull << (n - 64)) - 1) : 0);
    }
}
inline void ResetMask(AKGEN_LOC) {
    ::akgen_sim::touch("ResetMask", loc);
    auto& c = ::akgen_sim::ctx();
    c.mask_hi = ~0ull;
    c.mask_lo = ~0ull;
}

}  // namespace AscendC

namespace AscendC {

// ---- Copy: UB -> UB on the vector unit, mask + repeat form. Strides: block strides and repeat sizes in 32 B units.
struct CopyRepeatParams {
    uint16_t dstStride = 1, srcStride = 1;
    uint16_t dstRepeatSize = 8, srcRepeatSize = 8;
    CopyRepeatParams() = default;
    CopyRepeatParams(uint16_t ds, uint16_t ss, uint16_t dr, uint16_t sr)
        : dstStride(ds), srcStride(ss), dstRepeatSize(dr), srcRepeatSize(sr) {}
};

template <typename T, bool isSetMask = true, typename M, typename R, std::enable_if_t<std::is_integral_v<R>, int> = 0>
inline void Copy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const M& mask, R repeatTime,
                 const CopyRepeatParams& p, AKGEN_LOC) {
    ::akgen_sim::unary_repeat("Copy", "duplicate", dst, src, ::akgen_sim::to_mask(mask, isSetMask), repeatTime,
                              ::akgen_sim::Stride{p.dstStride, p.dstRepeatSize},
                              ::akgen_sim::Stride{p.srcStride, p.srcRepeatSize}, [](const T& x) { return x; }, loc);
}

}  // namespace AscendC

// ---- CreateVecIndex: dst = firstValue, firstValue + 1, ... Built as on A2/A3: the first 32-byte block from the
// scalar unit (firstValue + i in int64 or float, one rounding), every later block / repeat by an Adds of the element
// count in between (per-op rounding for half, int16 wraps), so large half sequences round exactly like the NPU's.
namespace akgen_sim {

template <typename T> inline T index_value(const T& first, int64_t offset) {
    if constexpr (std::is_integral_v<T>) return static_cast<T>(static_cast<int64_t>(first) + offset);
    else return static_cast<T>(static_cast<float>(first) + static_cast<float>(offset));
}
template <typename T> inline T index_step(const T& prev, int32_t step) {
    using C = calc_t<T>;
    return static_cast<T>(static_cast<C>(prev) + static_cast<C>(step));
}

template <typename T, typename R>
inline void create_vec_index_repeat(const LocalTensor<T>& dst, const T& first, MaskArg mask, R repeat_in,
                                    uint16_t blkStride, uint8_t repStride, const loc_t& loc) {
    const char* api = "CreateVecIndex";
    touch(api, loc);
    uint32_t repeat = check_repeat(repeat_in, api, loc);
    constexpr uint32_t blk = 32 / sizeof(T), per = 256 / sizeof(T);
    if (ctx().mask_counter) {
        fail("SIM-CVI-COUNTER", "CreateVecIndex: the mask + repeat forms are not emulated in counter mask mode "
             "(SetMaskCount); call SetMaskNorm first or use the count form CreateVecIndex(dst, firstValue, count)",
             loc, "api_mismatch", api);
    }
    check_mask(mask, per, api, loc);
    if (repeat == 0) return;  // a NOP on A2/A3
    if (!mask.bits && mask.lo < blk) {
        fail("SIM-CVI-MASK", fmt("CreateVecIndex: mask %llu is less than one 32-byte block (%u elements); the A2/A3 "
                                 "implementation then rebuilds those elements from the data in front of dst, so the "
                                 "result is garbage; use a mask of at least %u or the count form",
                                 static_cast<unsigned long long>(mask.lo), blk, blk), loc, "logic", api);
    }
    Stride sd{blkStride, repStride};
    check_local(dst, "dst", api, repeat_extent(repeat, sd, sizeof(T), per), loc);
    charge_scalar(blk);  // the first block's SetValue calls
    T* d = dst.addr_;
    auto pos = [&](uint32_t e) { return uint64_t(e / blk) * blkStride * blk + e % blk; };
    auto on = [&](uint32_t e) {
        if (!mask.bits) return e < mask.lo;
        return e < 64 ? ((mask.lo >> e) & 1ull) != 0 : ((mask.hi >> (e - 64)) & 1ull) != 0;
    };
    for (uint32_t e = 0; e < per; ++e) {  // repeat 0
        if (!on(e)) continue;
        if (mask.bits || e < blk) d[pos(e)] = index_value(first, e);
        else d[pos(e)] = index_step(d[pos(e - blk)], int32_t(blk));
    }
    const uint64_t rep_elems = uint64_t(repStride) * blk;
    for (uint32_t r = 1; r < repeat; ++r) {
        for (uint32_t e = 0; e < per; ++e) {
            if (on(e)) d[r * rep_elems + pos(e)] = index_step(d[(r - 1) * rep_elems + pos(e)], int32_t(per));
        }
    }
    // one single-repeat Adds per later block (continuous mask) and per later repeat
    uint64_t adds = (mask.bits ? 0 : mask.lo / blk - 1 + (mask.lo % blk ? 1 : 0)) + (repeat - 1);
    vec_charge("adds", api, double(adds), dst.slot_, {}, loc);
}

}  // namespace akgen_sim

namespace AscendC {

template <typename T>
inline void CreateVecIndex(LocalTensor<T> dst, const T& firstValue, uint32_t count, AKGEN_LOC) {
    static_assert(::akgen_sim::one_of_v<T, half, int16_t, float, int32_t>,
                  "Failed to check dtype in CreateVecIndex, current api support dtype combination is dst: half / "
                  "int16_t / float / int32_t");
    ::akgen_sim::touch("CreateVecIndex", loc);
    if (count == 0) return;  // a NOP on A2/A3
    ::akgen_sim::check_local(dst, "dst", "CreateVecIndex", uint64_t(count) * sizeof(T), loc);
    constexpr uint32_t blk = 32 / sizeof(T), per = 256 / sizeof(T);
    ::akgen_sim::charge_scalar(count < blk ? count : blk);  // the first block's SetValue calls
    T* d = dst.addr_;
    uint32_t i = 0;
    for (; i < count && i < blk; ++i) d[i] = ::akgen_sim::index_value(firstValue, i);
    for (; i < count && i < per; ++i) d[i] = ::akgen_sim::index_step(d[i - blk], int32_t(blk));
    for (; i < count; ++i) d[i] = ::akgen_sim::index_step(d[i - per], int32_t(per));
    // one single-repeat Adds per later block of the first repeat, then one per later repeat (and per tail)
    uint32_t head = count < per ? count : per;
    uint32_t adds = (head + blk - 1) / blk - 1 + (count > per ? (count + per - 1) / per - 1 : 0);
    ::akgen_sim::vec_charge("adds", "CreateVecIndex", double(adds), dst.slot_, {}, loc);
}

// The mask + repeat forms (continuous mask or mask[2] bits). Normal mask mode only.
template <typename T, typename M, typename R, std::enable_if_t<std::is_integral_v<R>, int> = 0>
inline void CreateVecIndex(LocalTensor<T>& dst, const T& firstValue, const M& mask, R repeatTime,
                           uint16_t dstBlkStride, uint8_t dstRepStride, AKGEN_LOC) {
    static_assert(::akgen_sim::one_of_v<T, half, int16_t, float, int32_t>,
                  "Failed to check dtype in CreateVecIndex, current api support dtype combination is dst: half / "
                  "int16_t / float / int32_t");
    ::akgen_sim::create_vec_index_repeat(dst, firstValue, ::akgen_sim::to_mask(mask, true), repeatTime, dstBlkStride,
                                         dstRepStride, loc);
}

}  // namespace AscendC

namespace AscendC {

// ---- Brcb: element i * 8 + j of src fills the whole 32-byte block j of dst's repeat i (src read contiguously).
struct BrcbRepeatParams {
    BrcbRepeatParams() = default;
    BrcbRepeatParams(const uint16_t dstBlkStrideIn, const uint16_t dstRepStrideIn)
        : dstBlkStride(dstBlkStrideIn), dstRepStride(dstRepStrideIn) {}
    uint32_t blockNumber = 8;
    uint16_t dstRepStride = 8;
    uint16_t dstBlkStride = 1;
    uint8_t src0BlkStride = 1, src1BlkStride = 1, src0RepStride = 8, src1RepStride = 8;
    bool repeatStrideMode = false, strideSizeMode = false;
};

template <typename T, typename R, std::enable_if_t<std::is_integral_v<R>, int> = 0>
inline void Brcb(const LocalTensor<T>& dst, const LocalTensor<T>& src, R repeatTime,
                 const BrcbRepeatParams& repeatParams, AKGEN_LOC) {
    static_assert(::akgen_sim::one_of_v<T, int16_t, uint16_t, int32_t, uint32_t, half, bfloat16_t, float>,
                  "Failed to check dtype in Brcb, current api support dtype combination is src and dst both: int16_t "
                  "/ uint16_t / int32_t / uint32_t / half / bfloat16_t / float.");
    namespace s = ::akgen_sim;
    s::touch("Brcb", loc);
    uint32_t repeat = s::check_repeat(repeatTime, "Brcb", loc);
    if (repeat == 0) return;  // a NOP on A2/A3
    if (dst.addr_ == src.addr_) {
        s::fail("SIM-BRCB-SAME", "Brcb does not support src0 tensor and dst tensor having same addr; give dst its own "
                "buffer", loc, "memory", "Brcb");
    }
    uint64_t bs = repeatParams.dstBlkStride, rs = repeatParams.dstRepStride;
    if (bs == 0) {
        s::warn("SIM-BRCB-BLKSTRIDE", "dstBlkStride = 0 in Brcb is equivalent to dstBlkStride = 1 (the documentation "
                "calls it undefined); set it to 1", loc, "api_mismatch", "Brcb");
        bs = 1;
    }
    s::check_local(src, "src", "Brcb", uint64_t(repeat) * 8 * sizeof(T), loc);
    s::check_local(dst, "dst", "Brcb", (uint64_t(repeat) - 1) * rs * 32 + 7 * bs * 32 + 32, loc);
    s::ctx().mask_hi = ~0ull;  // the A2/A3 implementation calls ResetMask() first
    s::ctx().mask_lo = ~0ull;
    constexpr uint64_t per_blk = 32 / sizeof(T);
    T* d = dst.addr_;
    const T* a = src.addr_;
    for (uint64_t i = 0; i < repeat; ++i) {
        for (uint64_t j = 0; j < 8; ++j) {
            T v = a[i * 8 + j];
            T* blk = d + (i * rs + j * bs) * per_blk;
            for (uint64_t e = 0; e < per_blk; ++e) blk[e] = v;
        }
    }
    s::vec_charge("brcb", "Brcb", double(repeat), dst.slot_, {src.slot_}, loc);
}

}  // namespace AscendC
