// akgen sim: the explicit instantiations that include/akgen_sim/common_inst.h declares for every kernel build.
#define AKGEN_SIM_INSTANTIATE
#include "akgen_sim/pch.h"
#include "akgen_sim/common_inst.h"
