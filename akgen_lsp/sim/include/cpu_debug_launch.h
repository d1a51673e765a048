// akgen sim: what CANN's CPU-debug builds of single-source `.asc` programs include (`#ifdef ASCENDC_CPU_DEBUG`).
// Here a kernel launch `kernel<<<blockDim, l2ctrl, stream>>>(args)` is rewritten by `akgen sim run-program` into a
// call of akgen_sim::program_launch (akgen_sim/program.h), so nothing more is needed.
#pragma once

#include "akgen_sim/program.h"
#include "tikicpulib.h"  // CANN's cpu_debug_launch.h includes it: GmAlloc, ICPU_RUN_KF, SetKernelMode
