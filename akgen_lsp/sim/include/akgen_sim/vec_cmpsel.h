// akgen sim: Compare / Compares (and the deprecated CompareScalar), Select, GetCmpMask / SetCmpMask (A2/A3, dav_c220).
//
// Compare writes one bit per element, little-endian: element i -> bit i % 8 of byte i / 8, in a uint8_t/int8_t
// tensor. The hardware compares whole 256-byte repeats:
// - count form: only count x sizeof(T) / 256 whole repeats are computed; the tail is not compared and its bits are
//   left as they were (a warning, SIM-CMP-COUNT: data is silently lost), as the API documentation says;
// - mask + repeat form: on A2/A3 the mask is a reserved parameter with no effect (every element of each repeat is
//   compared); src0/src1 follow the block/repeat strides; the result bits of repeat r are stored contiguously after
//   those of repeat r - 1 (256 / sizeof(T) bits per repeat, as the count form lays them out);
// - the form without dst compares one repeat into the CMPMASK register (read back with GetCmpMask, used by Select
//   mode 0 without a selMask);
// - int32_t takes only CMPMODE::EQ (checked).
// Select picks src0 where the selMask bit is 1, otherwise src1 (or the scalar):
// - VSEL_CMPMASK_SPR (mode 0): the first 256 / sizeof(T) bits of selMask are loaded into CMPMASK and every repeat uses
//   the same bits (element i of the count form uses bit i % (256 / sizeof(T)));
// - VSEL_TENSOR_SCALAR_MODE (1) and VSEL_TENSOR_TENSOR_MODE (2): bits are consumed continuously (element i -> bit i).
//   These modes stage 32 bytes through the reserved UB scratch at TMP_UB_OFFSET (184 KiB on A2/A3, the top 8 KiB of
//   UB): we write the same 32 bytes there, and warn when the kernel's own buffers reach into that scratch.
// The mask + repeat form of Select honours mask (normal / counter mode): disabled elements keep dst.
#pragma once

#include <cstring>

#include "vec_misc.h"

namespace akgen_sim {

// The 128-bit CMPMASK register of the vector unit (one per core: in the block context).
struct CmpMaskReg {
    uint8_t* bytes;
};
inline CmpMaskReg cmpmask() { return CmpMaskReg{ctx().cmpmask}; }

template <typename C> inline bool cmp(AscendC::CMPMODE mode, C a, C b) {
    switch (mode) {
        case AscendC::CMPMODE::LT: return a < b;
        case AscendC::CMPMODE::GT: return a > b;
        case AscendC::CMPMODE::EQ: return a == b;
        case AscendC::CMPMODE::LE: return a <= b;
        case AscendC::CMPMODE::GE: return a >= b;
        default: return a != b;
    }
}

template <typename T> inline void check_cmp_mode(AscendC::CMPMODE mode, const char* api, const loc_t& loc) {
    if constexpr (std::is_same_v<T, int32_t>) {
        if (mode != AscendC::CMPMODE::EQ) {
            fail("SIM-CMP-MODE", fmt("Failed to check cmpMode in %s: int32_t supports only CMPMODE::EQ on this "
                                     "arch; compare half or float, or test equality", api), loc, "dtype", api);
        }
    }
}

inline void set_bit(uint8_t* out, uint64_t i, bool v) {
    uint8_t b = static_cast<uint8_t>(1u << (i % 8));
    out[i / 8] = static_cast<uint8_t>(v ? (out[i / 8] | b) : (out[i / 8] & ~b));
}
inline bool get_bit(const uint8_t* p, uint64_t i) { return (p[i / 8] >> (i % 8)) & 1u; }

// Count form of Compare/Compares: whole 256 B repeats only. pred(i) compares element i.
template <typename T, typename U, typename F>
inline void compare_count(const char* api, const AscendC::LocalTensor<U>& dst, const AscendC::LocalTensor<T>& s0,
                          const AscendC::LocalTensor<T>* s1, int64_t count, F pred, const loc_t& loc) {
    touch(api, loc);
    check_count<T>(count, api, loc);
    if (count == 0) return;
    uint64_t bytes = uint64_t(count) * sizeof(T);
    uint64_t done = bytes / 256 * 256 / sizeof(T);
    if (bytes % 256 != 0) {
        warn("SIM-CMP-COUNT",
             fmt("%s: count %lld x %zu B = %llu B is not a multiple of 256 B: the hardware compares whole 256-byte "
                 "repeats only, so the last %llu elements are not compared and their result bits are left as they "
                 "were; pad the count to a multiple of %zu elements", api, static_cast<long long>(count), sizeof(T),
                 static_cast<unsigned long long>(bytes), static_cast<unsigned long long>(uint64_t(count) - done),
                 256 / sizeof(T)), loc, "api_mismatch", api);
    }
    if (done == 0) return;
    check_local(s0, "src0", api, done * sizeof(T), loc);
    if (s1) check_local(*s1, "src1", api, done * sizeof(T), loc);
    check_local(dst, "dst", api, done / 8, loc);
    uint8_t* out = reinterpret_cast<uint8_t*>(dst.addr_);
    for (uint64_t i = 0; i < done; ++i) set_bit(out, i, pred(i));
    vec_charge("compare", api, double(done * sizeof(T) / 256), dst.slot_, {s0.slot_, s1 ? s1->slot_ : nullptr}, loc);
}

// Mask + repeat form: the mask is reserved on A2/A3; every element of each repeat is compared. pred(a, b) on
// pointers to the two operands (b is null for Compares).
template <typename T, typename U, typename F, typename R>
inline void compare_repeat(const char* api, const AscendC::LocalTensor<U>& dst, const AscendC::LocalTensor<T>& s0,
                           const AscendC::LocalTensor<T>* s1, R repeat_in, Stride sa, Stride sb, F pred,
                           const loc_t& loc) {
    touch(api, loc);
    uint32_t repeat = check_repeat(repeat_in, api, loc);
    if (repeat == 0) return;
    constexpr uint32_t per = 256 / sizeof(T);
    check_local(s0, "src0", api, repeat_extent(repeat, sa, sizeof(T), per), loc);
    if (s1) check_local(*s1, "src1", api, repeat_extent(repeat, sb, sizeof(T), per), loc);
    check_local(dst, "dst", api, uint64_t(repeat) * per / 8, loc);
    MaskState all{false, ~0ull, ~0ull, 0};
    uint8_t* out = reinterpret_cast<uint8_t*>(dst.addr_);
    uint64_t i = 0;
    repeat_visit(out, s0.addr_, s1 ? s1->addr_ : static_cast<const T*>(nullptr), repeat, Stride{}, sa, sb, all, per,
                 [&](uint8_t*, const T* a, const T* b) { set_bit(out, i, pred(a, b)); ++i; });
    vec_charge("compare", api, repeat, dst.slot_, {s0.slot_, s1 ? s1->slot_ : nullptr}, loc);
}

// Select modes 1 and 2 stage 32 bytes through the reserved scratch at the top 8 KiB of UB (TMP_UB_OFFSET).
inline void select_scratch(const void* data, const char* api, const loc_t& loc) {
    BlockCtx& c = ctx();
    uint64_t off = cfg().ub_bytes - 8192;
    if (c.ub == nullptr) return;
    if (c.ub_used > off) {
        warn("SIM-SEL-SCRATCH",
             fmt("%s: modes VSEL_TENSOR_SCALAR_MODE and VSEL_TENSOR_TENSOR_MODE use 32 bytes of the reserved UB "
                 "scratch at offset %llu (the top 8 KiB of UB), but InitBuffer gave out %llu bytes, so they "
                 "overwrite a buffer of this kernel; keep the buffers under %llu bytes", api,
                 static_cast<unsigned long long>(off), static_cast<unsigned long long>(c.ub_used),
                 static_cast<unsigned long long>(off)), loc, "memory", api);
    }
    std::memcpy(c.ub + off, data, 32);
}

template <typename T> inline constexpr bool sel_dtype_ok = std::is_same_v<T, half> || std::is_same_v<T, float>;
template <typename U> inline constexpr bool sel_mask_ok =
    std::is_same_v<U, uint8_t> || std::is_same_v<U, uint16_t> || std::is_same_v<U, uint32_t> ||
    std::is_same_v<U, uint64_t>;

// Select, count form (counter mode over `count` elements). src1 is null for mode 1 (scalar s).
template <typename T, typename U>
inline void select_count(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<U>& sel,
                         const AscendC::LocalTensor<T>& s0, const AscendC::LocalTensor<T>* s1, T s,
                         AscendC::SELMODE mode, int64_t count, const loc_t& loc) {
    const char* api = "Select";
    touch(api, loc);
    check_count<T>(count, api, loc);
    if (count == 0) return;
    constexpr uint32_t per = 256 / sizeof(T);
    uint64_t n = uint64_t(count);
    bool spr = mode == AscendC::SELMODE::VSEL_CMPMASK_SPR;
    if (!s1 && mode != AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE) {
        fail("SIM-SEL-MODE", fmt("Select with a scalar src1 takes selMode VSEL_TENSOR_SCALAR_MODE, not mode %d",
                                 static_cast<int>(mode)), loc, "api_mismatch", api);
    }
    if (s1 && mode == AscendC::SELMODE::VSEL_TENSOR_SCALAR_MODE) {
        fail("SIM-SEL-MODE", "Select with a tensor src1 takes selMode VSEL_CMPMASK_SPR or VSEL_TENSOR_TENSOR_MODE, "
                             "not VSEL_TENSOR_SCALAR_MODE (pass a scalar src1 for that mode)", loc, "api_mismatch", api);
    }
    check_local(dst, "dst", api, n * sizeof(T), loc);
    check_local(s0, "src0", api, n * sizeof(T), loc);
    if (s1) check_local(*s1, "src1", api, n * sizeof(T), loc);
    check_local(sel, "selMask", api, spr ? std::min<uint64_t>((n + 7) / 8, per / 8) : (n + 7) / 8, loc);
    const uint8_t* m = reinterpret_cast<const uint8_t*>(sel.addr_);
    if (spr) {
        std::memcpy(cmpmask().bytes, m, per / 8);
    } else {
        uint8_t stage[32] = {};
        if (s1) {
            uint64_t a = reinterpret_cast<uint64_t>(sel.addr_);
            std::memcpy(stage, &a, sizeof a);
        } else {
            for (uint32_t k = 0; k < 32 / sizeof(T); ++k) std::memcpy(stage + k * sizeof(T), &s, sizeof(T));
        }
        select_scratch(stage, api, loc);
    }
    T* d = dst.addr_;
    const T* a = s0.addr_;
    const T* b = s1 ? s1->addr_ : nullptr;
    for (uint64_t i = 0; i < n; ++i) {
        bool on = get_bit(m, spr ? i % per : i);
        d[i] = on ? a[i] : (b ? b[i] : s);
    }
    vec_charge("select", api, repeats_for<T>(n), dst.slot_, {sel.slot_, s0.slot_, s1 ? s1->slot_ : nullptr}, loc);
}

// Select, mask + repeat form. `bits` is where the selection bits come from: null means the CMPMASK register.
template <typename T, typename R>
inline void select_repeat(const char* api, const AscendC::LocalTensor<T>& dst, const uint8_t* bits, bool continuous,
                          const AscendC::LocalTensor<T>& s0, const AscendC::LocalTensor<T>* s1, T s, Slot* sel_slot,
                          MaskArg mask, R repeat_in, const AscendC::BinaryRepeatParams& p, const loc_t& loc) {
    touch(api, loc);
    uint32_t repeat = check_repeat(repeat_in, api, loc);
    constexpr uint32_t per = 256 / sizeof(T);
    check_mask(mask, per, api, loc);
    MaskState m = resolve_mask(mask);
    repeat = counter_repeats(m, per, repeat);
    if (repeat == 0) return;
    Stride sd{p.dstBlkStride, p.dstRepStride}, sa{p.src0BlkStride, p.src0RepStride}, sb{p.src1BlkStride, p.src1RepStride};
    check_local(dst, "dst", api, touched_extent(repeat, sd, sizeof(T), m, per), loc);
    check_local(s0, "src0", api, touched_extent(repeat, sa, sizeof(T), m, per), loc);
    if (s1) check_local(*s1, "src1", api, touched_extent(repeat, sb, sizeof(T), m, per), loc);
    const uint8_t* reg = bits ? bits : cmpmask().bytes;
    // element (r, e) -> bit index
    T* d0 = dst.addr_;
    constexpr uint32_t per_blk = 32 / sizeof(T);
    auto at = [](auto* base, uint32_t r, uint32_t e, Stride st) {
        using P = std::remove_pointer_t<decltype(base)>;
        using B = std::conditional_t<std::is_const_v<P>, const uint8_t*, uint8_t*>;
        uint64_t byte = uint64_t(r) * st.rep * 32 + uint64_t(e / per_blk) * st.blk * 32 + uint64_t(e % per_blk) * sizeof(T);
        return reinterpret_cast<decltype(base)>(reinterpret_cast<B>(base) + byte);
    };
    uint64_t left = m.total;
    for (uint32_t r = 0; r < repeat; ++r) {
        for (uint32_t e = 0; e < per; ++e) {
            bool on;
            if (m.counter) {
                if (left == 0) break;
                --left;
                on = true;
            } else {
                on = e < 64 ? ((m.lo >> e) & 1ull) : ((m.hi >> (e - 64)) & 1ull);
            }
            if (!on) continue;
            bool pick = get_bit(reg, continuous ? uint64_t(r) * per + e : e);
            *at(d0, r, e, sd) = pick ? *at(s0.addr_, r, e, sa) : (s1 ? *at(s1->addr_, r, e, sb) : s);
        }
    }
    vec_charge("select", api, repeat, dst.slot_, {sel_slot, s0.slot_, s1 ? s1->slot_ : nullptr}, loc);
}

template <typename T, typename U>
inline const uint8_t* select_bits_for(const AscendC::LocalTensor<U>& sel, AscendC::SELMODE mode, uint32_t repeat,
                                      const loc_t& loc) {
    constexpr uint32_t per = 256 / sizeof(T);
    bool spr = mode == AscendC::SELMODE::VSEL_CMPMASK_SPR;
    check_local(sel, "selMask", "Select", spr ? per / 8 : uint64_t(repeat ? repeat : 1) * per / 8, loc);
    if (spr) {
        std::memcpy(cmpmask().bytes, sel.addr_, per / 8);
        return cmpmask().bytes;
    }
    return reinterpret_cast<const uint8_t*>(sel.addr_);
}

}  // namespace akgen_sim

namespace AscendC {

// Dtype checks run when the call runs (CANN checks these with ASCENDC_ASSERT, so kernels that instantiate a call
// for an unsupported type in a branch they never take still compile).
#define AKGEN_CMP_DTYPE(NAME)                                                                                          \
    if constexpr (!::akgen_sim::one_of_v<T, half, float, int32_t> || !::akgen_sim::one_of_v<U, uint8_t, int8_t>) {    \
        ::akgen_sim::fail("SIM-DTYPE", "Failed to check dtype in " NAME ", current api support dtype combination is " \
                          "src: half / float / int32_t (int32_t only with CMPMODE::EQ), dst: uint8_t / int8_t", loc,  \
                          "dtype", NAME);                                                                              \
    }

// ------------------------------------------------------------------------------------------------------- Compare
template <typename T, typename U>
inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
                    uint32_t count, AKGEN_LOC) {
    AKGEN_CMP_DTYPE("Compare");
    ::akgen_sim::check_cmp_mode<T>(cmpMode, "Compare", loc);
    using C = ::akgen_sim::calc_t<T>;
    const T* a = src0.addr_;
    const T* b = src1.addr_;
    ::akgen_sim::compare_count("Compare", dst, src0, &src1, count, [&](uint64_t i) {
        return ::akgen_sim::cmp<C>(cmpMode, static_cast<C>(a[i]), static_cast<C>(b[i]));
    }, loc);
}

template <typename T, typename U, bool isSetMask = true, typename M, typename R,
          std::enable_if_t<std::is_integral_v<R>, int> = 0>
inline void Compare(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode,
                    const M& mask, R repeatTime, const BinaryRepeatParams& p, AKGEN_LOC) {
    AKGEN_CMP_DTYPE("Compare");
    (void)mask;  // reserved on A2/A3
    ::akgen_sim::check_cmp_mode<T>(cmpMode, "Compare", loc);
    using C = ::akgen_sim::calc_t<T>;
    ::akgen_sim::compare_repeat("Compare", dst, src0, &src1, repeatTime, {p.src0BlkStride, p.src0RepStride},
                                {p.src1BlkStride, p.src1RepStride}, [&](const T* a, const T* b) {
        return ::akgen_sim::cmp<C>(cmpMode, static_cast<C>(*a), static_cast<C>(*b));
    }, loc);
}

// One repeat compared into the CMPMASK register (no dst).
template <typename T, bool isSetMask = true, typename M>
inline void Compare(const LocalTensor<T>& src0, const LocalTensor<T>& src1, CMPMODE cmpMode, const M& mask,
                    const BinaryRepeatParams& p, AKGEN_LOC) {
    using U = uint8_t;
    AKGEN_CMP_DTYPE("Compare");
    (void)mask;
    ::akgen_sim::touch("Compare", loc);
    ::akgen_sim::check_cmp_mode<T>(cmpMode, "Compare", loc);
    constexpr uint32_t per = 256 / sizeof(T);
    ::akgen_sim::Stride sa{p.src0BlkStride, p.src0RepStride}, sb{p.src1BlkStride, p.src1RepStride};
    ::akgen_sim::check_local(src0, "src0", "Compare", ::akgen_sim::repeat_extent(1, sa, sizeof(T), per), loc);
    ::akgen_sim::check_local(src1, "src1", "Compare", ::akgen_sim::repeat_extent(1, sb, sizeof(T), per), loc);
    using C = ::akgen_sim::calc_t<T>;
    uint8_t* reg = ::akgen_sim::cmpmask().bytes;
    std::memset(reg, 0, 16);
    ::akgen_sim::MaskState all{false, ~0ull, ~0ull, 0};
    uint64_t i = 0;
    ::akgen_sim::repeat_visit(reg, src0.addr_, src1.addr_, 1, ::akgen_sim::Stride{}, sa, sb, all, per,
                              [&](uint8_t*, const T* a, const T* b) {
        ::akgen_sim::set_bit(reg, i++, ::akgen_sim::cmp<C>(cmpMode, static_cast<C>(*a), static_cast<C>(*b)));
    });
    ::akgen_sim::vec_charge("compare", "Compare", 1, nullptr, {src0.slot_, src1.slot_}, loc);
}

// ------------------------------------------------------------------------------------------------------- Compares
template <typename T, typename U>
inline void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const std::type_identity_t<T> src1Scalar,
                     CMPMODE cmpMode, uint32_t count, AKGEN_LOC) {
    AKGEN_CMP_DTYPE("Compares");
    ::akgen_sim::check_cmp_mode<T>(cmpMode, "Compares", loc);
    using C = ::akgen_sim::calc_t<T>;
    const T* a = src0.addr_;
    const C s = static_cast<C>(src1Scalar);
    ::akgen_sim::compare_count("Compares", dst, src0, static_cast<const LocalTensor<T>*>(nullptr), count,
                               [&](uint64_t i) { return ::akgen_sim::cmp<C>(cmpMode, static_cast<C>(a[i]), s); }, loc);
}

template <typename T, typename U, bool isSetMask = true, typename M, typename R,
          std::enable_if_t<std::is_integral_v<R>, int> = 0>
inline void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const std::type_identity_t<T> src1Scalar,
                     CMPMODE cmpMode, const M& mask, R repeatTime, const UnaryRepeatParams& p, AKGEN_LOC) {
    AKGEN_CMP_DTYPE("Compares");
    (void)mask;  // reserved on A2/A3
    ::akgen_sim::check_cmp_mode<T>(cmpMode, "Compares", loc);
    using C = ::akgen_sim::calc_t<T>;
    const C s = static_cast<C>(src1Scalar);
    ::akgen_sim::Stride sa{p.srcBlkStride, p.srcRepStride};
    ::akgen_sim::compare_repeat("Compares", dst, src0, static_cast<const LocalTensor<T>*>(nullptr), repeatTime, sa, sa,
                                [&](const T* a, const T*) { return ::akgen_sim::cmp<C>(cmpMode, static_cast<C>(*a), s); },
                                loc);
}

// CompareScalar: the deprecated name of Compares.
template <typename T, typename U>
inline void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const std::type_identity_t<T> src1Scalar,
                          CMPMODE cmpMode, uint32_t count, AKGEN_LOC) {
    Compares(dst, src0, src1Scalar, cmpMode, count, loc);
}
template <typename T, typename U, bool isSetMask = true, typename M, typename R,
          std::enable_if_t<std::is_integral_v<R>, int> = 0>
inline void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0,
                          const std::type_identity_t<T> src1Scalar, CMPMODE cmpMode, const M& mask, R repeatTime,
                          const UnaryRepeatParams& p, AKGEN_LOC) {
    Compares<T, U, isSetMask>(dst, src0, src1Scalar, cmpMode, mask, repeatTime, p, loc);
}

// ------------------------------------------------------------------------------------------- GetCmpMask / SetCmpMask
template <typename T> inline void GetCmpMask(const LocalTensor<T>& dst, AKGEN_LOC) {
    ::akgen_sim::touch("GetCmpMask", loc);
    ::akgen_sim::check_local(dst, "dst", "GetCmpMask", 16, loc);
    std::memcpy(dst.addr_, ::akgen_sim::cmpmask().bytes, 16);
    ::akgen_sim::vec_charge("compare", "GetCmpMask", 1, dst.slot_, {}, loc);
}
template <typename T> inline void SetCmpMask(const LocalTensor<T>& src, AKGEN_LOC) {
    ::akgen_sim::touch("SetCmpMask", loc);
    ::akgen_sim::check_local(src, "src", "SetCmpMask", 16, loc);
    std::memcpy(::akgen_sim::cmpmask().bytes, src.addr_, 16);
    ::akgen_sim::vec_charge("compare", "SetCmpMask", 1, nullptr, {src.slot_}, loc);
}

// ------------------------------------------------------------------------------------------------------- Select
// A signed integer selMask (int8_t: what Compare writes for a kernel that declares it so) holds the same bits: only
// CANN's CPU debug asserts its type (ASCENDC_ASSERT in VselImpl), so the npu check mode warns and selects by the bits.
#define AKGEN_SEL_DTYPE()                                                                                              \
    if constexpr (!::akgen_sim::sel_dtype_ok<T> || !(::akgen_sim::sel_mask_ok<U> || std::is_integral_v<U>)) {        \
        ::akgen_sim::fail("SIM-DTYPE", "Failed to check dtype in Select, current api support dtype combination is "   \
                          "dst, src0Local and src1Local are both: half / float, selMask:  uint8_t / uint16_t / "       \
                          "uint32_t / uint64_t", loc, "dtype", "Select");                                              \
    } else if constexpr (!::akgen_sim::sel_mask_ok<U>) {                                                               \
        ::akgen_sim::cpu_debug_check("SIM-DTYPE", "Failed to check dtype in Select, current api support dtype "        \
                                     "combination is dst, src0Local and src1Local are both: half / float, selMask:  " \
                                     "uint8_t / uint16_t / uint32_t / uint64_t", loc, "dtype", "Select");             \
    }

// Modes 0 and 2, count form.
template <typename T, typename U>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                   const LocalTensor<T>& src1, SELMODE selMode, uint32_t count, AKGEN_LOC) {
    AKGEN_SEL_DTYPE();
    ::akgen_sim::select_count(dst, selMask, src0, &src1, T{}, selMode, count, loc);
}

// Mode 1, count form.
template <typename T, typename U>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                   std::type_identity_t<T> src1, SELMODE selMode, uint32_t count, AKGEN_LOC) {
    AKGEN_SEL_DTYPE();
    ::akgen_sim::select_count(dst, selMask, src0, static_cast<const LocalTensor<T>*>(nullptr), static_cast<T>(src1),
                              selMode, count, loc);
}

// Modes 0 and 2, mask + repeat form.
template <typename T, typename U, bool isSetMask = true, typename M, typename R,
          std::enable_if_t<std::is_integral_v<R>, int> = 0>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                   const LocalTensor<T>& src1, SELMODE selMode, const M& mask, R repeatTime,
                   const BinaryRepeatParams& p, AKGEN_LOC) {
    AKGEN_SEL_DTYPE();
    ::akgen_sim::touch("Select", loc);
    if (selMode == SELMODE::VSEL_TENSOR_SCALAR_MODE) {
        ::akgen_sim::fail("SIM-SEL-MODE", "Select with a tensor src1 takes selMode VSEL_CMPMASK_SPR or "
                          "VSEL_TENSOR_TENSOR_MODE, not VSEL_TENSOR_SCALAR_MODE", loc, "api_mismatch", "Select");
    }
    const uint8_t* bits = ::akgen_sim::select_bits_for<T>(selMask, selMode, static_cast<uint32_t>(repeatTime) & 0xFF, loc);
    if (selMode == SELMODE::VSEL_TENSOR_TENSOR_MODE) {
        uint8_t stage[32] = {};
        uint64_t a = reinterpret_cast<uint64_t>(selMask.addr_);
        std::memcpy(stage, &a, sizeof a);
        ::akgen_sim::select_scratch(stage, "Select", loc);
    }
    ::akgen_sim::select_repeat("Select", dst, bits, selMode != SELMODE::VSEL_CMPMASK_SPR, src0, &src1, T{},
                               selMask.slot_, ::akgen_sim::to_mask(mask, isSetMask), repeatTime, p, loc);
}

// Mode 1, mask + repeat form.
template <typename T, typename U, bool isSetMask = true, typename M, typename R,
          std::enable_if_t<std::is_integral_v<R>, int> = 0>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0,
                   std::type_identity_t<T> src1, SELMODE selMode, const M& mask, R repeatTime,
                   const BinaryRepeatParams& p, AKGEN_LOC) {
    AKGEN_SEL_DTYPE();
    ::akgen_sim::touch("Select", loc);
    if (selMode != SELMODE::VSEL_TENSOR_SCALAR_MODE) {
        ::akgen_sim::fail("SIM-SEL-MODE", "Select with a scalar src1 takes selMode VSEL_TENSOR_SCALAR_MODE", loc,
                          "api_mismatch", "Select");
    }
    const uint8_t* bits = ::akgen_sim::select_bits_for<T>(selMask, selMode, static_cast<uint32_t>(repeatTime) & 0xFF, loc);
    T s = static_cast<T>(src1);
    uint8_t stage[32];
    for (uint32_t k = 0; k < 32 / sizeof(T); ++k) std::memcpy(stage + k * sizeof(T), &s, sizeof(T));
    ::akgen_sim::select_scratch(stage, "Select", loc);
    ::akgen_sim::select_repeat("Select", dst, bits, true, src0, static_cast<const LocalTensor<T>*>(nullptr), s,
                               selMask.slot_, ::akgen_sim::to_mask(mask, isSetMask), repeatTime, p, loc);
}

// Mode 0 without selMask: the CMPMASK register (Compare without dst, or SetCmpMask) holds the bits; mask from
// SetVectorMask.
template <typename T, SELMODE selMode, typename R, std::enable_if_t<std::is_integral_v<R>, int> = 0>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, R repeatTime,
                   const BinaryRepeatParams& p, AKGEN_LOC) {
    using U = uint8_t;
    AKGEN_SEL_DTYPE();
    ::akgen_sim::touch("Select", loc);
    if constexpr (selMode != SELMODE::VSEL_CMPMASK_SPR) {
        ::akgen_sim::fail("SIM-SEL-MODE", "Select without selMask is emulated for VSEL_CMPMASK_SPR only (mode 2 "
                          "keeps a selMask address in CMPMASK); pass selMask explicitly", loc, "api_mismatch", "Select");
    }
    ::akgen_sim::select_repeat("Select", dst, nullptr, false, src0, &src1, T{}, nullptr,
                               ::akgen_sim::mask_count<T>(0, false), repeatTime, p, loc);
}

// Mode 1 without the scalar: CMPMASK (SetCmpMask) holds it; mask from SetVectorMask.
template <typename T, typename U, typename R, std::enable_if_t<std::is_integral_v<R>, int> = 0>
inline void Select(const LocalTensor<T>& dst, const LocalTensor<U>& selMask, const LocalTensor<T>& src0, R repeatTime,
                   const BinaryRepeatParams& p, AKGEN_LOC) {
    AKGEN_SEL_DTYPE();
    ::akgen_sim::touch("Select", loc);
    T s;
    std::memcpy(&s, ::akgen_sim::cmpmask().bytes, sizeof(T));
    const uint8_t* bits = ::akgen_sim::select_bits_for<T>(selMask, SELMODE::VSEL_TENSOR_SCALAR_MODE,
                                                         static_cast<uint32_t>(repeatTime) & 0xFF, loc);
    ::akgen_sim::select_repeat("Select", dst, bits, true, src0, static_cast<const LocalTensor<T>*>(nullptr), s,
                               selMask.slot_, ::akgen_sim::mask_count<T>(0, false), repeatTime, p, loc);
}

// Operator forms (the Compare page: "dst = src0 < src1", ... ">=", "==", "!="): the whole of src0 against src1, one
// bit of dst per element, as Compare(dst, src0, src1, mode, src0.GetSize()). Operators cannot take a source location:
// checks report at the last API call before them, as the arithmetic operators do.
template <typename T, int MODE> struct CompareExpr {
    const LocalTensor<T>& a;
    const LocalTensor<T>& b;
    static constexpr bool is_tensor_expr = true;
    template <typename U> void assign_to(const LocalTensor<U>& d) const {
        Compare(d, a, b, static_cast<CMPMODE>(MODE), static_cast<uint32_t>(a.GetSize()), ::akgen_sim::ctx().last);
    }
};
template <typename T> CompareExpr<T, static_cast<int>(CMPMODE::LT)> operator<(const LocalTensor<T>& a,
                                                                             const LocalTensor<T>& b) { return {a, b}; }
template <typename T> CompareExpr<T, static_cast<int>(CMPMODE::GT)> operator>(const LocalTensor<T>& a,
                                                                             const LocalTensor<T>& b) { return {a, b}; }
template <typename T> CompareExpr<T, static_cast<int>(CMPMODE::LE)> operator<=(const LocalTensor<T>& a,
                                                                              const LocalTensor<T>& b) { return {a, b}; }
template <typename T> CompareExpr<T, static_cast<int>(CMPMODE::GE)> operator>=(const LocalTensor<T>& a,
                                                                              const LocalTensor<T>& b) { return {a, b}; }
template <typename T> CompareExpr<T, static_cast<int>(CMPMODE::EQ)> operator==(const LocalTensor<T>& a,
                                                                              const LocalTensor<T>& b) { return {a, b}; }
template <typename T> CompareExpr<T, static_cast<int>(CMPMODE::NE)> operator!=(const LocalTensor<T>& a,
                                                                              const LocalTensor<T>& b) { return {a, b}; }

#undef AKGEN_CMP_DTYPE
#undef AKGEN_SEL_DTYPE

}  // namespace AscendC
