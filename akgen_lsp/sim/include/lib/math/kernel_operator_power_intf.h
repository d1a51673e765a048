// akgen sim: lib/math/kernel_operator_power_intf.h (Power lives in akgen_sim/adv_power.h).
#pragma once
#include "../../kernel_operator.h"
