// akgen sim: adv_api/math/tanh.h, the CANN 9 include name of the tanh API
#pragma once
#include "../../lib/math/kernel_operator_tanh_intf.h"
