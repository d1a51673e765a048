// akgen sim: the advanced reduce APIs Sum and Mean (adv_api/reduce/sum.h, mean.h) as the A2/A3 library builds them
// (impl/adv_api/detail/reduce/{sum,mean}/*_common_impl.h): every row of `outter` rows (`inner` elements apart) has its
// first `n` elements summed by counter-mode RepeatReduceSum passes: each pass sums one 256-byte repeat in the
// adjacent-pair tree (rounding every add to the compute type), the per-repeat sums are reduced again the same way
// until one value is left. Mean multiplies by 1/n (a float rounded to T), or, for half with accType float, casts the
// row to float first, sums and scales in float and rounds to half once at the end.
// Checked: the operands' sizes (outter * inner elements of src, outter of dst, inner >= n, inner * sizeof(T) a multiple
// of 32 bytes). Not checked: the size of sharedTmpBuffer (the simulator needs none).
#pragma once

#include <vector>

#include "vec_reduce.h"

namespace AscendC {
struct SumParams {
    uint32_t outter = 1;
    uint32_t inner;  // n rounded up to 32 bytes of elements
    uint32_t n;      // elements to sum in each row
};
struct MeanParams {
    uint32_t outter = 1;
    uint32_t inner;
    uint32_t n;
};
}  // namespace AscendC

namespace akgen_sim {

// Repeated RepeatReduceSum passes over v (counter mode, `per` elements a repeat) until one value is left.
template <typename T> inline calc_t<T> repeat_sum_passes(std::vector<calc_t<T>> v, uint32_t per) {
    using C = calc_t<T>;
    while (v.size() > 1) {
        std::vector<C> next;
        for (size_t i = 0; i < v.size(); i += per) {
            std::vector<C> chunk(per, C(0));
            for (size_t j = 0; j < per && i + j < v.size(); ++j) chunk[j] = v[i + j];
            next.push_back(tree_sum<T>(chunk.data(), per));
        }
        v.swap(next);
    }
    return v.empty() ? C(0) : v[0];
}

template <typename T>
inline void check_reduce_rows(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                              uint32_t outter, uint32_t inner, uint32_t n, const loc_t& loc) {
    if (n == 0 || n > inner) {
        fail("SIM-ADV-PARAMS", fmt("%s: n (%u) must be in [1, inner] (inner is %u)", api, n, inner), loc,
             "api_mismatch", api);
    }
    if ((uint64_t(inner) * sizeof(T)) % 32 != 0) {
        fail("SIM-ADV-PARAMS", fmt("%s: inner * sizeof(T) (%llu bytes) must be a multiple of 32 bytes: inner is n "
                                   "rounded up to a whole 32-byte block", api,
                                   static_cast<unsigned long long>(uint64_t(inner) * sizeof(T))),
             loc, "api_mismatch", api);
    }
    check_local(src, "src", api, (uint64_t(outter - 1) * inner + n) * sizeof(T), loc);
    check_local(dst, "dst", api, uint64_t(outter) * sizeof(T), loc);
}

template <typename T, typename Acc>
inline void adv_sum_rows(const char* api, const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& src,
                         uint32_t outter, uint32_t inner, uint32_t n, bool mean, const loc_t& loc) {
    touch(api, loc);
    if (outter == 0) return;
    check_reduce_rows(api, dst, src, outter, inner, n, loc);
    constexpr uint32_t per = 256 / sizeof(Acc);
    std::vector<T> out(outter);
    for (uint32_t row = 0; row < outter; ++row) {
        std::vector<calc_t<Acc>> v(n);
        for (uint32_t i = 0; i < n; ++i) v[i] = static_cast<calc_t<Acc>>(static_cast<Acc>(src.addr_[uint64_t(row) * inner + i]));
        calc_t<Acc> s = repeat_sum_passes<Acc>(std::move(v), per);
        if (mean) {
            if constexpr (std::is_same_v<Acc, T>) {
                // Muls by the scalar 1/n held in T
                calc_t<T> k = static_cast<calc_t<T>>(static_cast<T>(1.0f / static_cast<float>(static_cast<int32_t>(n))));
                s = static_cast<calc_t<T>>(static_cast<T>(s * k));
            } else {
                s = s * (1.0f / static_cast<float>(static_cast<int32_t>(n)));
            }
        }
        out[row] = static_cast<T>(s);
    }
    for (uint32_t row = 0; row < outter; ++row) dst.addr_[row] = out[row];
    uint64_t reps = (uint64_t(n) + per - 1) / per;
    vec_charge("whole_reduce_sum", api, double(outter) * double(reps + (reps + per - 1) / per), dst.slot_, {src.slot_},
               loc);
    // the library leaves the mask in normal mode, all bits set
    ctx().mask_counter = false;
    ctx().mask_hi = ~0ull;
    ctx().mask_lo = ~0ull;
}

}  // namespace akgen_sim

namespace AscendC {

template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
inline void Sum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                const LocalTensor<uint8_t>& sharedTmpBuffer, const SumParams& sumParams, AKGEN_LOC) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                  "Failed to check dtype in Sum, current api support dtype combination is src and dst both: half / "
                  "float.");
    (void)sharedTmpBuffer;
    ::akgen_sim::adv_sum_rows<T, T>("Sum", dstTensor, srcTensor, sumParams.outter, sumParams.inner, sumParams.n, false,
                                    loc);
}
template <typename T, int32_t reduceDim = -1, bool isReuseSource = false, bool isBasicBlock = false>
inline void Sum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const SumParams& sumParams,
                AKGEN_LOC) {
    Sum<T, reduceDim, isReuseSource, isBasicBlock>(dstTensor, srcTensor, LocalTensor<uint8_t>{}, sumParams, loc);
}

template <typename T, typename accType = T, bool isReuseSource = false, bool isBasicBlock = false,
          int32_t reduceDim = -1>
inline void Mean(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor,
                 const LocalTensor<uint8_t>& sharedTmpBuffer, const MeanParams& meanParams, AKGEN_LOC) {
    static_assert(std::is_same_v<T, half> || std::is_same_v<T, float>,
                  "Failed to check dtype in Mean, current api support dtype combination is src and dst both: half / "
                  "float.");
    static_assert(std::is_same_v<accType, T> || (std::is_same_v<T, half> && std::is_same_v<accType, float>),
                  "Failed to check dtype in Mean: accType is T, or float when T is half.");
    (void)sharedTmpBuffer;
    ::akgen_sim::adv_sum_rows<T, accType>("Mean", dstTensor, srcTensor, meanParams.outter, meanParams.inner,
                                          meanParams.n, true, loc);
}
template <typename T, typename accType = T, bool isReuseSource = false, bool isBasicBlock = false,
          int32_t reduceDim = -1>
inline void Mean(const LocalTensor<T>& dstTensor, const LocalTensor<T>& srcTensor, const MeanParams& meanParams,
                 AKGEN_LOC) {
    Mean<T, accType, isReuseSource, isBasicBlock, reduceDim>(dstTensor, srcTensor, LocalTensor<uint8_t>{}, meanParams,
                                                             loc);
}

}  // namespace AscendC
