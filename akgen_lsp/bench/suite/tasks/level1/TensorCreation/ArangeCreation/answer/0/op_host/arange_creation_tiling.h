// Tiling data of ArangeCreation (akgen bundled suite).
#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ArangeCreationTilingData)
    TILING_DATA_FIELD_DEF(uint32_t, totalLength);
    TILING_DATA_FIELD_DEF(uint32_t, perCore);
    TILING_DATA_FIELD_DEF(uint32_t, tileLength);
    TILING_DATA_FIELD_DEF(float, start);
    TILING_DATA_FIELD_DEF(float, step);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ArangeCreation, ArangeCreationTilingData)
}  // namespace optiling
