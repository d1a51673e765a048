// akgen sim: adv_api/math/atanh.h, the CANN 9 include name of the atanh API
#pragma once
#include "../../lib/math/kernel_operator_atanh_intf.h"
