#pragma once
#include "../op_common/op_host/util/platform_util.h"
