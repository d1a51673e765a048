// akgen sim host side: tiling/tiling_api.h: the common host includes (platform, registry), the tiling structs of the
// adv APIs, the temporary-buffer size helpers of Sigmoid, Mean and Sum (akgen_sim/host/adv_host_tiling.h) and the
// Matmul tiling API (matmul_tiling::MatmulApiTiling / MultiCoreMatmulTiling, akgen_sim/host/matmul_host_tiling.h).
#pragma once
#include "../register/op_def_registry.h"
#include "platform/platform_ascendc.h"
#include "../akgen_sim/adv_tiling.h"
#include "../akgen_sim/host/adv_host_tiling.h"
#include "../akgen_sim/host/matmul_host_tiling.h"
