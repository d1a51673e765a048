// akgen sim: adv_api/math/sin.h, the CANN 9 include name of the sin API
#pragma once
#include "../../lib/math/kernel_operator_sin_intf.h"
