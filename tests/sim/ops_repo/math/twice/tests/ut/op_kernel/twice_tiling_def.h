// twice's kernel-UT tiling header, in the shape of ops-nn's <op>_tiling_def.h: the struct and a GET_TILING_DATA of
// its own (given to the kernel with -include), which marks that it was the one used.
#pragma once
#include <cstdint>
#include "../../../op_kernel/twice_tiling_data.h"

extern bool g_twiceUtTilingMacro;
#define GET_TILING_DATA(var, tiling)                                         \
    TwiceTilingData var = *reinterpret_cast<__gm__ TwiceTilingData*>(tiling); \
    g_twiceUtTilingMacro = true
