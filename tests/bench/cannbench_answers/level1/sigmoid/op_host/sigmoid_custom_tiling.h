// Tiling data of SigmoidCustom (akgen's reference answer for cann-bench's level1/sigmoid).
#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SigmoidCustomTilingData)
    TILING_DATA_FIELD_DEF(uint64_t, totalLength);
    TILING_DATA_FIELD_DEF(uint64_t, perCore);
    TILING_DATA_FIELD_DEF(uint32_t, tileLength);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(SigmoidCustom, SigmoidCustomTilingData)
}  // namespace optiling
