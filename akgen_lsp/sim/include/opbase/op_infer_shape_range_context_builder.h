// akgen sim host side: the name the operator repositories' UT harness includes (CANN puts base/context_builder/ on
// the UT's include path); the builder is in base/context_builder/op_other_context_builders.h.
#pragma once
#include "base/context_builder/op_other_context_builders.h"
