// akgen sim: adv_api/math/erfc.h, the CANN 9 include name of the erfc API
#pragma once
#include "../../lib/math/kernel_operator_erfc_intf.h"
