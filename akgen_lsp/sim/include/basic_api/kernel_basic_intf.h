// akgen sim: basic_api/kernel_basic_intf.h, a CANN include name of the basic API
#pragma once
#include "../kernel_operator.h"
