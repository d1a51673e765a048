// akgen sim: lib/matmul_intf.h — the high-level Matmul API is not emulated yet (see docs/sim.md, "Not yet").
#pragma once
#include "../kernel_operator.h"
