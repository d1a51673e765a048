// akgen sim: adv_api/math/sinh.h, the CANN 9 include name of the sinh API
#pragma once
#include "../../lib/math/kernel_operator_sinh_intf.h"
