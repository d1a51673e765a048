// akgen sim: adv_api/math/log.h, the CANN 9 include name of the log API
#pragma once
#include "../../lib/math/kernel_operator_log_intf.h"
