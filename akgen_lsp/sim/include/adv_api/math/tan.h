// akgen sim: adv_api/math/tan.h, the CANN 9 include name of the tan API
#pragma once
#include "../../lib/math/kernel_operator_tan_intf.h"
