// akgen sim host side: graph/types.h (ge::DataType, ge::Format and the other ge:: host types).
#pragma once
#include "../../akgen_sim/host/graph.h"
