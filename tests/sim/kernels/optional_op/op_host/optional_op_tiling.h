// Tiling data of the test op "OptionalOp" (see optional_op.cpp).
#pragma once
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(OptionalOpTilingData)
TILING_DATA_FIELD_DEF(uint32_t, secondDim);
TILING_DATA_FIELD_DEF(uint32_t, zDim);
TILING_DATA_FIELD_DEF(uint32_t, hasDesc);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(OptionalOp, OptionalOpTilingData)
}  // namespace optiling
