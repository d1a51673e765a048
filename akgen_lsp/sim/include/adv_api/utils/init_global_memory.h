// akgen sim: adv_api/utils/init_global_memory.h (Fill / InitGlobalMemory are in kernel_operator.h)
#pragma once
#include "../../kernel_operator.h"
