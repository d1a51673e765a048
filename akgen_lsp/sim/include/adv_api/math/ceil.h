// akgen sim: adv_api/math/ceil.h, the CANN 9 include name of the ceil API
#pragma once
#include "../../lib/math/kernel_operator_ceil_intf.h"
