// akgen sim: register/tilingdata_base.h of custom-op projects — the tiling macros, as plain structs. Like CANN's, it
// also brings the ge:: types and the gert:: contexts (tiling headers declare helpers on gert::TilingParseContext and
// gert::TilingContext with nothing else included).
#pragma once
#include "../akgen_sim/host/graph.h"
#include "../akgen_sim/host/tiling_context.h"
#include "../akgen_sim/tiling.h"
