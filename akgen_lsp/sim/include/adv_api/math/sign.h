// akgen sim: adv_api/math/sign.h, the CANN 9 include name of the sign API
#pragma once
#include "../../lib/math/kernel_operator_sign_intf.h"
