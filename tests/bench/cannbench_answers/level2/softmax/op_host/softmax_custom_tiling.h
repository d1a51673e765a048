// Tiling data of SoftmaxCustom (akgen's reference answer for cann-bench's level2/softmax).
#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(SoftmaxCustomTilingData)
    TILING_DATA_FIELD_DEF(uint64_t, outer);         // the product of the dims before `dim`
    TILING_DATA_FIELD_DEF(uint32_t, reduce);        // the size of `dim`
    TILING_DATA_FIELD_DEF(uint32_t, innerTile);     // columns per unit when inner > 1
    TILING_DATA_FIELD_DEF(uint64_t, inner);         // the product of the dims after `dim`
    TILING_DATA_FIELD_DEF(uint64_t, unitsPerCore);  // rows (inner == 1) or (outer, column tile) units per block
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(SoftmaxCustom, SoftmaxCustomTilingData)
}  // namespace optiling
