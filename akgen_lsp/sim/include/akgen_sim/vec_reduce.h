// akgen sim: reductions, as the A2/A3 (dav_c220) hardware does them.
//
// - ReduceSum/ReduceMax/ReduceMin(dst, src, sharedTmpBuffer, count[, calIndex]) and the mask + repeat forms
//   (mask, repeatTime up to INT32_MAX, srcRepStride[, calIndex]). dst = [value] or [value, index] where the index is
//   stored in the bits of a T (half: a uint16_t, float: a uint32_t; read it with reinterpret_cast), the smallest index
//   among equal extremes. sharedTmpBuffer is checked against the documented size formulas (ReduceMax/Min both forms,
//   ReduceSum repeat form); the count form of ReduceSum does not use it.
// - WholeReduceSum/Max/Min (CANN 9.1: ReduceRepeat<ReduceType>): one result per repeat; for MAX/MIN `order` picks
//   [value, index] / [index, value] / value / index, the index of ORDER_ONLY_INDEX being a uint32_t; dstRepStride counts
//   2 B (half SUM / ONLY_VALUE), 4 B (half pairs, ONLY_INDEX, float SUM / ONLY_VALUE) or 8 B (float pairs), which is
//   also the alignment dst needs.
// - BlockReduceSum/Max/Min (ReduceDataBlock, mask and repeatTime swapped): one result per 32 B block, 8 per repeat; a
//   block with no enabled element keeps dst. dst alignment: 16 B (half), 32 B (float).
// - PairReduceSum (ReducePairElem<ReduceType::SUM>): sums of adjacent pairs, 128 B of results per repeat.
// - mask 0 or repeatTime 0: nothing is computed, dst is not written (documented NOP).
// Precision and order (documented): sums add adjacent pairs in a binary tree within a repeat / block (vcadd, vcgadd),
// every addition rounding to T (half and bfloat16_t compute in float and round once per add, like every other half
// op). The count form of ReduceSum adds the per-repeat results in order (A2/A3 "mode 1"); the mask + repeat form
// reduces them again in trees of one repeat each ("mode 2"). Max/min are exact.
#pragma once

#include "vec_cmpsel.h"

namespace AscendC {
enum class ReduceOrder : uint8_t { ORDER_VALUE_INDEX = 0, ORDER_INDEX_VALUE, ORDER_ONLY_VALUE, ORDER_ONLY_INDEX };
}

namespace akgen_sim {

enum class Red { SUM, MAX, MIN };

// The special registers the reductions leave behind (per core): MAX_MIN_CNT (value bits in the low 32, the index in
// the high 32; read by GetReduceRepeatMaxMinSpr / GetReduceMaxMinCount) and ACC_VAL (the sum of the count form of
// ReduceSum; GetReduceRepeatSumSpr / GetAccVal).
struct ReduceSpr {
    uint64_t& maxmin;
    uint64_t& acc;
};
inline ReduceSpr reduce_spr() { return ReduceSpr{ctx().spr_maxmin, ctx().spr_acc}; }
template <typename T> inline void set_maxmin(T v, uint32_t idx) {
    uint32_t bits = 0;
    std::memcpy(&bits, &v, sizeof(T) < 4 ? sizeof(T) : 4);
    reduce_spr().maxmin = (uint64_t(idx) << 32) | bits;
}

template <typename T> inline constexpr bool red_dtype_ok = std::is_same_v<T, half> || std::is_same_v<T, float>;

// A destination that needs only `align` bytes of alignment (reduction results).
template <typename T>
inline void check_dst_align(const AscendC::LocalTensor<T>& t, const char* api, uint64_t bytes, uint32_t align,
                            const loc_t& loc) {
    t.check_live(api, "dst", loc);
    BlockCtx& c = ctx();
    const uint8_t* a = reinterpret_cast<const uint8_t*>(t.addr_);
    if (!AscendC::is_ub_position(t.pos_)) {
        fail("SIM-POSITION", fmt("%s: the dst tensor is not in UB (its position is not VECIN, VECOUT or VECCALC)", api),
             loc, "api_mismatch", api);
    }
    uint64_t off = static_cast<uint64_t>(a - c.ub);
    if (a < c.ub || off + bytes > cfg().ub_bytes) {
        fail("SIM-UB-OOB", fmt("%s: the ub address out of bounds (dst tensor at UB offset %lld, %llu bytes)", api,
                               static_cast<long long>(a - c.ub), static_cast<unsigned long long>(bytes)),
             loc, "memory", api);
    }
    if (off % align != 0) {
        fail("SIM-UB-ALIGN", fmt("Failed to check dst tensor address alignment in %s, current tensor address is %llu, "
                                 "which should be %u byte aligned.", api, static_cast<unsigned long long>(off), align),
             loc, "memory", api);
    }
    uint64_t have = uint64_t(t.size_) * sizeof(T);
    if (bytes > have) {
        cpu_debug_check("SIM-UB-SIZE", fmt("Failed to check dst size in %s, tensor size needs to be at least %llu "
                                           "bytes, while current tensor size is only %llu bytes.", api,
                                           static_cast<unsigned long long>(bytes),
                                           static_cast<unsigned long long>(have)), loc, "memory", api);
    }
}

template <typename T> inline calc_t<T> round_to(calc_t<T> x) { return static_cast<calc_t<T>>(static_cast<T>(x)); }

// Adjacent-pair binary tree over v[0..n) (n a power of two), rounding each add to T.
template <typename T> inline calc_t<T> tree_sum(calc_t<T>* v, uint32_t n) {
    while (n > 1) {
        for (uint32_t i = 0; i < n / 2; ++i) v[i] = round_to<T>(v[2 * i] + v[2 * i + 1]);
        n /= 2;
    }
    return v[0];
}

template <typename T> inline void store_index(T* p, uint32_t idx, bool as_u32 = false) {
    if (as_u32 || sizeof(T) == 4) {
        std::memcpy(p, &idx, 4);
    } else {
        uint16_t v = static_cast<uint16_t>(idx);
        std::memcpy(p, &v, 2);
    }
}

// Reading the source of the repeat forms: element e of repeat r.
template <typename T> inline const T* rep_elem(const T* base, uint32_t r, uint32_t e, Stride st) {
    constexpr uint32_t per_blk = 32 / sizeof(T);
    return reinterpret_cast<const T*>(reinterpret_cast<const uint8_t*>(base) + uint64_t(r) * st.rep * 32 +
                                      uint64_t(e / per_blk) * st.blk * 32) + e % per_blk;
}

// Which elements of repeat r are enabled (normal: mask bits; counter: the first `left` elements overall).
inline bool rep_on(const MaskState& m, uint32_t e, uint64_t& left) {
    if (m.counter) {
        if (left == 0) return false;
        --left;
        return true;
    }
    return e < 64 ? ((m.lo >> e) & 1ull) : ((m.hi >> (e - 64)) & 1ull);
}

inline bool mask_is_zero(const MaskArg& m) { return m.set && !ctx().mask_counter && m.lo == 0 && (!m.bits || m.hi == 0); }

// A repeat form that computes nothing: mask 0 in normal mode, or repeatTime 0 in normal mode. In counter mode
// (SetMaskCount) the hardware derives the repeat count from the element count, so repeatTime is a placeholder there
// (the samples pass 0) and never makes the call a no-op.
inline bool repeat_noop(uint64_t repeat, const MaskArg& m) {
    return (repeat == 0 && !ctx().mask_counter) || mask_is_zero(m);
}

// One repeat reduced: sum (tree), or extreme value and its in-repeat index. Returns false if no element was enabled.
template <typename T>
inline bool reduce_one(Red kind, const T* src, uint32_t r, Stride ss, const MaskState& m, uint64_t& left,
                       calc_t<T>& val, uint32_t& idx) {
    using C = calc_t<T>;
    constexpr uint32_t per = 256 / sizeof(T);
    C v[per];
    bool any = false;
    idx = 0;
    for (uint32_t e = 0; e < per; ++e) {
        bool on = rep_on(m, e, left);
        C x = on ? static_cast<C>(*rep_elem(src, r, e, ss)) : C(0);
        v[e] = x;
        if (!on) continue;
        if (kind != Red::SUM && (!any || (kind == Red::MAX ? x > val : x < val))) {
            val = x;
            idx = e;
        }
        any = true;
    }
    if (kind == Red::SUM) val = tree_sum<T>(v, per);
    return any;
}

// Documented sharedTmpBuffer size (elements) of ReduceMax/ReduceMin and the repeat form of ReduceSum.
inline uint64_t reduce_tmp_elems(Red kind, uint64_t first_repeat, uint32_t per, uint32_t per_blk, bool with_index) {
    auto up = [](uint64_t a, uint64_t b) { return (a + b - 1) / b; };
    if (kind == Red::SUM) return up(first_repeat, per_blk) * per_blk;
    uint64_t it1 = first_repeat * 2;
    if (!with_index) return up(it1, per_blk) * per_blk;
    uint64_t start2 = up(it1, per_blk) * per_blk;
    uint64_t out2 = up(it1, per) * 2;
    uint64_t end2 = up(out2, per_blk) * per_blk;
    if (out2 <= 2) return start2 + end2;
    uint64_t out3 = up(out2, per) * 2;
    return start2 + end2 + up(out3, per_blk) * per_blk;
}

// ReduceSum/Max/Min: count form (counter mode over `count`) or mask + repeat form (`repeat` >= 0).
template <typename T>
inline void reduce_all(const char* api, Red kind, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                       const AscendC::LocalTensor<T>& tmp, bool count_form, int64_t count, MaskArg mask, int64_t repeat,
                       uint32_t src_rep, bool calIndex, const loc_t& loc) {
    touch(api, loc);
    using C = calc_t<T>;
    constexpr uint32_t per = 256 / sizeof(T);
    constexpr uint32_t per_blk = 32 / sizeof(T);
    MaskState m{};
    Stride ss{1, src_rep};
    uint64_t repeats;
    if (count_form) {
        check_count<T>(count, api, loc);
        if (count == 0) return;
        m = MaskState{true, 0, 0, uint64_t(count)};
        ss = Stride{1, 8};
        repeats = (uint64_t(count) + per - 1) / per;
        check_local(src, "src", api, uint64_t(count) * sizeof(T), loc);
    } else {
        if (repeat < 0) {
            fail("SIM-REPEAT", fmt("%s: repeatTime %lld is negative", api, static_cast<long long>(repeat)), loc,
                 "api_mismatch", api);
        }
        if (repeat_noop(uint64_t(repeat), mask)) return;
        check_mask(mask, per, api, loc);
        m = resolve_mask(mask);
        repeats = counter_repeats(m, per, static_cast<uint32_t>(repeat));
        if (!m.counter) repeats = uint64_t(repeat);
        check_local(src, "src", api, touched_extent(static_cast<uint32_t>(std::min<uint64_t>(repeats, 0xFFFFFFFFull)),
                                                    ss, sizeof(T), m, per), loc);
    }
    uint64_t first = count_form ? std::max<uint64_t>(uint64_t(count) / per, 1) : repeats;
    if (kind != Red::SUM || !count_form) {
        check_local(tmp, "sharedTmpBuffer", api, reduce_tmp_elems(kind, first, per, per_blk, calIndex) * sizeof(T), loc);
    }
    bool with_idx = kind != Red::SUM && calIndex;
    check_dst_align(dst, api, (with_idx ? 2 : 1) * sizeof(T), with_idx ? 2 * sizeof(T) : sizeof(T), loc);
    uint64_t left = m.total;
    C best = C(0), acc = C(0);
    uint64_t best_idx = 0;
    bool have = false;
    std::vector<C> parts;
    if (kind == Red::SUM && !count_form) parts.reserve(repeats);
    for (uint64_t r = 0; r < repeats; ++r) {
        C v{};
        uint32_t e = 0;
        bool any = reduce_one(kind, src.addr_, static_cast<uint32_t>(r), ss, m, left, v, e);
        if (kind == Red::SUM) {
            if (count_form) acc = r == 0 ? v : round_to<T>(acc + v);
            else parts.push_back(v);
        } else if (any && (!have || (kind == Red::MAX ? v > best : v < best))) {
            best = v;
            best_idx = r * per + e;
            have = true;
        }
    }
    if (kind == Red::SUM) {
        if (!count_form) {
            // the per-repeat sums are reduced again, one repeat (per elements) at a time
            while (parts.size() > 1) {
                std::vector<C> next;
                for (size_t i = 0; i < parts.size(); i += per) {
                    C v[per] = {};
                    for (size_t j = 0; j < per && i + j < parts.size(); ++j) v[j] = parts[i + j];
                    next.push_back(tree_sum<T>(v, per));
                }
                parts.swap(next);
            }
            acc = parts.empty() ? C(0) : parts[0];
        }
        dst.addr_[0] = static_cast<T>(acc);
        if (count_form) {
            T v = static_cast<T>(acc);
            reduce_spr().acc = 0;
            std::memcpy(&reduce_spr().acc, &v, sizeof(T));
        }
    } else {
        dst.addr_[0] = static_cast<T>(best);
        if (calIndex) store_index(dst.addr_ + 1, static_cast<uint32_t>(best_idx));
        set_maxmin(static_cast<T>(best), static_cast<uint32_t>(best_idx));
    }
    // first pass over the data, then the passes over the partial results
    double passes = double(repeats) + double((repeats + per - 1) / per);
    vec_charge(kind == Red::SUM ? "whole_reduce_sum" : kind == Red::MAX ? "whole_reduce_max" : "whole_reduce_min", api,
               passes, dst.slot_, {src.slot_, tmp.slot_}, loc);
}

template <typename T, typename R>
inline void whole_reduce(const char* api, Red kind, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                         MaskArg mask, R repeat_in, int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride,
                         AscendC::ReduceOrder order, const loc_t& loc) {
    touch(api, loc);
    uint32_t repeat = check_repeat(repeat_in, api, loc);
    constexpr uint32_t per = 256 / sizeof(T);
    if (repeat_noop(uint64_t(repeat), mask)) return;
    check_mask(mask, per, api, loc);
    MaskState m = resolve_mask(mask);
    repeat = counter_repeats(m, per, repeat);
    if (repeat == 0) return;
    using O = AscendC::ReduceOrder;
    Stride ss{static_cast<uint32_t>(srcBlkStride), static_cast<uint32_t>(srcRepStride)};
    uint32_t unit_bytes = kind == Red::SUM || order == O::ORDER_ONLY_VALUE ? sizeof(T)
                          : order == O::ORDER_ONLY_INDEX ? 4u : 2u * sizeof(T);
    check_local(src, "src", api, touched_extent(repeat, ss, sizeof(T), m, per), loc);
    check_dst_align(dst, api, uint64_t(repeat - 1) * uint32_t(dstRepStride) * unit_bytes + unit_bytes, unit_bytes, loc);
    uint64_t left = m.total;
    calc_t<T> best{};
    uint64_t best_idx = 0;
    bool have = false;
    for (uint32_t r = 0; r < repeat; ++r) {
        calc_t<T> v{};
        uint32_t idx = 0;
        bool any = reduce_one(kind, src.addr_, r, ss, m, left, v, idx);
        if (kind != Red::SUM && any && (!have || (kind == Red::MAX ? v > best : v < best))) {
            best = v;
            best_idx = uint64_t(r) * per + idx;
            have = true;
        }
        T* out = reinterpret_cast<T*>(reinterpret_cast<uint8_t*>(dst.addr_) + uint64_t(r) * uint32_t(dstRepStride) * unit_bytes);
        if (kind == Red::SUM || order == O::ORDER_ONLY_VALUE) {
            out[0] = static_cast<T>(v);
        } else if (order == O::ORDER_ONLY_INDEX) {
            store_index(out, idx, true);
        } else if (order == O::ORDER_INDEX_VALUE) {
            store_index(out, idx);
            out[1] = static_cast<T>(v);
        } else {
            out[0] = static_cast<T>(v);
            store_index(out + 1, idx);
        }
    }
    if (kind != Red::SUM && have) set_maxmin(static_cast<T>(best), static_cast<uint32_t>(best_idx));
    vec_charge(kind == Red::SUM ? "whole_reduce_sum" : kind == Red::MAX ? "whole_reduce_max" : "whole_reduce_min", api,
               repeat, dst.slot_, {src.slot_}, loc);
}

template <typename T, typename R>
inline void block_reduce(const char* api, Red kind, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                         R repeat_in, MaskArg mask, int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride,
                         const loc_t& loc) {
    touch(api, loc);
    uint32_t repeat = check_repeat(repeat_in, api, loc);
    constexpr uint32_t per = 256 / sizeof(T);
    constexpr uint32_t per_blk = 32 / sizeof(T);
    if (repeat_noop(uint64_t(repeat), mask)) return;
    check_mask(mask, per, api, loc);
    MaskState m = resolve_mask(mask);
    repeat = counter_repeats(m, per, repeat);
    if (repeat == 0) return;
    Stride ss{static_cast<uint32_t>(srcBlkStride), static_cast<uint32_t>(srcRepStride)};
    check_local(src, "src", api, touched_extent(repeat, ss, sizeof(T), m, per), loc);
    check_dst_align(dst, api, (uint64_t(repeat - 1) * uint32_t(dstRepStride) * 8 + 8) * sizeof(T), 8 * sizeof(T), loc);
    uint64_t left = m.total;
    using C = calc_t<T>;
    for (uint32_t r = 0; r < repeat; ++r) {
        T* out = dst.addr_ + uint64_t(r) * uint32_t(dstRepStride) * 8;
        for (uint32_t b = 0; b < 8; ++b) {
            C v[per_blk];
            bool any = false;
            C best{};
            for (uint32_t k = 0; k < per_blk; ++k) {
                uint32_t e = b * per_blk + k;
                bool on = rep_on(m, e, left);
                C x = on ? static_cast<C>(*rep_elem(src.addr_, r, e, ss)) : C(0);
                v[k] = x;
                if (on && (!any || (kind == Red::MAX ? x > best : x < best))) best = x;
                any = any || on;
            }
            if (!any) continue;  // a block with no enabled element keeps dst
            out[b] = static_cast<T>(kind == Red::SUM ? tree_sum<T>(v, per_blk) : best);
        }
    }
    vec_charge(kind == Red::SUM ? "block_reduce_sum" : kind == Red::MAX ? "block_reduce_max" : "block_reduce_min", api,
               repeat, dst.slot_, {src.slot_}, loc);
}

template <typename T, typename R>
inline void pair_reduce(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                        R repeat_in, MaskArg mask, int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride,
                        const loc_t& loc) {
    touch(api, loc);
    uint32_t repeat = check_repeat(repeat_in, api, loc);
    constexpr uint32_t per = 256 / sizeof(T);
    if (repeat_noop(uint64_t(repeat), mask)) return;
    check_mask(mask, per, api, loc);
    MaskState m = resolve_mask(mask);
    repeat = counter_repeats(m, per, repeat);
    if (repeat == 0) return;
    Stride ss{static_cast<uint32_t>(srcBlkStride), static_cast<uint32_t>(srcRepStride)};
    check_local(src, "src", api, touched_extent(repeat, ss, sizeof(T), m, per), loc);
    // dst: repeats dstRepStride x (per / 2) results apart; the last repeat writes only up to the last enabled pair
    // (CANN's CheckPairReduceDstSize counts maskLen / 2 results there; counter mode: full repeats, then the tail)
    {
        const uint64_t step = uint64_t(uint32_t(dstRepStride)) * (per / 2);
        uint64_t need;
        if (m.counter) {
            const uint64_t full = m.total / per, tail = m.total % per;
            need = full ? (full - 1) * step + per / 2 : 0;
            if (tail) need = std::max<uint64_t>(need, full * step + (tail + 1) / 2);
        } else {
            need = uint64_t(repeat - 1) * step + (mask_length(m, per) + 1) / 2;
        }
        check_local(dst, "dst", api, need * sizeof(T), loc);
    }
    uint64_t left = m.total;
    using C = calc_t<T>;
    for (uint32_t r = 0; r < repeat; ++r) {
        T* out = dst.addr_ + uint64_t(r) * uint32_t(dstRepStride) * (per / 2);
        for (uint32_t i = 0; i < per / 2; ++i) {
            bool on0 = rep_on(m, 2 * i, left);
            bool on1 = rep_on(m, 2 * i + 1, left);
            if (!on0 && !on1) continue;  // a pair with no enabled element keeps dst
            C a = on0 ? static_cast<C>(*rep_elem(src.addr_, r, 2 * i, ss)) : C(0);
            C b = on1 ? static_cast<C>(*rep_elem(src.addr_, r, 2 * i + 1, ss)) : C(0);
            out[i] = static_cast<T>(a + b);
        }
    }
    vec_charge("block_reduce_sum", api, repeat, dst.slot_, {src.slot_}, loc);
}

template <AscendC::ReduceType t> inline constexpr Red red_of =
    t == AscendC::ReduceType::SUM ? Red::SUM : t == AscendC::ReduceType::MAX ? Red::MAX : Red::MIN;

}  // namespace akgen_sim

namespace AscendC {

// Dtype checks run when the call runs (CANN checks them with ASCENDC_ASSERT).
#define AKGEN_RED_DTYPE(NAME)                                                                                          \
    if constexpr (!::akgen_sim::red_dtype_ok<T>) {                                                                     \
        ::akgen_sim::fail("SIM-DTYPE", "Failed to check dtype in " NAME ", current api support dtype combination is "  \
                          "half, float", loc, "dtype", NAME);                                                          \
    }

// ------------------------------------------------------------------------------- ReduceSum / ReduceMax / ReduceMin
template <typename T, bool isSetMask = true>
inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,
                      const int32_t count, AKGEN_LOC) {
    AKGEN_RED_DTYPE("ReduceSum");
    ::akgen_sim::reduce_all("ReduceSum", ::akgen_sim::Red::SUM, dst, src, sharedTmpBuffer, true, count, {}, 0, 8, false,
                            loc);
}
template <typename T>
inline void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,
                      const int32_t count, bool calIndex = 0, AKGEN_LOC) {
    AKGEN_RED_DTYPE("ReduceMax");
    ::akgen_sim::reduce_all("ReduceMax", ::akgen_sim::Red::MAX, dst, src, sharedTmpBuffer, true, count, {}, 0, 8,
                            calIndex, loc);
}
template <typename T>
inline void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,
                      const int32_t count, bool calIndex = 0, AKGEN_LOC) {
    AKGEN_RED_DTYPE("ReduceMin");
    ::akgen_sim::reduce_all("ReduceMin", ::akgen_sim::Red::MIN, dst, src, sharedTmpBuffer, true, count, {}, 0, 8,
                            calIndex, loc);
}

// mask + repeat forms (mask: a continuous count or uint64_t mask[2]).
#define AKGEN_REDUCE_REPEAT(NAME, KIND, IDX_PARAM, IDX_ARG)                                                            \
    template <typename T>                                                                                              \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,     \
                     const int32_t mask, const int32_t repeatTime, const int32_t srcRepStride IDX_PARAM, AKGEN_LOC) {  \
        AKGEN_RED_DTYPE(#NAME);                                                                                        \
        ::akgen_sim::reduce_all(#NAME, KIND, dst, src, sharedTmpBuffer, false, 0,                                      \
                                ::akgen_sim::to_mask(static_cast<uint64_t>(mask), true), repeatTime,                   \
                                static_cast<uint32_t>(srcRepStride), IDX_ARG, loc);                                    \
    }                                                                                                                  \
    template <typename T>                                                                                              \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,     \
                     const uint64_t mask[], const int32_t repeatTime, const int32_t srcRepStride IDX_PARAM, AKGEN_LOC) {\
        AKGEN_RED_DTYPE(#NAME);                                                                                        \
        ::akgen_sim::reduce_all(#NAME, KIND, dst, src, sharedTmpBuffer, false, 0, ::akgen_sim::to_mask(mask, true),   \
                                repeatTime, static_cast<uint32_t>(srcRepStride), IDX_ARG, loc);                        \
    }
#define AKGEN_COMMA ,
AKGEN_REDUCE_REPEAT(ReduceSum, ::akgen_sim::Red::SUM, , false)
AKGEN_REDUCE_REPEAT(ReduceMax, ::akgen_sim::Red::MAX, AKGEN_COMMA bool calIndex = 0, calIndex)
AKGEN_REDUCE_REPEAT(ReduceMin, ::akgen_sim::Red::MIN, AKGEN_COMMA bool calIndex = 0, calIndex)
#undef AKGEN_COMMA
#undef AKGEN_REDUCE_REPEAT

// ------------------------------------------------------------------------------------- WholeReduce / ReduceRepeat
#define AKGEN_WHOLE_REDUCE(NAME, KIND, ORDER_PARAM, ORDER_ARG)                                                         \
    template <typename T, bool isSetMask = true, typename M, typename R,                                              \
              std::enable_if_t<std::is_integral_v<R>, int> = 0>                                                        \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const M& mask, R repeatTime,               \
                     const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride ORDER_PARAM,   \
                     AKGEN_LOC) {                                                                                      \
        AKGEN_RED_DTYPE(#NAME);                                                                                        \
        ::akgen_sim::whole_reduce(#NAME, KIND, dst, src, ::akgen_sim::to_mask(mask, isSetMask), repeatTime,          \
                                  dstRepStride, srcBlkStride, srcRepStride, ORDER_ARG, loc);                           \
    }
#define AKGEN_COMMA ,
AKGEN_WHOLE_REDUCE(WholeReduceSum, ::akgen_sim::Red::SUM, , ReduceOrder::ORDER_ONLY_VALUE)
AKGEN_WHOLE_REDUCE(WholeReduceMax, ::akgen_sim::Red::MAX,
                   AKGEN_COMMA ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX, order)
AKGEN_WHOLE_REDUCE(WholeReduceMin, ::akgen_sim::Red::MIN,
                   AKGEN_COMMA ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX, order)
#undef AKGEN_COMMA
#undef AKGEN_WHOLE_REDUCE

// ------------------------------------------------------------------------------------ BlockReduce / PairReduceSum
#define AKGEN_BLOCK_REDUCE(NAME, KIND)                                                                                 \
    template <typename T, bool isSetMask = true, typename M, typename R,                                              \
              std::enable_if_t<std::is_integral_v<R>, int> = 0>                                                        \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, R repeatTime, const M& mask,               \
                     const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride, AKGEN_LOC) {  \
        AKGEN_RED_DTYPE(#NAME);                                                                                        \
        ::akgen_sim::block_reduce(#NAME, KIND, dst, src, repeatTime, ::akgen_sim::to_mask(mask, isSetMask),          \
                                  dstRepStride, srcBlkStride, srcRepStride, loc);                                      \
    }
AKGEN_BLOCK_REDUCE(BlockReduceSum, ::akgen_sim::Red::SUM)
AKGEN_BLOCK_REDUCE(BlockReduceMax, ::akgen_sim::Red::MAX)
AKGEN_BLOCK_REDUCE(BlockReduceMin, ::akgen_sim::Red::MIN)
#undef AKGEN_BLOCK_REDUCE

template <typename T, bool isSetMask = true, typename M, typename R, std::enable_if_t<std::is_integral_v<R>, int> = 0>
inline void PairReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, R repeatTime, const M& mask,
                          const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride, AKGEN_LOC) {
    AKGEN_RED_DTYPE("PairReduceSum");
    ::akgen_sim::pair_reduce("PairReduceSum", dst, src, repeatTime, ::akgen_sim::to_mask(mask, isSetMask), dstRepStride,
                             srcBlkStride, srcRepStride, loc);
}

// ---------------------------------------------------------------------------------------------- CANN 9.1 names
template <ReduceType reduceType, typename T, typename U = T, bool isSetMask = true, typename M, typename R,
          std::enable_if_t<std::is_integral_v<R>, int> = 0>
inline void ReduceRepeat(const LocalTensor<T>& dst, const LocalTensor<U>& src, const M& mask, R repeatTime,
                         const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride,
                         ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX, AKGEN_LOC) {
    static_assert(std::is_same_v<T, U>, "ReduceRepeat: src and dst must have the same data type on this arch");
    AKGEN_RED_DTYPE("ReduceRepeat");
    ::akgen_sim::whole_reduce("ReduceRepeat", ::akgen_sim::red_of<reduceType>, dst, src,
                              ::akgen_sim::to_mask(mask, isSetMask), repeatTime, dstRepStride, srcBlkStride,
                              srcRepStride, reduceType == ReduceType::SUM ? ReduceOrder::ORDER_ONLY_VALUE : order, loc);
}
template <ReduceType reduceType, typename T, typename U = T, bool isSetMask = true, typename M, typename R,
          std::enable_if_t<std::is_integral_v<R>, int> = 0>
inline void ReduceDataBlock(const LocalTensor<T>& dst, const LocalTensor<U>& src, const M& mask, R repeatTime,
                            const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride,
                            AKGEN_LOC) {
    static_assert(std::is_same_v<T, U>, "ReduceDataBlock: src and dst must have the same data type on this arch");
    AKGEN_RED_DTYPE("ReduceDataBlock");
    ::akgen_sim::block_reduce("ReduceDataBlock", ::akgen_sim::red_of<reduceType>, dst, src, repeatTime,
                              ::akgen_sim::to_mask(mask, isSetMask), dstRepStride, srcBlkStride, srcRepStride, loc);
}
template <ReduceType reduceType = ReduceType::SUM, typename T, typename U = T, bool isSetMask = true, typename M,
          typename R, std::enable_if_t<std::is_integral_v<R>, int> = 0>
inline void ReducePairElem(const LocalTensor<T>& dst, const LocalTensor<U>& src, const M& mask, R repeatTime,
                           const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride, AKGEN_LOC) {
    static_assert(reduceType == ReduceType::SUM, "ReducePairElem supports ReduceType::SUM only");
    static_assert(std::is_same_v<T, U>, "ReducePairElem: src and dst must have the same data type on this arch");
    AKGEN_RED_DTYPE("ReducePairElem");
    ::akgen_sim::pair_reduce("ReducePairElem", dst, src, repeatTime, ::akgen_sim::to_mask(mask, isSetMask),
                             dstRepStride, srcBlkStride, srcRepStride, loc);
}

#undef AKGEN_RED_DTYPE

// ------------------------------------------------------------------------------------ the reduction registers
// MAX_MIN_CNT after ReduceRepeat<MAX/MIN> / WholeReduceMax/Min (the extreme over all repeats and its index into the
// source, the first one on ties) or ReduceMax/ReduceMin. The T overload returns the index's bits in a T, as CANN does.
template <typename T> inline void GetReduceRepeatMaxMinSpr(T& maxMinValue, T& maxMinIndex) {
    uint64_t r = ::akgen_sim::reduce_spr().maxmin;
    uint32_t v = static_cast<uint32_t>(r & (sizeof(T) == 2 ? 0xffffu : 0xffffffffu)), i = static_cast<uint32_t>(r >> 32);
    std::memcpy(&maxMinValue, &v, sizeof(T) < 4 ? sizeof(T) : 4);
    std::memcpy(&maxMinIndex, &i, sizeof(T) < 4 ? sizeof(T) : 4);
    ::akgen_sim::charge_scalar();
}
template <typename T> inline void GetReduceRepeatMaxMinSpr(uint32_t& maxMinValue, uint32_t& maxMinIndex) {
    uint64_t r = ::akgen_sim::reduce_spr().maxmin;
    maxMinValue = static_cast<uint32_t>(r & (sizeof(T) == 2 ? 0xffffu : 0xffffffffu));
    maxMinIndex = static_cast<uint32_t>(r >> 32);
    ::akgen_sim::charge_scalar();
}
template <typename T> inline void GetReduceRepeatMaxMinSpr(T& maxMinValue) {
    T idx;
    GetReduceRepeatMaxMinSpr<T>(maxMinValue, idx);
}
template <typename T> inline void GetReduceMaxMinCount(T& maxMinValue, T& maxMinIndex) {
    GetReduceRepeatMaxMinSpr<T>(maxMinValue, maxMinIndex);
}
template <typename T> inline void GetReduceMaxMinCount(uint32_t& maxMinValue, uint32_t& maxMinIndex) {
    GetReduceRepeatMaxMinSpr<T>(maxMinValue, maxMinIndex);
}
template <typename T> inline void GetReduceMaxMinCount(T& maxMinValue) { GetReduceRepeatMaxMinSpr<T>(maxMinValue); }
// ACC_VAL after the count form of ReduceSum.
template <typename T> inline T GetReduceRepeatSumSpr() {
    T v;
    std::memcpy(&v, &::akgen_sim::reduce_spr().acc, sizeof(T) < 8 ? sizeof(T) : 8);
    ::akgen_sim::charge_scalar();
    return v;
}
template <typename T> inline T GetAccVal() { return GetReduceRepeatSumSpr<T>(); }

}  // namespace AscendC
