// akgen sim: adv_api/matmul/matmul.h, the CANN 9 include name of the high-level Matmul
#pragma once
#include "../../lib/matmul_intf.h"
