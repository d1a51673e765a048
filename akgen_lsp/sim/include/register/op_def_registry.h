// akgen sim host side: register/op_def_registry.h of custom-op projects.
#pragma once
#include <cstdint>
#include <iostream>
#include <map>
#include <set>
#include "../akgen_sim/host/graph.h"
#include "../akgen_sim/host/op_def.h"
#include "../akgen_sim/host/tiling_context.h"
#include "../akgen_sim/tiling.h"
#include "../tiling/platform/platform_ascendc.h"
