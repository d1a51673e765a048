// akgen sim: lib/activation/softmax.h (the high-level SoftMax; also reachable from kernel_operator.h).
#pragma once
#include "../../kernel_operator.h"
