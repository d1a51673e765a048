// akgen sim: the per-tensor AscendQuant of lib/quantization/ascend_quant.h on A2/A3 (dav-2201), in the library's
// steps (impl/adv_api/detail/quantization/quant/ascend_quant_pre_impl.h): src cast to half (float source), times
// half(scale) in half, plus half(offset) in half, cast to int8_t with CAST_NONE (round to nearest even, saturated), as
// the basic Cast does. Forms: with or without sharedTmpBuffer, with or without calCount. Not emulated: the
// per-channel forms (a scale tensor) and the config's static split (AscendQuantConfig is accepted, its counts unused).
#pragma once

#include "vec_engine.h"
#include "vec_misc.h"

namespace AscendC {

struct AscendQuantConfig {
    constexpr AscendQuantConfig(const uint32_t calcCountIn, const uint32_t offsetCountIn, const uint32_t scaleCountIn,
                                const uint32_t workLocalSizeIn)
        : calcCount(calcCountIn), offsetCount(offsetCountIn), scaleCount(scaleCountIn),
          workLocalSize(workLocalSizeIn) {}
    uint32_t calcCount = 0;
    uint32_t offsetCount = 0;
    uint32_t scaleCount = 0;
    uint32_t workLocalSize = 0;
};
inline constexpr AscendQuantConfig ASCEND_QUANT_DEFAULT_CFG = {0, 0, 0, 0};

}  // namespace AscendC

namespace akgen_sim {

template <typename T>
inline void ascend_quant_tensor(const AscendC::LocalTensor<int8_t>& dst, const AscendC::LocalTensor<T>& src,
                                float scale, float offset, uint32_t count, const loc_t& loc) {
    const char* api = "AscendQuant";
    touch(api, loc);
    static_assert(one_of_v<T, half, float>,
                  "Failed to check dtype in AscendQuant, current api support dtype combination is half, float.");
    if (count == 0) return;
    check_local(dst, "dst", api, uint64_t(count), loc);
    check_local(src, "src", api, uint64_t(count) * sizeof(T), loc);
    const half hs = static_cast<half>(scale), ho = static_cast<half>(offset);
    for (uint32_t i = 0; i < count; ++i) {
        half h = static_cast<half>(static_cast<float>(src.addr_[i]));
        h = static_cast<half>(static_cast<float>(h) * static_cast<float>(hs));
        h = static_cast<half>(static_cast<float>(h) + static_cast<float>(ho));
        dst.addr_[i] = cast_value<int8_t>(h, AscendC::RoundMode::CAST_NONE);
    }
    vec_charge(cost_key("muls", cost_kind<half>()), api, repeats_for<half>(uint64_t(count)) * 4.0, dst.slot_,
               {src.slot_}, loc);
}

}  // namespace akgen_sim

namespace AscendC {

template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                        const LocalTensor<uint8_t>& sharedTmpBuffer, const float scale, const float offset,
                        const uint32_t calCount, AKGEN_LOC) {
    (void)sharedTmpBuffer;
    ::akgen_sim::ascend_quant_tensor(dstTensor, srcTensor, scale, offset, calCount, loc);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor, const float scale,
                        const float offset, const uint32_t calCount, AKGEN_LOC) {
    ::akgen_sim::ascend_quant_tensor(dstTensor, srcTensor, scale, offset, calCount, loc);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor,
                        const LocalTensor<uint8_t>& sharedTmpBuffer, const float scale, const float offset,
                        AKGEN_LOC) {
    (void)sharedTmpBuffer;
    ::akgen_sim::ascend_quant_tensor(dstTensor, srcTensor, scale, offset, srcTensor.GetSize(), loc);
}
template <typename T, bool isReuseSource = false, const AscendQuantConfig& config = ASCEND_QUANT_DEFAULT_CFG>
inline void AscendQuant(const LocalTensor<int8_t>& dstTensor, const LocalTensor<T>& srcTensor, const float scale,
                        const float offset, AKGEN_LOC) {
    ::akgen_sim::ascend_quant_tensor(dstTensor, srcTensor, scale, offset, srcTensor.GetSize(), loc);
}

}  // namespace AscendC
