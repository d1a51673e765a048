// akgen sim host side: register/op_impl_registry.h.
#pragma once
#include "op_def_registry.h"
