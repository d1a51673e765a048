// akgen sim: the engine every element-wise vector API is written on.
//
// Two paths:
// - `count form` (`Op(dst, src..., count)`): a tight loop over contiguous elements (what the compiler vectorises);
// - `mask + repeat form` (`Op(dst, src..., mask, repeatTime, params)`): the hardware's addressing: one repeat is 256 B,
//   8 blocks of 32 B; block and repeat strides count 32-byte blocks; the mask (normal: bits, `mask[0]` low; counter:
//   an element count) picks the elements. With mixed element sizes the repeat is sized by the widest type.
// Both check their operands (alive, UB, 32 B aligned, large enough) and charge the V pipe: startup + slope x repeats.
#pragma once

#include "tensor.h"
#include "vec_ops.h"

namespace AscendC {

struct BinaryRepeatParams {
    uint8_t dstBlkStride = 1, src0BlkStride = 1, src1BlkStride = 1;
    uint8_t dstRepStride = 8, src0RepStride = 8, src1RepStride = 8;
    bool repeatStrideMode = false, strideSizeMode = false;
    BinaryRepeatParams() = default;
    BinaryRepeatParams(uint8_t db, uint8_t s0b, uint8_t s1b, uint8_t dr, uint8_t s0r, uint8_t s1r)
        : dstBlkStride(db), src0BlkStride(s0b), src1BlkStride(s1b), dstRepStride(dr), src0RepStride(s0r),
          src1RepStride(s1r) {}
};

struct UnaryRepeatParams {
    uint16_t dstBlkStride = 1, srcBlkStride = 1;
    uint16_t dstRepStride = 8, srcRepStride = 8;
    bool repeatStrideMode = false, strideSizeMode = false;
    UnaryRepeatParams() = default;
    UnaryRepeatParams(uint16_t db, uint16_t sb, uint16_t dr, uint16_t sr)
        : dstBlkStride(db), srcBlkStride(sb), dstRepStride(dr), srcRepStride(sr) {}
};

constexpr uint64_t MASK_PLACEHOLDER = 0;

}  // namespace AscendC

namespace akgen_sim {

using AscendC::LocalTensor;

// Where one operand lives in the repeat form.
struct Stride { uint32_t blk = 1; uint32_t rep = 8; };

struct MaskArg {
    bool bits = false;     // true: mask[2] bit pattern; false: continuous count `lo`
    bool set = true;       // isSetMask: false means "use the mask set by SetVectorMask"
    uint64_t lo = 0, hi = 0;
};

template <typename T> inline double repeats_for(uint64_t count) { return double((count * sizeof(T) + 255) / 256); }

// Count form: f(i) computes element i. `dst_bytes`/`src_bytes` are checked on the operands by the caller.
template <typename Tout, typename F>
inline void count_loop(Tout* __restrict d, int64_t n, F&& f) {
    for (int64_t i = 0; i < n; ++i) d[i] = f(i);
}

// Cost-model bookkeeping for a vector op: reads `srcs`, writes `dst` (out of line, in launcher.cpp).
double vec_charge(const char* op, const char* api, double repeats, Slot* dst, std::initializer_list<Slot*> srcs,
                  const loc_t& loc);

// Validate the repeat-form arguments. `elems_per_repeat` from the widest type; returns false for a no-op.
template <typename R>
inline uint32_t check_repeat(R repeat, const char* api, const loc_t& loc) {
    long long r = static_cast<long long>(repeat);
    if (r < 0 || r > 255) {
        fail("SIM-REPEAT",
             fmt("%s: repeatTime %lld is out of range [0, 255]; the hardware takes it as a uint8_t, so it would wrap "
                 "to %lld", api, r, r & 0xFF), loc, "api_mismatch", api);
    }
    return static_cast<uint32_t>(r);
}

inline void check_mask(const MaskArg& m, uint32_t per_repeat, const char* api, const loc_t& loc) {
    if (!m.set || ctx().mask_counter) return;
    if (!m.bits) {
        if (m.lo == 0 || m.lo > per_repeat) {
            fail("SIM-MASK", fmt("%s: mask %llu is out of range [1, %u] for this data type (one repeat holds %u "
                                 "elements)", api, static_cast<unsigned long long>(m.lo), per_repeat, per_repeat),
                 loc, "api_mismatch", api);
        }
    } else if (per_repeat <= 64 && m.hi != 0) {
        fail("SIM-MASK", fmt("%s: mask[1] is 0x%llx but for a 32-bit type one repeat holds 64 elements, so mask[1] "
                             "must be 0", api, static_cast<unsigned long long>(m.hi)), loc, "api_mismatch", api);
    }
}

// Per-repeat enabled element test. Counter mode: the first `remaining` elements across all repeats.
struct MaskState {
    bool counter;
    uint64_t lo, hi;
    uint64_t total;  // counter mode: number of elements
};

inline MaskState resolve_mask(const MaskArg& m) {
    BlockCtx& c = ctx();
    MaskState s{};
    s.counter = c.mask_counter;
    if (s.counter) {
        s.total = m.set ? (m.bits ? m.lo : m.lo) : c.mask_lo;
        return s;
    }
    if (!m.set) {
        s.lo = c.mask_lo;
        s.hi = c.mask_hi;
    } else if (m.bits) {
        s.lo = m.lo;
        s.hi = m.hi;
    } else {
        uint64_t n = m.lo;
        s.lo = n >= 64 ? ~0ull : ((1ull << n) - 1);
        s.hi = n >= 128 ? ~0ull : (n > 64 ? ((1ull << (n - 64)) - 1) : 0);
    }
    return s;
}

// Byte extent one operand spans in the repeat form.
inline uint64_t repeat_extent(uint32_t repeat, Stride st, uint32_t elem_size, uint32_t per_repeat) {
    if (repeat == 0) return 0;
    uint32_t blocks = (per_repeat * elem_size + 31) / 32;
    return (uint64_t(repeat) - 1) * st.rep * 32 + (uint64_t(blocks) - 1) * st.blk * 32 + 32;
}

// Bytes one operand touches in the repeat form, computed as CANN's CPU check does: every repeat reads up to the last
// enabled element of the mask (normal mode: the highest set bit, clamped to one repeat; counter mode: full repeats
// then a tail repeat of `total % per_repeat` elements). A mask that enables fewer elements than a whole repeat needs
// only the blocks up to that element, not 256 bytes.
inline uint64_t touched_span(uint64_t repeat, Stride st, uint32_t elem_size, uint64_t mask_len) {
    if (repeat == 0 || mask_len == 0) return 0;
    const uint64_t per_blk = 32 / elem_size;
    const uint64_t blocks = (mask_len + per_blk - 1) / per_blk;
    const uint64_t last_blk = mask_len % per_blk ? mask_len % per_blk : per_blk;
    return (((repeat - 1) * st.rep + (blocks - 1) * st.blk) * per_blk + last_blk) * elem_size;
}

inline uint64_t mask_length(const MaskState& m, uint32_t per_repeat) {
    uint64_t len = 0;
    if (m.hi != 0) {
        len = 64 + 64 - static_cast<uint64_t>(__builtin_clzll(m.hi));
    } else if (m.lo != 0) {
        len = 64 - static_cast<uint64_t>(__builtin_clzll(m.lo));
    }
    return len < per_repeat ? len : per_repeat;
}

inline uint64_t touched_extent(uint32_t repeat, Stride st, uint32_t elem_size, const MaskState& m,
                               uint32_t per_repeat) {
    if (repeat == 0) return 0;
    if (!m.counter) return touched_span(repeat, st, elem_size, mask_length(m, per_repeat));
    const uint64_t full = m.total / per_repeat, tail = m.total % per_repeat;
    uint64_t main = touched_span(full, st, elem_size, per_repeat);
    if (tail == 0) return main;
    uint64_t tail_end = full * st.rep * 32 + touched_span(1, st, elem_size, tail);
    return main > tail_end ? main : tail_end;
}

// Visit every enabled element of the repeat form: f(ptr_dst, ptr_src0, ptr_src1) with typed pointers.
template <typename Td, typename T0, typename T1, typename F>
inline void repeat_visit(Td* d, const T0* a, const T1* b, uint32_t repeat, Stride sd, Stride s0, Stride s1,
                         const MaskState& m, uint32_t per_repeat, F&& f) {
    auto at = [](auto* base, uint32_t r, uint32_t e, Stride st) {
        using P = std::remove_pointer_t<decltype(base)>;
        constexpr uint32_t per_blk = 32 / sizeof(P);
        uint64_t byte = uint64_t(r) * st.rep * 32 + uint64_t(e / per_blk) * st.blk * 32 + uint64_t(e % per_blk) * sizeof(P);
        using B = std::conditional_t<std::is_const_v<P>, const uint8_t*, uint8_t*>;
        return reinterpret_cast<decltype(base)>(reinterpret_cast<B>(base) + byte);
    };
    uint64_t left = m.total;
    for (uint32_t r = 0; r < repeat; ++r) {
        for (uint32_t e = 0; e < per_repeat; ++e) {
            bool on;
            if (m.counter) {
                if (left == 0) return;
                on = true;
            } else {
                on = e < 64 ? ((m.lo >> e) & 1ull) : ((m.hi >> (e - 64)) & 1ull);
            }
            if (!on) continue;
            if (m.counter) --left;
            f(at(d, r, e, sd), a ? at(a, r, e, s0) : nullptr, b ? at(b, r, e, s1) : nullptr);
        }
    }
}

// Counter mode decides the repeat count from the element count.
inline uint32_t counter_repeats(const MaskState& m, uint32_t per_repeat, uint32_t repeat) {
    return m.counter ? static_cast<uint32_t>((m.total + per_repeat - 1) / per_repeat) : repeat;
}

template <typename T> inline void check_count(int64_t count, const char* api, const loc_t& loc) {
    if (count < 0) fail("SIM-COUNT", fmt("%s: count %lld is negative", api, static_cast<long long>(count)), loc,
                        "api_mismatch", api);
}

// -------------------------------------------------------------------------------------- generic families
// Binary: d = f(a, b) computed in calc_t<T>, rounded to T per element. The checks: false when there is nothing to do.
template <typename T>
inline bool binary_count_checks(const char* api, const LocalTensor<T>& dst, const LocalTensor<T>& s0,
                                const LocalTensor<T>& s1, int64_t count, const loc_t& loc) {
    touch(api, loc);
    check_count<T>(count, api, loc);
    if (count == 0) return false;
    uint64_t bytes = uint64_t(count) * sizeof(T);
    check_local(dst, "dst", api, bytes, loc);
    check_local(s0, "src0", api, bytes, loc);
    check_local(s1, "src1", api, bytes, loc);
    return true;
}

template <typename T, typename F>
inline void binary_count(const char* api, const char* cost, const LocalTensor<T>& dst, const LocalTensor<T>& s0,
                         const LocalTensor<T>& s1, int64_t count, F f, const loc_t& loc) {
    if (!binary_count_checks(api, dst, s0, s1, count, loc)) return;
    T* d = dst.addr_;
    const T* a = s0.addr_;
    const T* b = s1.addr_;
    using C = calc_t<T>;
    for (int64_t i = 0; i < count; ++i) d[i] = static_cast<T>(f(static_cast<C>(a[i]), static_cast<C>(b[i])));
    vec_charge(cost_key(cost, cost_kind<T>()), api, repeats_for<T>(uint64_t(count)), dst.slot_, {s0.slot_, s1.slot_}, loc);
}

// The count form of a listed binary op (vec_ops.h): the same checks and charge, the element loop out of line.
template <VecOp Op, typename T>
inline void binary_count_op(const char* api, const char* cost, const LocalTensor<T>& dst, const LocalTensor<T>& s0,
                            const LocalTensor<T>& s1, int64_t count, const loc_t& loc) {
    if (!binary_count_checks(api, dst, s0, s1, count, loc)) return;
    binary_loop<Op, T>(dst.addr_, s0.addr_, s1.addr_, count);
    vec_charge(cost_key(cost, cost_kind<T>()), api, repeats_for<T>(uint64_t(count)), dst.slot_, {s0.slot_, s1.slot_}, loc);
}

template <typename T, typename F, typename R>
inline void binary_repeat(const char* api, const char* cost, const LocalTensor<T>& dst, const LocalTensor<T>& s0,
                          const LocalTensor<T>& s1, MaskArg mask, R repeat_in, const AscendC::BinaryRepeatParams& p,
                          F f, const loc_t& loc) {
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
    check_local(s1, "src1", api, touched_extent(repeat, sb, sizeof(T), m, per), loc);
    using C = calc_t<T>;
    repeat_visit(dst.addr_, s0.addr_, s1.addr_, repeat, sd, sa, sb, m, per,
                 [&](T* d, const T* a, const T* b) { *d = static_cast<T>(f(static_cast<C>(*a), static_cast<C>(*b))); });
    vec_charge(cost_key(cost, cost_kind<T>()), api, repeat, dst.slot_, {s0.slot_, s1.slot_}, loc);
}

// Unary (and tensor-scalar, with the scalar captured in f): d = f(a). The checks: false when there is nothing to do.
template <typename Td, typename Ts>
inline bool unary_count_checks(const char* api, const LocalTensor<Td>& dst, const LocalTensor<Ts>& src, int64_t count,
                               const loc_t& loc, bool reads_src = true) {
    touch(api, loc);
    check_count<Td>(count, api, loc);
    if (count == 0) return false;
    check_local(dst, "dst", api, uint64_t(count) * sizeof(Td), loc);
    check_local(src, reads_src ? "src" : "(fill)", api, uint64_t(count) * sizeof(Ts), loc);
    return true;
}

template <typename Td, typename Ts, typename F>
inline void unary_count(const char* api, const char* cost, const LocalTensor<Td>& dst, const LocalTensor<Ts>& src,
                        int64_t count, F f, const loc_t& loc, bool reads_src = true) {
    if (!unary_count_checks(api, dst, src, count, loc, reads_src)) return;
    Td* d = dst.addr_;
    const Ts* a = src.addr_;
    for (int64_t i = 0; i < count; ++i) d[i] = f(a[i]);
    constexpr size_t wide = sizeof(Td) > sizeof(Ts) ? sizeof(Td) : sizeof(Ts);
    vec_charge(cost_key(cost, cost_kind<Ts>()), api, double((uint64_t(count) * wide + 255) / 256), dst.slot_, {src.slot_}, loc);
}

// The count forms of a listed unary or tensor-scalar op (vec_ops.h): unary_count's checks and charge, the element
// loop out of line.
template <VecOp Op, typename T>
inline void unary_count_op(const char* api, const char* cost, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                           int64_t count, const loc_t& loc) {
    if (!unary_count_checks(api, dst, src, count, loc)) return;
    unary_loop<Op, T>(dst.addr_, src.addr_, count);
    vec_charge(cost_key(cost, cost_kind<T>()), api, repeats_for<T>(uint64_t(count)), dst.slot_, {src.slot_}, loc);
}

template <VecOp Op, typename T>
inline void scalar_count_op(const char* api, const char* cost, const LocalTensor<T>& dst, const LocalTensor<T>& src,
                            calc_t<T> scalar, int64_t count, const loc_t& loc) {
    if (!unary_count_checks(api, dst, src, count, loc)) return;
    scalar_loop<Op, T>(dst.addr_, src.addr_, scalar, count);
    vec_charge(cost_key(cost, cost_kind<T>()), api, repeats_for<T>(uint64_t(count)), dst.slot_, {src.slot_}, loc);
}

template <typename Td, typename Ts, typename F, typename R>
inline void unary_repeat(const char* api, const char* cost, const LocalTensor<Td>& dst, const LocalTensor<Ts>& src,
                         MaskArg mask, R repeat_in, Stride sd, Stride ss, F f, const loc_t& loc, bool reads_src = true) {
    touch(api, loc);
    uint32_t repeat = check_repeat(repeat_in, api, loc);
    constexpr uint32_t per = 256 / (sizeof(Td) > sizeof(Ts) ? sizeof(Td) : sizeof(Ts));
    check_mask(mask, per, api, loc);
    MaskState m = resolve_mask(mask);
    repeat = counter_repeats(m, per, repeat);
    if (repeat == 0) return;
    check_local(dst, "dst", api, touched_extent(repeat, sd, sizeof(Td), m, per), loc);
    check_local(src, reads_src ? "src" : "(fill)", api, touched_extent(repeat, ss, sizeof(Ts), m, per), loc);
    repeat_visit(dst.addr_, src.addr_, static_cast<const Ts*>(nullptr), repeat, sd, ss, ss, m, per,
                 [&](Td* d, const Ts* a, const Ts*) { *d = f(*a); });
    vec_charge(cost_key(cost, cost_kind<Ts>()), api, repeat, dst.slot_, {src.slot_}, loc);
}

template <typename T> inline MaskArg mask_count(uint64_t n, bool set = true) { return MaskArg{false, set, n, 0}; }
inline MaskArg mask_bits(const uint64_t m[], bool set = true) { return MaskArg{true, set, m[0], m[1]}; }

}  // namespace akgen_sim
