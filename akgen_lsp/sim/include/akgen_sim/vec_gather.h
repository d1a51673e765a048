// akgen sim: Gather and GatherMask (basic_api/kernel_operator_vec_gather_intf.h, kernel_operator_vec_gather_mask_intf.h)
// as on A2/A3.
//
// Gather(dst, src, srcOffset, srcBaseAddr, count | mask, repeatTime, dstRepStride): dst[i] = the element of src at
// byte srcBaseAddr + srcOffset[i] (offsets in bytes, a multiple of sizeof(T), inside UB). The hardware gathers one
// 256-byte repeat of dst at a time, so the simulator reads a repeat's elements before writing them. src and dst at the
// same address are outside the documented use ("不支持源操作数与目的操作数使用同一块内存地址"): a warning, computed
// repeat by repeat as above.
//
// GatherMask(dst, src0, src1Pattern, reduceMode, mask, GatherMaskParams, rsvdCnt): the elements of src0 whose pattern
// bit is 1 are packed into dst in order; rsvdCnt (and GetGatherMaskRemainCount) is how many. The pattern is a tensor of
// uint16_t / uint32_t (bit e of the repeat, LSB first, repeat r's bits starting r * src1RepeatStride blocks in) or one
// of the built-in patterns 1-7 (even, odd, 1st/2nd/3rd/4th of every 4, all). reduceMode false: repeatTimes repeats of
// 256 bytes of src0 (src0BlockStride / src0RepeatStride in 32-byte blocks); true (counter mode, A2/A3 "configuration
// one"): each repeat takes `mask` elements, the pattern consumed contiguously within the repeat. Afterwards the vector
// mask is in normal mode (the library calls SetMaskNorm), holding (0, mask) in counter mode.
#pragma once

#include <vector>

#include "vec_engine.h"

namespace AscendC {

struct GatherMaskParams {
    GatherMaskParams() {}
    GatherMaskParams(const uint8_t src0BlockStrideIn, const uint16_t repeatTimesIn, const uint16_t src0RepeatStrideIn,
                     const uint8_t src1RepeatStrideIn)
        : src0BlockStride(src0BlockStrideIn), repeatTimes(repeatTimesIn), src0RepeatStride(src0RepeatStrideIn),
          src1RepeatStride(src1RepeatStrideIn) {}
    uint8_t src0BlockStride = 1;
    uint16_t repeatTimes = 0;
    uint16_t src0RepeatStride = 8;
    uint8_t src1RepeatStride = 1;
};
enum class GatherMaskMode : uint8_t { VERSION_V1 = 0, VERSION_V2 = 1 };
constexpr GatherMaskMode defaultGatherMaskMode = GatherMaskMode::VERSION_V1;

}  // namespace AscendC

namespace akgen_sim {

inline uint64_t& rsvd_cnt() {
    static thread_local uint64_t n = 0;
    return n;
}

template <typename T>
inline void gather_impl(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                        const AscendC::LocalTensor<uint32_t>& off, uint32_t base, bool count_form, uint64_t count,
                        MaskArg mask, uint32_t repeat, uint32_t dst_rep, const loc_t& loc) {
    const char* api = "Gather";
    touch(api, loc);
    static_assert(one_of_v<T, int16_t, uint16_t, half, bfloat16_t, int32_t, uint32_t, float>,
                  "Failed to check dtype in Gather, current api support dtype combination is src and dst both: "
                  "int16_t / uint16_t / half / bfloat16_t / int32_t / uint32_t / float.");
    constexpr uint32_t per = 256 / sizeof(T);
    constexpr uint32_t per_blk = 32 / sizeof(T);
    // (dst element pointer, offset index) of every gathered element, repeat by repeat
    std::vector<std::vector<std::pair<T*, uint64_t>>> reps;
    uint64_t n_off = 0;
    if (count_form) {
        if (count == 0) return;
        check_local(dst, "dst", api, count * sizeof(T), loc);
        for (uint64_t i = 0; i < count; i += per) {
            std::vector<std::pair<T*, uint64_t>> r;
            for (uint64_t j = i; j < count && j < i + per; ++j) r.push_back({dst.addr_ + j, j});
            reps.push_back(std::move(r));
        }
        n_off = count;
    } else {
        if (repeat_noop(repeat, mask)) return;
        check_mask(mask, per, api, loc);
        MaskState m = resolve_mask(mask);
        repeat = counter_repeats(m, per, repeat);
        uint64_t left = m.total;
        check_local(dst, "dst", api, touched_extent(repeat, Stride{1, dst_rep}, sizeof(T), m, per), loc);
        for (uint32_t r = 0; r < repeat; ++r) {
            std::vector<std::pair<T*, uint64_t>> rr;
            for (uint32_t e = 0; e < per; ++e) {
                if (!rep_on(m, e, left)) continue;
                T* d = dst.addr_ + uint64_t(r) * dst_rep * per_blk + e;
                rr.push_back({d, uint64_t(r) * per + e});
                n_off = std::max<uint64_t>(n_off, uint64_t(r) * per + e + 1);
            }
            reps.push_back(std::move(rr));
        }
    }
    check_local(off, "srcOffset", api, n_off * sizeof(uint32_t), loc);
    src.check_live(api, "src", loc);
    const uint8_t* ub = ctx().ub;
    const uint8_t* s0 = reinterpret_cast<const uint8_t*>(src.addr_);
    const uint8_t* d0 = reinterpret_cast<const uint8_t*>(dst.addr_);
    if (s0 == d0) {
        warn("SIM-GATHER-SAME", "Gather: src and dst are the same buffer, which the documentation does not support; "
             "the simulator gathers one 256-byte repeat of dst at a time (as the hardware does), so a repeat may read "
             "elements an earlier repeat overwrote. Give dst its own buffer", loc, "memory", api);
    }
    for (auto& r : reps) {
        std::vector<T> vals;
        vals.reserve(r.size());
        for (auto& [d, k] : r) {
            uint64_t byte = uint64_t(base) + off.addr_[k];
            const uint8_t* p = s0 + byte;
            if (byte % sizeof(T) != 0 || p < ub || p + sizeof(T) > ub + cfg().ub_bytes) {
                fail("SIM-UB-OOB", fmt("Gather: srcOffset[%llu] = %u (+ srcBaseAddr %u) %s", static_cast<unsigned long long>(k),
                                       off.addr_[k], base,
                                       byte % sizeof(T) != 0 ? "is not a multiple of the element size"
                                                              : "points outside UB (ErrorRead3: out of bounds)"),
                     loc, "memory", api);
            }
            T v;
            std::memcpy(&v, p, sizeof(T));
            vals.push_back(v);
        }
        for (size_t i = 0; i < r.size(); ++i) *r[i].first = vals[i];
    }
    vec_charge("gather", api, double(reps.size()), dst.slot_, {src.slot_, off.slot_}, loc);
}

// Built-in pattern bit e (1-7).
inline bool gm_builtin(uint8_t p, uint64_t e) {
    switch (p) {
        case 1: return e % 2 == 0;
        case 2: return e % 2 == 1;
        case 3: case 4: case 5: case 6: return e % 4 == uint64_t(p - 3);
        default: return true;
    }
}

template <typename T, typename U>
inline void gather_mask_impl(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src0,
                             const AscendC::LocalTensor<U>* pat, uint8_t builtin, bool reduceMode, uint32_t mask,
                             const AscendC::GatherMaskParams& p, uint64_t& rsvdCnt, const loc_t& loc) {
    const char* api = "GatherMask";
    touch(api, loc);
    constexpr uint32_t per = 256 / sizeof(T);
    constexpr uint32_t per_blk = 32 / sizeof(T);
    if (!pat && (builtin < 1 || builtin > 7)) {
        fail("SIM-GATHERMASK-PATTERN", fmt("GatherMask: src1Pattern %u is out of range [1, 7]", unsigned(builtin)), loc,
             "api_mismatch", api);
    }
    if (reduceMode && mask == 0) {
        fail("SIM-MASK", "GatherMask: mask must be in [1, 2^32 - 1] when reduceMode = true", loc, "api_mismatch", api);
    }
    uint32_t repeat = p.repeatTimes;
    uint64_t n_per_rep = reduceMode ? mask : per;
    uint64_t subs = (n_per_rep + per - 1) / per;  // 256-byte iterations of one repeat
    // src0 extent: the last element read
    uint64_t last_iter = uint64_t(repeat) * subs;
    if (repeat == 0) {
        rsvdCnt = 0;
        rsvd_cnt() = 0;
        return;
    }
    uint64_t it_last = (uint64_t(repeat) - 1) * subs + (n_per_rep - 1) / per, e_last = (n_per_rep - 1) % per;
    check_local(src0, "src0", api, it_last * p.src0RepeatStride * 32 + (e_last / per_blk) * p.src0BlockStride * 32 +
                                       (e_last % per_blk + 1) * sizeof(T), loc);
    uint64_t bits = 8 * sizeof(U);
    if (pat) {
        uint64_t need_bits = (uint64_t(repeat) - 1) * p.src1RepeatStride * 256 + n_per_rep;
        check_local(*pat, "src1Pattern", api, (need_bits + bits - 1) / bits * sizeof(U), loc);
    }
    std::vector<T> out;
    for (uint32_t r = 0; r < repeat; ++r) {
        for (uint64_t k = 0; k < n_per_rep; ++k) {
            bool on;
            if (pat) {
                uint64_t bit = uint64_t(r) * p.src1RepeatStride * 256 + k;
                on = (pat->addr_[bit / bits] >> (bit % bits)) & 1u;
            } else {
                on = gm_builtin(builtin, k % per);
            }
            if (!on) continue;
            uint64_t it = uint64_t(r) * subs + k / per, e = k % per;
            const T* s = reinterpret_cast<const T*>(reinterpret_cast<const uint8_t*>(src0.addr_) +
                                                    it * p.src0RepeatStride * 32 + (e / per_blk) * p.src0BlockStride * 32) +
                         e % per_blk;
            out.push_back(*s);
        }
    }
    if (!out.empty()) check_local(dst, "dst", api, out.size() * sizeof(T), loc);
    for (size_t i = 0; i < out.size(); ++i) dst.addr_[i] = out[i];
    rsvdCnt = out.size();
    rsvd_cnt() = out.size();
    BlockCtx& c = ctx();
    c.mask_counter = false;
    if (reduceMode) {
        c.mask_hi = 0;
        c.mask_lo = mask;
    } else {
        c.mask_hi = per > 64 ? ~0ull : 0;
        c.mask_lo = ~0ull;
    }
    vec_charge("gather_mask", api, double(last_iter), dst.slot_, {src0.slot_, pat ? pat->slot_ : nullptr}, loc);
}

}  // namespace akgen_sim

namespace AscendC {

template <typename T>
inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset,
                   const uint32_t srcBaseAddr, const uint32_t count, AKGEN_LOC) {
    ::akgen_sim::gather_impl(dst, src, srcOffset, srcBaseAddr, true, count, ::akgen_sim::MaskArg{}, 0, 0, loc);
}
template <typename T>
inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset,
                   const uint32_t srcBaseAddr, const uint64_t mask, const uint8_t repeatTime,
                   const uint16_t dstRepStride, AKGEN_LOC) {
    ::akgen_sim::gather_impl(dst, src, srcOffset, srcBaseAddr, false, 0, ::akgen_sim::to_mask(mask, true), repeatTime,
                             dstRepStride, loc);
}
template <typename T>
inline void Gather(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<uint32_t>& srcOffset,
                   const uint32_t srcBaseAddr, const uint64_t mask[], const uint8_t repeatTime,
                   const uint16_t dstRepStride, AKGEN_LOC) {
    ::akgen_sim::gather_impl(dst, src, srcOffset, srcBaseAddr, false, 0, ::akgen_sim::to_mask(mask, true), repeatTime,
                             dstRepStride, loc);
}

template <typename T, typename U, GatherMaskMode mode = defaultGatherMaskMode>
inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<U>& src1Pattern,
                       const bool reduceMode, const uint32_t mask, const GatherMaskParams& gatherMaskParams,
                       uint64_t& rsvdCnt, AKGEN_LOC) {
    static_assert((std::is_same_v<U, uint16_t> && ::akgen_sim::one_of_v<T, half, bfloat16_t, uint16_t, int16_t>) ||
                      (std::is_same_v<U, uint32_t> && ::akgen_sim::one_of_v<T, float, uint32_t, int32_t>),
                  "Failed to check dtype in GatherMask, current api support dtype combination is src0/dst half / "
                  "bfloat16_t / uint16_t / int16_t with a uint16_t src1Pattern, float / uint32_t / int32_t with a "
                  "uint32_t src1Pattern.");
    ::akgen_sim::gather_mask_impl<T, U>(dst, src0, &src1Pattern, 0, reduceMode, mask, gatherMaskParams, rsvdCnt, loc);
}
template <typename T, GatherMaskMode mode = defaultGatherMaskMode>
inline void GatherMask(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const uint8_t src1Pattern,
                       const bool reduceMode, const uint32_t mask, const GatherMaskParams& gatherMaskParams,
                       uint64_t& rsvdCnt, AKGEN_LOC) {
    static_assert(::akgen_sim::one_of_v<T, half, bfloat16_t, uint16_t, int16_t, float, uint32_t, int32_t>,
                  "Failed to check dtype in GatherMask, current api support dtype combination is src0 and dst both: "
                  "half / bfloat16_t / uint16_t / int16_t / float / uint32_t / int32_t.");
    using U = std::conditional_t<sizeof(T) == 2, uint16_t, uint32_t>;
    ::akgen_sim::gather_mask_impl<T, U>(dst, src0, nullptr, src1Pattern, reduceMode, mask, gatherMaskParams, rsvdCnt,
                                        loc);
}
inline int64_t GetGatherMaskRemainCount() { return static_cast<int64_t>(::akgen_sim::rsvd_cnt()); }

}  // namespace AscendC
