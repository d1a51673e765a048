// akgen sim: the real API's header name for ListTensorDesc / TensorDesc (see akgen_sim/list_tensor.h).
#pragma once
#include "kernel_operator.h"
