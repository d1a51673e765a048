// akgen sim: adv_api/math/atan.h, the CANN 9 include name of the atan API
#pragma once
#include "../../lib/math/kernel_operator_atan_intf.h"
