// akgen sim: kernel_fp16.h, the CPU-debug header that gives host code of kernel UTs the `half` type by this bare name
// (ops-nn: the data_utils.h of dequant_swiglu_quant, swiglu_mx_quant, situ_mx_quant; sync_batch_norm_gather_stats's
// tiling header). The simulator's half (IEEE binary16, round to nearest even) is the one of akgen_sim/types.h.
#pragma once

#include "akgen_sim/types.h"
