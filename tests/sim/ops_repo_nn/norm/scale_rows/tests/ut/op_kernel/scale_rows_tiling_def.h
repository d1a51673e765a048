// scale_rows's kernel-UT tiling header (ops-nn's <op>_tiling_def.h shape): the struct and its GET_TILING_DATA.
#pragma once
#include <cstdint>
#include "../../../op_kernel/scale_rows_tiling_data.h"

#define GET_TILING_DATA(var, tiling) ScaleRowsTilingData var = *reinterpret_cast<__gm__ ScaleRowsTilingData*>(tiling)
