// akgen sim: adv_api/math/acosh.h, the CANN 9 include name of the acosh API
#pragma once
#include "../../lib/math/kernel_operator_acosh_intf.h"
