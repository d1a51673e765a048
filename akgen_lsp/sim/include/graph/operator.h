// akgen sim host side: graph/operator.h (ge::Operator), the include name op_host files use.
#pragma once
#include "../akgen_sim/host/graph.h"
