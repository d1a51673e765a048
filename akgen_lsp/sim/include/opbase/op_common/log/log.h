// akgen sim host side: op_common/log/log.h (the same macros as log/log.h)
#pragma once
#include "../../log/log.h"
