// akgen sim: adv_api/reduce/reduce.h, a CANN 9 include name of the high-level API (in kernel_operator.h)
#pragma once
#include "../../kernel_operator.h"
