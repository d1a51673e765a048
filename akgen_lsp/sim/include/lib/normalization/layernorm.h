// akgen sim: lib/normalization/layernorm.h (the high-level LayerNorm; also reachable from kernel_operator.h).
#pragma once
#include "../../kernel_operator.h"
