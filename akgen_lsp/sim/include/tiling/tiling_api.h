// akgen sim host side: tiling/tiling_api.h: the common host includes (platform, registry), the tiling structs of the
// adv APIs and the temporary-buffer size helpers of Sigmoid, Mean and Sum (akgen_sim/host/adv_host_tiling.h). Other
// adv-API tiling helpers (matmul_tiling::MatmulApiTiling, SoftMax/LayerNorm tiling functions) are not emulated yet.
#pragma once
#include "../register/op_def_registry.h"
#include "platform/platform_ascendc.h"
#include "../akgen_sim/adv_tiling.h"
#include "../akgen_sim/host/adv_host_tiling.h"
