// akgen sim host side: graph/utils/type_utils.h (ge::TypeUtils).
#pragma once
#include "../../akgen_sim/host/graph.h"
