// akgen sim host side: CANN's base/context_builder/op_infer_shape_context_builder.h (base/context_builder/op_other_context_builders.h).
#pragma once
#include "op_other_context_builders.h"
