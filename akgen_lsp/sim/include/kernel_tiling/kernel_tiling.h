// akgen sim: kernel_tiling/kernel_tiling.h.
#pragma once
#include "../akgen_sim/tiling.h"
