// akgen sim: lib/sigmoid/kernel_operator_sigmoid_intf.h (Sigmoid lives in akgen_sim/vec_math.h).
#pragma once
#include "../../kernel_operator.h"
