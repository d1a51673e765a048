// Tiling data of ExpCustom (akgen's reference answer for cann-bench's level1/exp).
#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ExpCustomTilingData)
    TILING_DATA_FIELD_DEF(uint64_t, totalLength);
    TILING_DATA_FIELD_DEF(uint64_t, perCore);
    TILING_DATA_FIELD_DEF(uint32_t, tileLength);
    TILING_DATA_FIELD_DEF(float, scale);  // scale x ln(base) when base > 0
    TILING_DATA_FIELD_DEF(float, shift);  // shift x ln(base) when base > 0
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ExpCustom, ExpCustomTilingData)
}  // namespace optiling
