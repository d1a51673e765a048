#pragma once
#include "../op_common/op_host/tiling_base_class.h"
