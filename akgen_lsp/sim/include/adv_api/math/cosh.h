// akgen sim: adv_api/math/cosh.h, the CANN 9 include name of the cosh API
#pragma once
#include "../../lib/math/kernel_operator_cosh_intf.h"
