// akgen sim host side: temporary-buffer size helpers of normalization / quantization adv APIs on A2/A3 (dav-2201),
// with the library's sizes (impl/adv_api/tiling/...). A bad argument is reported on stderr and leaves the outputs
// unchanged, as the library's ASCENDC_HOST_ASSERT(..., return, ...) does.
#pragma once

#include <cstdint>
#include <cstdio>
#include <vector>

#include "graph.h"
#include "../../securec.h"  // CANN host builds have securec's memcpy_s in scope

namespace AscendC {

// WelfordUpdate (normalization/layernorm_tiling_impl.cpp): srcShape [rnLength, abLength]; min is one 256-byte repeat
// per work tensor (3 for a half input, 1 for float with isReuseSource, else 2), max that for every 64 floats of the
// shape. isInplace and typeSizeU do not change the size.
inline void GetWelfordUpdateMaxMinTmpSize(const ge::Shape& srcShape, const uint32_t typeSizeT, const uint32_t typeSizeU,
                                          const bool isReuseSource, const bool isInplace, uint32_t& maxValue,
                                          uint32_t& minValue) {
    (void)typeSizeU;
    (void)isInplace;
    const std::vector<int64_t> dims = srcShape.GetDims();
    if (dims.size() != 2) {
        std::fprintf(stderr, "[GetWelfordUpdateMaxMinTmpSize] srcShape dims must be 2 ([rnLength, abLength]), got %zu: "
                             "pass the shape as {rnLength, abLength}\n", dims.size());
        return;
    }
    const uint32_t rn = static_cast<uint32_t>(dims[0]), ab = static_cast<uint32_t>(dims[1]);
    const uint32_t bufs = typeSizeT == sizeof(uint16_t) ? 3u : (isReuseSource ? 1u : 2u);
    minValue = bufs * 256u;
    maxValue = (rn * ab + 63u) / 64u * minValue;
}

}  // namespace AscendC
