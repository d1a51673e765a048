// clamp_scale's kernel-UT header, in the shape of ops-nn's <op>_tiling_def.h (given with -include to the cases and to
// the kernel): CANN's CPU-debug log header, the tiling struct, the input type spelled float_t, and a scalar min of
// the UT's own.
#pragma once
#include <cstdint>
#include <algorithm>
#ifdef ASCENDC_CPU_DEBUG
#include "kernel_log.h"
#endif
#include "../../../op_kernel/clamp_scale_tiling_data.h"

#define DTYPE_X float_t

#define GET_TILING_DATA(var, tiling) ClampScaleTilingData var = *reinterpret_cast<__gm__ ClampScaleTilingData*>(tiling)

constexpr int min(int a, int b) { return std::min(a, b); }
