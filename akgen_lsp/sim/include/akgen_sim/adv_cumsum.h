// akgen sim: CumSum<T, CumSumConfig>(dst, lastRow, src[, sharedTmpBuffer], CumSumInfo{outter, inner}) of
// adv_api/math/cumsum.h on A2/A3 (dav-2201), half and float. The source is outter rows of inner elements (inner a whole
// number of 32-byte blocks). isLastAxis: each row is summed left to right; otherwise each column top to bottom. As in
// the library (cumsum_common_impl.h) the running sums are float, added one row / column at a time, and rounded to T
// once at the end. outputLastRow copies the result's last row (inner elements) to lastRow. Checked: operand sizes,
// inner alignment. Not checked: the size of sharedTmpBuffer.
#pragma once

#include <vector>

#include "vec_engine.h"

namespace AscendC {

enum class CumSumAlgorithm { CUMSUM_ALGORITHM_LINEBYLINE = 0, CUMSUM_ALGORITHM_SKLANSKY = 1 };
struct CumSumConfig {
    bool isLastAxis{true};
    bool isReuseSource{false};
    bool outputLastRow{false};
    CumSumAlgorithm algorithm{CumSumAlgorithm::CUMSUM_ALGORITHM_LINEBYLINE};
};
struct CumSumInfo {
    uint32_t outter{0};
    uint32_t inner{0};  // 32-byte aligned
};
inline constexpr CumSumConfig defaultCumSumConfig = {true, false, true};

}  // namespace AscendC

namespace akgen_sim {

template <typename T, const AscendC::CumSumConfig& config>
inline void cumsum_impl(const AscendC::LocalTensor<T>& dst, const AscendC::LocalTensor<T>& lastRow,
                        const AscendC::LocalTensor<T>& src, const AscendC::CumSumInfo& info, const loc_t& loc) {
    static_assert(one_of_v<T, half, float>,
                  "Failed to check dtype in CumSum, current api support dtype combination is half, float.");
    const char* api = "CumSum";
    touch(api, loc);
    const uint32_t m = info.outter, k = info.inner;
    if (m == 0 || k == 0) return;
    if ((uint64_t(k) * sizeof(T)) % 32 != 0) {
        fail("SIM-CUMSUM-INNER", fmt("CumSum: inner %u elements is not a whole number of 32-byte blocks; pad the rows "
                                     "to 32 bytes", k), loc, "api_mismatch", api);
        return;
    }
    const uint64_t n = uint64_t(m) * k;
    check_local(src, "src", api, n * sizeof(T), loc);
    check_local(dst, "dst", api, n * sizeof(T), loc);
    if (config.outputLastRow) check_local(lastRow, "lastRow", api, uint64_t(k) * sizeof(T), loc);
    std::vector<float> acc(n);
    for (uint64_t i = 0; i < n; ++i) acc[i] = static_cast<float>(src.addr_[i]);
    for (uint32_t r = 0; r < m; ++r) {
        float* row = acc.data() + uint64_t(r) * k;
        if (config.isLastAxis) {
            for (uint32_t c = 1; c < k; ++c) row[c] = row[c - 1] + row[c];
        } else if (r > 0) {
            for (uint32_t c = 0; c < k; ++c) row[c] = row[c - int64_t(k)] + row[c];
        }
    }
    for (uint64_t i = 0; i < n; ++i) dst.addr_[i] = static_cast<T>(acc[i]);
    if (config.outputLastRow)
        for (uint32_t c = 0; c < k; ++c) lastRow.addr_[c] = dst.addr_[uint64_t(m - 1) * k + c];
    const double adds = config.isLastAxis ? double(k) * ((m + 15) / 16) + 4.0 * ((n * sizeof(T) + 511) / 512)
                                          : double(m) * ((k * sizeof(float) + 255) / 256);
    vec_charge(cost_key("add", cost_kind<float>()), api, adds, dst.slot_, {src.slot_}, loc);
}

}  // namespace akgen_sim

namespace AscendC {

template <typename T, const CumSumConfig& config = defaultCumSumConfig>
inline void CumSum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& lastRowTensor, const LocalTensor<T>& srcTensor,
                   const LocalTensor<uint8_t>& sharedTmpBuffer, const CumSumInfo& cumSumInfo, AKGEN_LOC) {
    (void)sharedTmpBuffer;
    ::akgen_sim::cumsum_impl<T, config>(dstTensor, lastRowTensor, srcTensor, cumSumInfo, loc);
}
template <typename T, const CumSumConfig& config = defaultCumSumConfig>
inline void CumSum(const LocalTensor<T>& dstTensor, const LocalTensor<T>& lastRowTensor, const LocalTensor<T>& srcTensor,
                   const CumSumInfo& cumSumInfo, AKGEN_LOC) {
    ::akgen_sim::cumsum_impl<T, config>(dstTensor, lastRowTensor, srcTensor, cumSumInfo, loc);
}

}  // namespace AscendC
