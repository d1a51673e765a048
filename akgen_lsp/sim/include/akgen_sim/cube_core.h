// akgen sim: core types of A2/A3 (dav_c220) split builds, and names CANN declares at global scope that cube kernels
// (catlass-style templates) use unqualified.
//
// On the NPU every kernel is compiled once per core type it runs on, with `g_coreType` a constant of that pass:
// AscendC::AIC (1) for the cube core, AscendC::AIV (2) for the vector cores (AscendC::MIX, 0, outside split builds).
// Our build compiles one pass and defines `g_coreType` in the generated glue (akgen_lsp/sim/build.py): the cube pass
// for a kernel that calls the cube instructions (Mmad, LoadData, Fixpipe), the vector pass otherwise.
#pragma once

#include <cstdint>

#include "pipe.h"

namespace AscendC {
constexpr int32_t MIX = 0;
constexpr int32_t AIC = 1;
constexpr int32_t AIV = 2;
}  // namespace AscendC

using AscendC::GetTPipePtr;
using AscendC::QuantMode_t;
