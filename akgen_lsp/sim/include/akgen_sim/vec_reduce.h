// akgen sim: reductions. Count form ReduceSum/ReduceMax/ReduceMin (dst[0] = result; with calIndex, dst[1] holds the
// index as an integer of sizeof(T) bits); per-repeat WholeReduceSum/Max/Min (CANN 9.1: ReduceRepeat<ReduceType>),
// per-32-byte-block BlockReduceSum/Max/Min (ReduceDataBlock, mask and repeat swapped), PairReduceSum
// (ReducePairElem). Sums accumulate in float for half/bfloat16_t and round once.
#pragma once

#include "vec_cmpsel.h"

namespace AscendC {
enum class ReduceOrder : uint8_t { ORDER_VALUE_INDEX = 0, ORDER_INDEX_VALUE, ORDER_ONLY_VALUE, ORDER_ONLY_INDEX };
}

namespace akgen_sim {

template <typename T> inline void store_index(T* p, uint32_t idx) {
    if constexpr (sizeof(T) == 2) {
        uint16_t v = static_cast<uint16_t>(idx);
        std::memcpy(p, &v, 2);
    } else if constexpr (sizeof(T) == 4) {
        std::memcpy(p, &idx, 4);
    } else {
        *p = static_cast<T>(idx);
    }
}

// The enabled elements of one repeat of the source (normal mask bits or counter mode), calling f(index_in_repeat,
// value).
template <typename T, typename F>
inline void each_in_repeat(const T* base, uint32_t r, Stride st, const MaskState& m, uint64_t& left, uint32_t per,
                           F&& f) {
    constexpr uint32_t per_blk = 32 / sizeof(T);
    for (uint32_t e = 0; e < per; ++e) {
        bool on;
        if (m.counter) {
            if (left == 0) return;
            --left;
            on = true;
        } else {
            on = e < 64 ? ((m.lo >> e) & 1ull) : ((m.hi >> (e - 64)) & 1ull);
        }
        if (!on) continue;
        const T* p = reinterpret_cast<const T*>(reinterpret_cast<const uint8_t*>(base) + uint64_t(r) * st.rep * 32 +
                                                uint64_t(e / per_blk) * st.blk * 32) + e % per_blk;
        f(e, *p);
    }
}

enum class Red { SUM, MAX, MIN };

template <typename T, typename R>
inline void whole_reduce(const char* api, Red kind, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                         MaskArg mask, R repeat_in, int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride,
                         AscendC::ReduceOrder order, const loc_t& loc) {
    touch(api, loc);
    uint32_t repeat = check_repeat(repeat_in, api, loc);
    constexpr uint32_t per = 256 / sizeof(T);
    check_mask(mask, per, api, loc);
    MaskState m = resolve_mask(mask);
    repeat = counter_repeats(m, per, repeat);
    if (repeat == 0) return;
    Stride ss{static_cast<uint32_t>(srcBlkStride), static_cast<uint32_t>(srcRepStride)};
    bool pair = kind != Red::SUM && (order == AscendC::ReduceOrder::ORDER_VALUE_INDEX ||
                                     order == AscendC::ReduceOrder::ORDER_INDEX_VALUE);
    uint32_t unit = pair ? 2 : 1;
    check_local(src, "src", api, repeat_extent(repeat, ss, sizeof(T), per), loc);
    check_local(dst, "dst", api, (uint64_t(repeat - 1) * dstRepStride * unit + unit) * sizeof(T), loc);
    uint64_t left = m.total;
    using C = calc_t<T>;
    for (uint32_t r = 0; r < repeat; ++r) {
        C acc = kind == Red::SUM ? C(0) : C(0);
        bool first = true;
        uint32_t idx = 0;
        each_in_repeat(src.addr_, r, ss, m, left, per, [&](uint32_t e, const T& v) {
            C x = static_cast<C>(v);
            if (kind == Red::SUM) acc += x;
            else if (first || (kind == Red::MAX ? x > acc : x < acc)) { acc = x; idx = e; }
            first = false;
        });
        T* out = dst.addr_ + uint64_t(r) * dstRepStride * unit;
        if (kind == Red::SUM || order == AscendC::ReduceOrder::ORDER_ONLY_VALUE) {
            out[0] = static_cast<T>(acc);
        } else if (order == AscendC::ReduceOrder::ORDER_ONLY_INDEX) {
            store_index(out, idx);
        } else if (order == AscendC::ReduceOrder::ORDER_INDEX_VALUE) {
            store_index(out, idx);
            out[1] = static_cast<T>(acc);
        } else {
            out[0] = static_cast<T>(acc);
            store_index(out + 1, idx);
        }
    }
    vec_charge("whole_reduce", api, repeat, dst.slot_, {src.slot_}, loc);
}

template <typename T, typename R>
inline void block_reduce(const char* api, Red kind, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                         R repeat_in, MaskArg mask, int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride,
                         const loc_t& loc) {
    touch(api, loc);
    uint32_t repeat = check_repeat(repeat_in, api, loc);
    constexpr uint32_t per = 256 / sizeof(T);
    constexpr uint32_t per_blk = 32 / sizeof(T);
    check_mask(mask, per, api, loc);
    MaskState m = resolve_mask(mask);
    repeat = counter_repeats(m, per, repeat);
    if (repeat == 0) return;
    Stride ss{static_cast<uint32_t>(srcBlkStride), static_cast<uint32_t>(srcRepStride)};
    check_local(src, "src", api, repeat_extent(repeat, ss, sizeof(T), per), loc);
    check_local(dst, "dst", api, (uint64_t(repeat - 1) * dstRepStride * 8 + 8) * sizeof(T), loc);
    uint64_t left = m.total;
    using C = calc_t<T>;
    for (uint32_t r = 0; r < repeat; ++r) {
        C acc[8] = {};
        bool seen[8] = {};
        each_in_repeat(src.addr_, r, ss, m, left, per, [&](uint32_t e, const T& v) {
            uint32_t b = e / per_blk;
            C x = static_cast<C>(v);
            if (!seen[b]) acc[b] = x;
            else if (kind == Red::SUM) acc[b] += x;
            else if (kind == Red::MAX ? x > acc[b] : x < acc[b]) acc[b] = x;
            seen[b] = true;
        });
        T* out = dst.addr_ + uint64_t(r) * dstRepStride * 8;
        for (int b = 0; b < 8; ++b) out[b] = static_cast<T>(acc[b]);
    }
    vec_charge("block_reduce", api, repeat, dst.slot_, {src.slot_}, loc);
}

template <typename T, typename R>
inline void pair_reduce(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                        R repeat_in, MaskArg mask, int32_t dstRepStride, int32_t srcBlkStride, int32_t srcRepStride,
                        const loc_t& loc) {
    touch(api, loc);
    uint32_t repeat = check_repeat(repeat_in, api, loc);
    constexpr uint32_t per = 256 / sizeof(T);
    check_mask(mask, per, api, loc);
    MaskState m = resolve_mask(mask);
    repeat = counter_repeats(m, per, repeat);
    if (repeat == 0) return;
    Stride ss{static_cast<uint32_t>(srcBlkStride), static_cast<uint32_t>(srcRepStride)};
    check_local(src, "src", api, repeat_extent(repeat, ss, sizeof(T), per), loc);
    check_local(dst, "dst", api, (uint64_t(repeat - 1) * dstRepStride * (per / 2) + per / 2) * sizeof(T), loc);
    uint64_t left = m.total;
    using C = calc_t<T>;
    for (uint32_t r = 0; r < repeat; ++r) {
        C acc[128] = {};
        each_in_repeat(src.addr_, r, ss, m, left, per, [&](uint32_t e, const T& v) { acc[e / 2] += static_cast<C>(v); });
        T* out = dst.addr_ + uint64_t(r) * dstRepStride * (per / 2);
        for (uint32_t i = 0; i < per / 2; ++i) out[i] = static_cast<T>(acc[i]);
    }
    vec_charge("whole_reduce", api, repeat, dst.slot_, {src.slot_}, loc);
}

template <typename T>
inline void reduce_count(const char* api, Red kind, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                         const AscendC::LocalTensor<T>& work, int64_t count, bool calIndex, const loc_t& loc) {
    touch(api, loc);
    if (count <= 0) return;
    check_local(src, "src", api, uint64_t(count) * sizeof(T), loc);
    check_local(dst, "dst", api, (calIndex ? 2 : 1) * sizeof(T), loc);
    (void)work;
    using C = calc_t<T>;
    const T* a = src.addr_;
    C acc = static_cast<C>(a[0]);
    uint32_t idx = 0;
    if (kind == Red::SUM) {
        // the vector unit adds per repeat, then the partial sums: accumulate the same way
        acc = C(0);
        for (int64_t i = 0; i < count; ++i) acc += static_cast<C>(a[i]);
    } else {
        for (int64_t i = 1; i < count; ++i) {
            C x = static_cast<C>(a[i]);
            if (kind == Red::MAX ? x > acc : x < acc) { acc = x; idx = static_cast<uint32_t>(i); }
        }
    }
    dst.addr_[0] = static_cast<T>(acc);
    if (calIndex) store_index(dst.addr_ + 1, idx);
    double rep = repeats_for<T>(uint64_t(count));
    vec_charge("reduce", api, rep + 1, dst.slot_, {src.slot_}, loc);
}

}  // namespace akgen_sim

namespace AscendC {

template <typename T>
inline void ReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,
                      const int32_t count, AKGEN_LOC) {
    ::akgen_sim::reduce_count("ReduceSum", ::akgen_sim::Red::SUM, dst, src, sharedTmpBuffer, count, false, loc);
}
template <typename T>
inline void ReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,
                      const int32_t count, bool calIndex = false, AKGEN_LOC) {
    ::akgen_sim::reduce_count("ReduceMax", ::akgen_sim::Red::MAX, dst, src, sharedTmpBuffer, count, calIndex, loc);
}
template <typename T>
inline void ReduceMin(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& sharedTmpBuffer,
                      const int32_t count, bool calIndex = false, AKGEN_LOC) {
    ::akgen_sim::reduce_count("ReduceMin", ::akgen_sim::Red::MIN, dst, src, sharedTmpBuffer, count, calIndex, loc);
}

#define AKGEN_WHOLE_REDUCE(NAME, KIND, HAS_ORDER)                                                                      \
    template <typename T, bool isSetMask = true, typename M, typename R,                                              \
              std::enable_if_t<std::is_integral_v<R>, int> = 0>                                                        \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, const M& mask, R repeatTime,               \
                     const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride,               \
                     ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX, AKGEN_LOC) {                                  \
        ::akgen_sim::whole_reduce(#NAME, KIND, dst, src, ::akgen_sim::to_mask(mask, isSetMask), repeatTime,          \
                                  dstRepStride, srcBlkStride, srcRepStride, order, loc);                               \
    }
AKGEN_WHOLE_REDUCE(WholeReduceSum, ::akgen_sim::Red::SUM, false)
AKGEN_WHOLE_REDUCE(WholeReduceMax, ::akgen_sim::Red::MAX, true)
AKGEN_WHOLE_REDUCE(WholeReduceMin, ::akgen_sim::Red::MIN, true)

#define AKGEN_BLOCK_REDUCE(NAME, KIND)                                                                                 \
    template <typename T, bool isSetMask = true, typename M, typename R,                                              \
              std::enable_if_t<std::is_integral_v<R>, int> = 0>                                                        \
    inline void NAME(const LocalTensor<T>& dst, const LocalTensor<T>& src, R repeatTime, const M& mask,               \
                     const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride, AKGEN_LOC) {  \
        ::akgen_sim::block_reduce(#NAME, KIND, dst, src, repeatTime, ::akgen_sim::to_mask(mask, isSetMask),          \
                                  dstRepStride, srcBlkStride, srcRepStride, loc);                                      \
    }
AKGEN_BLOCK_REDUCE(BlockReduceSum, ::akgen_sim::Red::SUM)
AKGEN_BLOCK_REDUCE(BlockReduceMax, ::akgen_sim::Red::MAX)
AKGEN_BLOCK_REDUCE(BlockReduceMin, ::akgen_sim::Red::MIN)

template <typename T, bool isSetMask = true, typename M, typename R, std::enable_if_t<std::is_integral_v<R>, int> = 0>
inline void PairReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, R repeatTime, const M& mask,
                          const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride, AKGEN_LOC) {
    ::akgen_sim::pair_reduce("PairReduceSum", dst, src, repeatTime, ::akgen_sim::to_mask(mask, isSetMask), dstRepStride,
                             srcBlkStride, srcRepStride, loc);
}

// CANN 9.1 names.
template <ReduceType type, typename T, typename U = T, bool isSetMask = true, typename M, typename R,
          std::enable_if_t<std::is_integral_v<R>, int> = 0>
inline void ReduceRepeat(const LocalTensor<T>& dst, const LocalTensor<U>& src, const M& mask, R repeatTime,
                         const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride,
                         ReduceOrder order = ReduceOrder::ORDER_VALUE_INDEX, AKGEN_LOC) {
    constexpr auto kind = type == ReduceType::SUM ? ::akgen_sim::Red::SUM
                          : type == ReduceType::MAX ? ::akgen_sim::Red::MAX : ::akgen_sim::Red::MIN;
    ::akgen_sim::whole_reduce("ReduceRepeat", kind, dst, src, ::akgen_sim::to_mask(mask, isSetMask), repeatTime,
                              dstRepStride, srcBlkStride, srcRepStride, order, loc);
}
template <ReduceType type, typename T, typename U = T, bool isSetMask = true, typename M, typename R,
          std::enable_if_t<std::is_integral_v<R>, int> = 0>
inline void ReduceDataBlock(const LocalTensor<T>& dst, const LocalTensor<U>& src, const M& mask, R repeatTime,
                            const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride,
                            AKGEN_LOC) {
    constexpr auto kind = type == ReduceType::SUM ? ::akgen_sim::Red::SUM
                          : type == ReduceType::MAX ? ::akgen_sim::Red::MAX : ::akgen_sim::Red::MIN;
    ::akgen_sim::block_reduce("ReduceDataBlock", kind, dst, src, repeatTime, ::akgen_sim::to_mask(mask, isSetMask),
                              dstRepStride, srcBlkStride, srcRepStride, loc);
}
template <typename T, typename U = T, bool isSetMask = true, typename M, typename R,
          std::enable_if_t<std::is_integral_v<R>, int> = 0>
inline void ReducePairElem(const LocalTensor<T>& dst, const LocalTensor<U>& src, const M& mask, R repeatTime,
                           const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride, AKGEN_LOC) {
    ::akgen_sim::pair_reduce("ReducePairElem", dst, src, repeatTime, ::akgen_sim::to_mask(mask, isSetMask),
                             dstRepStride, srcBlkStride, srcRepStride, loc);
}

}  // namespace AscendC
