// akgen sim: adv_api/math/floor.h, the CANN 9 include name of the floor API
#pragma once
#include "../../lib/math/kernel_operator_floor_intf.h"
