// akgen sim: adv_api/math/asin.h, the CANN 9 include name of the asin API
#pragma once
#include "../../lib/math/kernel_operator_asin_intf.h"
