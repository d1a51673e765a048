// akgen sim: lib/matrix/matmul/tiling.h, the kernel-side Matmul configuration (MatmulConfig, CFG_NORM / CFG_MDL,
// GetNormalConfig / GetMDLConfig / GetMMConfig, MatmulType, the TCubeTiling struct). All of it is declared by the
// emulated Matmul in lib/matmul_intf.h, which this header includes.
#pragma once

#include "../../matmul_intf.h"
