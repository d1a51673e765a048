// akgen sim: AdjustSoftMaxRes<T1, T2, isDataFormatNZ, stepSizeMode>(softMaxRes, maxTensor, from, to, shapeInfo) of
// adv_api/activation/softmax.h: for each of the srcM rows whose max equals `from` bit for bit (`from` holds T2's bit
// pattern: 0x3f800000 for float 1.0), the row's srcK results become `to`; returns whether any row matched. The row's
// max is the first element of its 32-byte block (stepSizeMode 0) or element i (stepSizeMode non-zero, ND only).
// Checked: operand sizes; NZ data is not emulated yet (SIM-UNSUPPORTED).
#pragma once

#include <cstring>

#include "adv_softmax.h"

namespace AscendC {

template <typename T1, typename T2, bool isDataFormatNZ = false, uint8_t stepSizeMode = 0>
inline bool AdjustSoftMaxRes(const LocalTensor<T1>& softMaxRes, const LocalTensor<T2>& maxTensor, const uint32_t from,
                             const T1 to, const SoftMaxShapeInfo& softmaxShapeInfo, AKGEN_LOC) {
    static_assert(::akgen_sim::one_of_v<T1, half, float> && ::akgen_sim::one_of_v<T2, half, float>,
                  "Failed to check dtype in AdjustSoftMaxRes, current api support dtype combination is half, float.");
    const char* api = "AdjustSoftMaxRes";
    ::akgen_sim::touch(api, loc);
    if constexpr (isDataFormatNZ) {
        ::akgen_sim::fail("SIM-UNSUPPORTED", "AdjustSoftMaxRes on NZ data is not emulated yet", loc, "api_mismatch",
                          api);
        return false;
    }
    const uint32_t m = softmaxShapeInfo.srcM, k = softmaxShapeInfo.srcK;
    if (m == 0 || k == 0) return false;
    const uint32_t step = stepSizeMode == 0 ? 32 / sizeof(T2) : 1;
    ::akgen_sim::check_local(softMaxRes, "softMaxRes", api, uint64_t(m) * k * sizeof(T1), loc);
    ::akgen_sim::check_local(maxTensor, "maxTensor", api, (uint64_t(m - 1) * step + 1) * sizeof(T2), loc);
    bool found = false;
    for (uint32_t i = 0; i < m; ++i) {
        uint32_t bits = 0;
        std::memcpy(&bits, &maxTensor.addr_[uint64_t(i) * step], sizeof(T2));
        if (bits != from) continue;
        found = true;
        for (uint32_t j = 0; j < k; ++j) softMaxRes.addr_[uint64_t(i) * k + j] = to;
    }
    ::akgen_sim::vec_charge(::akgen_sim::cost_key("max", ::akgen_sim::cost_kind<T1>()), api,
                            ::akgen_sim::repeats_for<T1>(uint64_t(m) * k) + m / 8.0, softMaxRes.slot_,
                            {maxTensor.slot_, softMaxRes.slot_}, loc);
    return found;
}

}  // namespace AscendC
