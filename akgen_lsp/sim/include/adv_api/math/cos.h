// akgen sim: adv_api/math/cos.h, the CANN 9 include name of the cos API
#pragma once
#include "../../lib/math/kernel_operator_cos_intf.h"
