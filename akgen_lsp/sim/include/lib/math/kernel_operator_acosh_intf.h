// akgen sim: lib/math/kernel_operator_acosh_intf.h (the op lives in akgen_sim/vec_math.h).
#pragma once
#include "../../kernel_operator.h"
