// Test custom op "Scale": y = x * alpha (+ 1 when the tiling key is 2). Tiling struct in namespace optiling, as
// msopgen writes it; the kernel names it unqualified.
#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(ScaleTilingData)
TILING_DATA_FIELD_DEF(uint32_t, blockLength);
TILING_DATA_FIELD_DEF(float, alpha);
TILING_DATA_FIELD_DEF_ARR(uint32_t, 2, spare);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(Scale, ScaleTilingData)
}  // namespace optiling
