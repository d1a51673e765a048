// akgen sim host side: exe_graph/runtime/tiling_context.h, where CANN declares gert::TilingContext (the emulated one:
// akgen_sim/host/tiling_context.h, with the op registry that op_host files use next to it).
#pragma once

#include "../../register/op_def_registry.h"
