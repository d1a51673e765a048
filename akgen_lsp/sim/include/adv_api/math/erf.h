// akgen sim: adv_api/math/erf.h, the CANN 9 include name of the erf API
#pragma once
#include "../../lib/math/kernel_operator_erf_intf.h"
