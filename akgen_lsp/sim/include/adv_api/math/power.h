// akgen sim: adv_api/math/power.h, the CANN 9 include name of the power API
#pragma once
#include "../../lib/math/kernel_operator_power_intf.h"
