// akgen sim host side: graph/ge_error_codes.h (ge::graphStatus, GRAPH_SUCCESS / GRAPH_FAILED), defined with the other
// ge:: host types.
#pragma once
#include "../../akgen_sim/host/graph.h"
