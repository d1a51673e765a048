// akgen sim: kernel_bf16.h, the CPU-debug header that gives host code of kernel UTs the `bfloat16_t` type by this
// bare name; the simulator's bfloat16_t is the one of akgen_sim/types.h.
#pragma once

#include "akgen_sim/types.h"
