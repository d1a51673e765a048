// akgen sim: kernel_tiling/kernel_tiling.h: the tiling structs of the high-level APIs (TCubeTiling, SoftMaxTiling, ...)
// and the tiling macros, as host mains include it.
#pragma once
#include "../akgen_sim/tiling.h"
#include "../akgen_sim/adv_tiling.h"
