// akgen sim: adv_api/math/asinh.h, the CANN 9 include name of the asinh API
#pragma once
#include "../../lib/math/kernel_operator_asinh_intf.h"
