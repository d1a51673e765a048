// akgen sim host side: graph/ascend_string.h (ge::AscendString, defined with the other ge:: host types).
#pragma once
#include "../../akgen_sim/host/graph.h"
