// akgen sim: adv_api/math/acos.h, the CANN 9 include name of the acos API
#pragma once
#include "../../lib/math/kernel_operator_acos_intf.h"
