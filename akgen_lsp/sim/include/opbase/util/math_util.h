#pragma once
#include "../op_common/op_host/util/math_util.h"
