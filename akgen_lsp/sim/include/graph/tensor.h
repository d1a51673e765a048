// akgen sim host side: graph/tensor.h (ge::Tensor, ge::TensorDesc), the include name op_host files use.
#pragma once
#include "../akgen_sim/host/graph.h"
