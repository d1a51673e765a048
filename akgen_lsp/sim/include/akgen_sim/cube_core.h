// akgen sim: core types of A2/A3 (dav_c220) split builds, and names CANN declares at global scope that cube kernels
// (catlass-style templates) use unqualified.
//
// On the NPU every kernel is compiled once per core type it runs on, with `g_coreType` a constant of that pass:
// AscendC::AIC (1) for the cube core, AscendC::AIV (2) for the vector cores (AscendC::MIX, 0, outside split builds).
// Our build compiles one pass and defines `g_coreType` in the generated glue (akgen_lsp/sim/build.py): the cube pass
// for a kernel that calls the cube instructions (Mmad, LoadData, Fixpipe), the vector pass otherwise.
#pragma once

#include <cstdint>
#include <type_traits>

#include "pipe.h"

namespace AscendC {
constexpr int32_t MIX = 0;
constexpr int32_t AIC = 1;
constexpr int32_t AIV = 2;
}  // namespace AscendC

using AscendC::GetTPipePtr;
using AscendC::QuantMode_t;

namespace AscendC {
// L2 cache hints of GlobalTensor::SetL2CacheHint (no effect on results; CACHE_MODE_DISABLE makes the cost model
// bypass the L2 for the tensor's transfers).
enum class CacheMode { CACHE_MODE_DISABLE = 0, CACHE_MODE_NORMAL = 1, CACHE_MODE_LAST = 2, CACHE_MODE_PERSISTENT = 4 };
enum class CacheRwMode { READ = 1, WRITE = 2, RW = 3 };
}  // namespace AscendC

// bisheng's scalar builtins min/max, callable unqualified in device code: plain (non-template) functions per scalar
// type, so a kernel's own min/max templates (catlass `tla::min`) lose to them on an exact match as they do on the NPU.
// CANN's CPU debug has no such builtins, and some kernel UTs define their own global `int min(int, int)` for the
// kernels they build: the UT build defines AKGEN_UT_OWN_MINMAX for those (op_ut.cmake), and then only theirs exist.
#ifndef AKGEN_UT_OWN_MINMAX
#define AKGEN_SCALAR_MINMAX(T)                                      \
    constexpr T min(T a, T b) { return b < a ? b : a; }             \
    constexpr T max(T a, T b) { return a < b ? b : a; }
AKGEN_SCALAR_MINMAX(int32_t)
AKGEN_SCALAR_MINMAX(uint32_t)
AKGEN_SCALAR_MINMAX(int64_t)
AKGEN_SCALAR_MINMAX(uint64_t)
AKGEN_SCALAR_MINMAX(float)
#undef AKGEN_SCALAR_MINMAX
#endif
