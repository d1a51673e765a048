// akgen sim host side: the name the operator repositories' UT harness includes (CANN puts base/context_builder/ on
// the UT's include path).
#pragma once
#include "base/context_builder/op_tiling_context_builder.h"
