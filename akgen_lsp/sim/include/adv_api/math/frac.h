// akgen sim: adv_api/math/frac.h, the CANN 9 include name of the frac API
#pragma once
#include "../../lib/math/kernel_operator_frac_intf.h"
