// akgen sim: DataCopy (GM <-> UB, UB -> UB) in the count and DataCopyParams forms, DataCopyPad.
#pragma once

#include "pipe.h"

namespace AscendC {

struct DataCopyParams {
    uint16_t blockCount = 1;
    uint16_t blockLen = 0;   // 32-byte units
    uint16_t srcStride = 0;  // gap between blocks, 32-byte units
    uint16_t dstStride = 0;
    DataCopyParams() = default;
    DataCopyParams(uint16_t count, uint16_t len, uint16_t src, uint16_t dst)
        : blockCount(count), blockLen(len), srcStride(src), dstStride(dst) {}
};

struct DataCopyExtParams {
    uint16_t blockCount = 1;
    uint32_t blockLen = 0;   // bytes
    uint32_t srcStride = 0;  // GM: bytes; UB: 32-byte units
    uint32_t dstStride = 0;
    uint32_t rsv = 0;
    DataCopyExtParams() = default;
    // all five arguments, as in CANN (a 4-element brace list then means DataCopyParams, unambiguously)
    DataCopyExtParams(uint16_t count, uint32_t len, uint32_t src, uint32_t dst, uint32_t r)
        : blockCount(count), blockLen(len), srcStride(src), dstStride(dst), rsv(r) {}
};

template <typename T> struct DataCopyPadExtParams {
    bool isPad = false;
    uint8_t leftPadding = 0;
    uint8_t rightPadding = 0;
    T paddingValue{};
    DataCopyPadExtParams() = default;
    DataCopyPadExtParams(bool pad, uint8_t left, uint8_t right, T value)
        : isPad(pad), leftPadding(left), rightPadding(right), paddingValue(value) {}
};

struct DataCopyPadParams {
    bool isPad = false;
    uint8_t leftPadding = 0;
    uint8_t rightPadding = 0;
    uint64_t paddingValue = 0;
    DataCopyPadParams() = default;
    DataCopyPadParams(bool pad, uint8_t left, uint8_t right, uint64_t value)
        : isPad(pad), leftPadding(left), rightPadding(right), paddingValue(value) {}
};

namespace detail {

inline double gm_to_local_bw(TPosition p) {
    return mem_of(p) == Mem::UB ? akgen_sim::cfg().bw_gm_ub : akgen_sim::cfg().bw_gm_l1;
}

// `bursts` runs of `burst` bytes, `pitch` bytes apart in GM from `g` (the cost model's GM side), to or from `local`.
template <typename T> inline akgen_sim::GmShape gm_shape(const GlobalTensor<T>& g, TPosition local, uint64_t burst,
                                                         uint64_t bursts, uint64_t pitch, bool write) {
    akgen_sim::GmShape s;
    s.gm = g.addr_;
    s.burst = burst;
    s.bursts = bursts;
    s.pitch = pitch;
    s.l2_mode = g.l2_mode_;
    s.write = write;
    s.cube = mem_of(local) != Mem::UB;
    return s;
}
// GM -> local: bytes move on MTE2 after the destination's previous readers finish.
template <typename T> inline void dma_in(const LocalTensor<T>& dst, const GlobalTensor<T>& src, uint64_t burst,
                                         uint64_t bursts, uint64_t pitch, const char* api,
                                         const akgen_sim::loc_t& loc) {
    akgen_sim::BlockCtx& c = akgen_sim::ctx();
    double end = akgen_sim::charge_gm_dma(akgen_sim::P_MTE2, gm_shape(src, dst.pos_, burst, bursts, pitch, false),
                                          gm_to_local_bw(dst.pos_),
                                          akgen_sim::ready_for_write(dst.slot_), api, loc);
    akgen_sim::wrote(dst.slot_, end);
    c.gm_read += burst * bursts;
}
template <typename T> inline void dma_out(const LocalTensor<T>& src, const GlobalTensor<T>& dst, uint64_t burst,
                                          uint64_t bursts, uint64_t pitch, const char* api,
                                          const akgen_sim::loc_t& loc) {
    akgen_sim::BlockCtx& c = akgen_sim::ctx();
    double end = akgen_sim::charge_gm_dma(akgen_sim::P_MTE3, gm_shape(dst, src.pos_, burst, bursts, pitch, true),
                                          akgen_sim::cfg().bw_ub_gm,
                                          akgen_sim::ready_for_read(src.slot_), api, loc);
    akgen_sim::read_by(src.slot_, end);
    c.gm_write += burst * bursts;
}

// UB -> GM store honouring SetAtomicAdd/Max/Min (the MTE3 unit accumulates into GM in the copy's type).
template <typename T> inline void gm_store(T* dst, const T* src, uint64_t n) {
    int mode = akgen_sim::ctx().atomic;
    if (mode == 0) {
        std::memcpy(dst, src, n * sizeof(T));
        return;
    }
    using C = akgen_sim::calc_t<T>;
    for (uint64_t i = 0; i < n; ++i) {
        C a = static_cast<C>(dst[i]), b = static_cast<C>(src[i]);
        dst[i] = static_cast<T>(mode == 1 ? a + b : mode == 2 ? (a > b ? a : b) : (a < b ? a : b));
    }
}

// The hardware moves whole 32-byte blocks: a count that is not a multiple of 32 B is rounded down (a warning).
template <typename T> inline uint64_t rounded_bytes(uint32_t count, const akgen_sim::loc_t& loc) {
    uint64_t bytes = static_cast<uint64_t>(count) * sizeof(T);
    if (bytes % 32 != 0) {
        akgen_sim::warn("SIM-DC-ROUNDDOWN",
                        akgen_sim::fmt("DataCopy of %u elements x %zu B = %llu B is not a multiple of 32 B: the "
                                       "hardware copies only the first %llu B and silently drops the tail; use "
                                       "DataCopyPad or pad the length", count, sizeof(T),
                                       static_cast<unsigned long long>(bytes),
                                       static_cast<unsigned long long>(bytes / 32 * 32)),
                        loc, "memory", "DataCopy");
    }
    return bytes / 32 * 32;
}

}  // namespace detail

// GM -> UB / L1
template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const uint32_t count, AKGEN_LOC) {
    akgen_sim::touch("DataCopy", loc);
    if (count == 0) return;
    uint64_t bytes = detail::rounded_bytes<T>(count, loc);
    akgen_sim::check_local(dst, "dst", "DataCopy", bytes, loc, detail::mem_of(dst.pos_) == detail::Mem::UB);
    src.check_access(0, bytes / sizeof(T), false, "DataCopy", loc);
    std::memcpy(dst.addr_, src.addr_, bytes);
    detail::dma_in(dst, src, bytes, 1, bytes, "DataCopy", loc);
}

// UB -> GM
template <typename T>
inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count, AKGEN_LOC) {
    akgen_sim::touch("DataCopy", loc);
    if (count == 0) return;
    uint64_t bytes = detail::rounded_bytes<T>(count, loc);
    akgen_sim::check_local(src, "src", "DataCopy", bytes, loc);
    dst.check_access(0, bytes / sizeof(T), true, "DataCopy", loc);
    detail::gm_store(dst.addr_, src.addr_, bytes / sizeof(T));
    detail::dma_out(src, dst, bytes, 1, bytes, "DataCopy", loc);
}

// UB -> UB (vector pipe)
template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t count, AKGEN_LOC) {
    akgen_sim::touch("DataCopy", loc);
    if (count == 0) return;
    uint64_t bytes = detail::rounded_bytes<T>(count, loc);
    bool ub = detail::mem_of(dst.pos_) == detail::Mem::UB;
    akgen_sim::check_local(src, "src", "DataCopy", bytes, loc, detail::mem_of(src.pos_) == detail::Mem::UB);
    akgen_sim::check_local(dst, "dst", "DataCopy", bytes, loc, ub);
    std::memmove(dst.addr_, src.addr_, bytes);
    int pipe = ub ? akgen_sim::P_V : akgen_sim::P_MTE3;
    double end = akgen_sim::charge_dma(pipe, double(bytes), akgen_sim::cfg().bw_ub_ub,
                                   std::max(akgen_sim::ready_for_read(src.slot_), akgen_sim::ready_for_write(dst.slot_)),
                                   "DataCopy", loc);
    akgen_sim::read_by(src.slot_, end);
    akgen_sim::wrote(dst.slot_, end);
}

// Strided forms: blockCount blocks of blockLen x 32 B, gaps srcStride / dstStride in 32 B units.
template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p, AKGEN_LOC) {
    akgen_sim::touch("DataCopy", loc);
    if (p.blockCount == 0 || p.blockLen == 0) return;
    uint64_t blk = uint64_t(p.blockLen) * 32;
    uint64_t dst_extent = (uint64_t(p.blockCount) - 1) * (p.blockLen + p.dstStride) * 32 + blk;
    uint64_t src_extent = (uint64_t(p.blockCount) - 1) * (p.blockLen + p.srcStride) * 32 + blk;
    akgen_sim::check_local(dst, "dst", "DataCopy", dst_extent, loc, detail::mem_of(dst.pos_) == detail::Mem::UB);
    src.check_access(0, (src_extent + sizeof(T) - 1) / sizeof(T), false, "DataCopy", loc);
    const uint8_t* s = reinterpret_cast<const uint8_t*>(src.addr_);
    uint8_t* d = reinterpret_cast<uint8_t*>(dst.addr_);
    for (uint32_t b = 0; b < p.blockCount; ++b) {
        std::memcpy(d + b * (p.blockLen + p.dstStride) * 32ull, s + b * (p.blockLen + p.srcStride) * 32ull, blk);
    }
    detail::dma_in(dst, src, blk, p.blockCount, (uint64_t(p.blockLen) + p.srcStride) * 32, "DataCopy", loc);
}

template <typename T>
inline void DataCopy(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p, AKGEN_LOC) {
    akgen_sim::touch("DataCopy", loc);
    if (p.blockCount == 0 || p.blockLen == 0) return;
    uint64_t blk = uint64_t(p.blockLen) * 32;
    uint64_t dst_extent = (uint64_t(p.blockCount) - 1) * (p.blockLen + p.dstStride) * 32 + blk;
    uint64_t src_extent = (uint64_t(p.blockCount) - 1) * (p.blockLen + p.srcStride) * 32 + blk;
    // A2/A3 also copy L1 (A1/B1/C1) out to GM (on the AIC, MTE3: "DataCopy(L1->GM)" in the API pipe table)
    const bool from_l1 = src.pos_ == TPosition::A1 || src.pos_ == TPosition::B1 || src.pos_ == TPosition::C1;
    akgen_sim::check_local(src, "src", "DataCopy", src_extent, loc, !from_l1);
    const uint8_t* s = reinterpret_cast<const uint8_t*>(src.addr_);
    uint8_t* d = reinterpret_cast<uint8_t*>(dst.addr_);
    for (uint32_t b = 0; b < p.blockCount; ++b) {
        uint64_t off = b * (p.blockLen + p.dstStride) * 32ull;
        dst.check_access(off / sizeof(T), blk / sizeof(T), true, "DataCopy", loc);
        detail::gm_store(reinterpret_cast<T*>(d + off), reinterpret_cast<const T*>(s + b * (p.blockLen + p.srcStride) * 32ull),
                         blk / sizeof(T));
    }
    (void)dst_extent;
    detail::dma_out(src, dst, blk, p.blockCount, (uint64_t(p.blockLen) + p.dstStride) * 32, "DataCopy", loc);
}

// Local -> local. L1 (C1) -> bias table (C2) on A2/A3: blockLen and dstGap count 64-byte units, srcGap 32-byte units
// (asc-devkit "L1ToBiasTable-Buffer DataCopy"); that copy moves on MTE1.
template <typename T>
inline void DataCopy(const LocalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p, AKGEN_LOC) {
    akgen_sim::touch("DataCopy", loc);
    if (p.blockCount == 0 || p.blockLen == 0) return;
    const bool bt = dst.pos_ == TPosition::C2;
    const uint64_t len_unit = bt ? 64 : 32, dst_gap_unit = bt ? 64 : 32;
    uint64_t blk = uint64_t(p.blockLen) * len_unit;
    uint64_t dst_pitch = blk + uint64_t(p.dstStride) * dst_gap_unit, src_pitch = blk + uint64_t(p.srcStride) * 32;
    uint64_t dst_extent = (uint64_t(p.blockCount) - 1) * dst_pitch + blk;
    uint64_t src_extent = (uint64_t(p.blockCount) - 1) * src_pitch + blk;
    akgen_sim::check_local(src, "src", "DataCopy", src_extent, loc, detail::mem_of(src.pos_) == detail::Mem::UB);
    akgen_sim::check_local(dst, "dst", "DataCopy", dst_extent, loc, detail::mem_of(dst.pos_) == detail::Mem::UB);
    const uint8_t* s = reinterpret_cast<const uint8_t*>(src.addr_);
    uint8_t* d = reinterpret_cast<uint8_t*>(dst.addr_);
    for (uint32_t b = 0; b < p.blockCount; ++b) std::memmove(d + b * dst_pitch, s + b * src_pitch, blk);
    double end = akgen_sim::charge_dma(bt ? akgen_sim::P_MTE1 : akgen_sim::P_V, double(blk * p.blockCount),
                                       bt ? akgen_sim::cfg().bw_l1_l0b : akgen_sim::cfg().bw_ub_ub,
                                       std::max(akgen_sim::ready_for_read(src.slot_),
                                                akgen_sim::ready_for_write(dst.slot_)),
                                       "DataCopy", loc);
    akgen_sim::read_by(src.slot_, end);
    akgen_sim::wrote(dst.slot_, end);
}

// SetPadValue<T, pos>(value): the PADDING register that GM -> UB DataCopyPad uses for its left/right padding when
// DataCopyPadExtParams::isPad is false (isPad true takes paddingValue instead). pos: VECIN, VECOUT or MAX (either).
template <typename T, TPosition pos = TPosition::MAX>
inline void SetPadValue(T paddingValue) {
    static_assert(pos == TPosition::VECIN || pos == TPosition::VECOUT || pos == TPosition::MAX,
                  "SetPadValue: pos must be TPosition::VECIN, TPosition::VECOUT or TPosition::MAX");
    static_assert(sizeof(T) <= 8, "SetPadValue: the padding value is at most 8 bytes");
    uint64_t bits = 0;
    std::memcpy(&bits, &paddingValue, sizeof(T));
    akgen_sim::ctx().pad_value = bits;
    akgen_sim::ctx().pad_value_set = true;
}

// DataCopyPad GM -> UB: blockLen in bytes, srcStride in bytes (GM gap), dstStride in 32 B units (UB gap). Each block
// lands 32 B aligned in UB; with isPad the left/right padding elements are filled with paddingValue; with no left/right
// padding the dummy elements up to the next 32 B hold the block's first element (GMToUB DataCopyPad, dummy rule).
template <typename T>
inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyExtParams& p,
                        const DataCopyPadExtParams<T>& pad, AKGEN_LOC) {
    akgen_sim::touch("DataCopyPad", loc);
    if (p.blockCount == 0 || p.blockLen == 0) return;
    uint64_t sz = sizeof(T);
    uint64_t ub_blk = (pad.leftPadding * sz + p.blockLen + pad.rightPadding * sz + 31) / 32 * 32;
    uint64_t dst_extent = (uint64_t(p.blockCount) - 1) * (ub_blk + uint64_t(p.dstStride) * 32) + ub_blk;
    uint64_t src_extent = (uint64_t(p.blockCount) - 1) * (uint64_t(p.blockLen) + p.srcStride) + p.blockLen;
    akgen_sim::check_local(dst, "dst", "DataCopyPad", dst_extent, loc, detail::mem_of(dst.pos_) == detail::Mem::UB);
    if (p.blockLen % sz != 0) {
        akgen_sim::fail("SIM-DCPAD-LEN", akgen_sim::fmt("DataCopyPad: blockLen %u bytes is not a whole number of %zu-byte "
                                                        "elements", p.blockLen, sizeof(T)), loc, "api_mismatch",
                        "DataCopyPad");
    }
    src.check_access(0, (src_extent + sz - 1) / sz, false, "DataCopyPad", loc);
    const uint8_t* s = reinterpret_cast<const uint8_t*>(src.addr_);
    uint8_t* d = reinterpret_cast<uint8_t*>(dst.addr_);
    for (uint32_t b = 0; b < p.blockCount; ++b) {
        uint8_t* row = d + b * (ub_blk + uint64_t(p.dstStride) * 32);
        if (pad.isPad) {
            T* e = reinterpret_cast<T*>(row);
            for (uint64_t i = 0; i < ub_blk / sz; ++i) e[i] = pad.paddingValue;
        } else if (akgen_sim::ctx().pad_value_set && (pad.leftPadding || pad.rightPadding)) {
            // isPad false after SetPadValue: the padding takes the PADDING register's value
            T v;
            std::memcpy(&v, &akgen_sim::ctx().pad_value, sz < 8 ? sz : 8);
            T* e = reinterpret_cast<T*>(row);
            for (uint64_t i = 0; i < ub_blk / sz; ++i) e[i] = v;
        }
        const uint8_t* from = s + b * (uint64_t(p.blockLen) + p.srcStride);
        std::memcpy(row + pad.leftPadding * sz, from, p.blockLen);
        if (pad.leftPadding == 0 && pad.rightPadding == 0) {
            // documented: with no left/right padding, the dummy elements that fill the block up to 32 B hold the
            // block's first element (whether isPad is set or not)
            for (uint64_t off = p.blockLen; off + sz <= ub_blk; off += sz) std::memcpy(row + off, from, sz);
        }
    }
    detail::dma_in(dst, src, p.blockLen, p.blockCount, uint64_t(p.blockLen) + p.srcStride, "DataCopyPad", loc);
}

template <typename T>
inline void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyParams& p,
                        const DataCopyPadParams& pad, AKGEN_LOC) {
    T value;
    uint64_t raw = pad.paddingValue;
    std::memcpy(&value, &raw, sizeof(T) < 8 ? sizeof(T) : 8);
    DataCopyPad(dst, src, DataCopyExtParams(p.blockCount, p.blockLen, p.srcStride, p.dstStride, 0),
                DataCopyPadExtParams<T>(pad.isPad, pad.leftPadding, pad.rightPadding, value), loc);
}

// DataCopyPad UB -> GM: blockLen bytes per block; srcStride in 32 B units (UB gap), dstStride in bytes (GM gap).
template <typename T>
inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyExtParams& p, AKGEN_LOC) {
    akgen_sim::touch("DataCopyPad", loc);
    if (p.blockCount == 0 || p.blockLen == 0) return;
    uint64_t sz = sizeof(T);
    uint64_t ub_blk = (uint64_t(p.blockLen) + 31) / 32 * 32;
    uint64_t src_extent = (uint64_t(p.blockCount) - 1) * (ub_blk + uint64_t(p.srcStride) * 32) + p.blockLen;
    akgen_sim::check_local(src, "src", "DataCopyPad", src_extent, loc);
    const uint8_t* s = reinterpret_cast<const uint8_t*>(src.addr_);
    uint8_t* d = reinterpret_cast<uint8_t*>(dst.addr_);
    for (uint32_t b = 0; b < p.blockCount; ++b) {
        uint64_t off = b * (uint64_t(p.blockLen) + p.dstStride);
        dst.check_access(off / sz, (p.blockLen + sz - 1) / sz, true, "DataCopyPad", loc);
        detail::gm_store(reinterpret_cast<T*>(d + off), reinterpret_cast<const T*>(s + b * (ub_blk + uint64_t(p.srcStride) * 32)),
                         p.blockLen / sz);
    }
    detail::dma_out(src, dst, p.blockLen, p.blockCount, uint64_t(p.blockLen) + p.dstStride, "DataCopyPad", loc);
}

template <typename T>
inline void DataCopyPad(const GlobalTensor<T>& dst, const LocalTensor<T>& src, const DataCopyParams& p, AKGEN_LOC) {
    DataCopyPad(dst, src, DataCopyExtParams(p.blockCount, p.blockLen, p.srcStride, p.dstStride, 0), loc);
}

// Atomic accumulation of UB -> GM copies.
template <typename T> inline void SetAtomicAdd() { ::akgen_sim::ctx().atomic = 1; }
template <typename T> inline void SetAtomicMax() { ::akgen_sim::ctx().atomic = 2; }
template <typename T> inline void SetAtomicMin() { ::akgen_sim::ctx().atomic = 3; }
template <typename T> inline void SetAtomicType() {}
inline void SetAtomicNone() { ::akgen_sim::ctx().atomic = 0; }

}  // namespace AscendC
