// Tiling data of AddCustom: what the host computes from the input shape and the kernel reads with GET_TILING_DATA.
#ifndef SAMPLES_ADD_CUSTOM_TILING_H
#define SAMPLES_ADD_CUSTOM_TILING_H

#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(AddCustomTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);  // elements of x, y and z
TILING_DATA_FIELD_DEF(uint32_t, tileNum);      // tiles per core and per buffer
END_TILING_DATA_DEF;

REGISTER_TILING_DATA_CLASS(AddCustom, AddCustomTilingData)
}  // namespace optiling

#endif  // SAMPLES_ADD_CUSTOM_TILING_H
