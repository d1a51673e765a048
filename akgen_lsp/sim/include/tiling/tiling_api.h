// akgen sim host side: tiling/tiling_api.h. The high-level API tiling helpers (matmul_tiling::MatmulApiTiling,
// SoftMax/LayerNorm tiling functions) are not emulated yet; this header gives the common host includes so that
// op_host files which include it for the platform and registry parts compile.
#pragma once
#include "../register/op_def_registry.h"
#include "platform/platform_ascendc.h"
#include "../akgen_sim/adv_tiling.h"
