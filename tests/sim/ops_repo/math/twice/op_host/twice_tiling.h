// The host side of twice: its compile info (what the UT hands to the tiling context).
#pragma once
#include <cstdint>
#include "log/log.h"
#include "twice_split.h"

namespace optiling {
struct TwiceCompileInfo {
    uint32_t coreNum;
};
}  // namespace optiling
