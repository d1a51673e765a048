// akgen sim: register/tilingdata_base.h of custom-op projects — the tiling macros, as plain structs. Like CANN's, it
// also brings the ge:: types and the gert:: contexts (tiling headers declare helpers on gert::TilingParseContext and
// gert::TilingContext with nothing else included).
//
// Except in a kernel build whose op_host tiling header needs only the macros (the glue defines
// AKGEN_SIM_TILING_ONLY around it, see sim/glue.py `tiling_only`): CANN's kernel build never includes the op_host
// header (it generates the struct), and the host API costs a kernel compile 0.7 s of parsing and instantiation.
// No include guard of its own, so that a later include outside that mode still brings the host types (each included
// header has its own).
#include "../akgen_sim/tiling.h"
#ifndef AKGEN_SIM_TILING_ONLY
#include "../akgen_sim/host/graph.h"
#include "../akgen_sim/host/tiling_context.h"
#endif
