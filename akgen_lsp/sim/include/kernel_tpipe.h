// akgen sim: kernel_tpipe.h, a CANN include name of the basic API (the whole emulated API is in kernel_operator.h)
#pragma once
#include "kernel_operator.h"
