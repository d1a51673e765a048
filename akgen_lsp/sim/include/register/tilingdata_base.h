// akgen sim: register/tilingdata_base.h of custom-op projects — the tiling macros, as plain structs.
#pragma once
#include "../akgen_sim/tiling.h"
