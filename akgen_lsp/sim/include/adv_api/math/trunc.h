// akgen sim: adv_api/math/trunc.h, the CANN 9 include name of the trunc API
#pragma once
#include "../../lib/math/kernel_operator_trunc_intf.h"
