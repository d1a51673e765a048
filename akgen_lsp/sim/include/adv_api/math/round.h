// akgen sim: adv_api/math/round.h, the CANN 9 include name of the round API
#pragma once
#include "../../lib/math/kernel_operator_round_intf.h"
