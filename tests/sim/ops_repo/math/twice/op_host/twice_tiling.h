// The host side of twice: its compile info (what the UT hands to the tiling context).
#pragma once
#include <cstdint>
#include "exe_graph/runtime/storage_shape.h"
#include "log/log.h"
#include "twice_split.h"

namespace optiling {
struct TwiceCompileInfo {
    uint32_t coreNum;
};
}  // namespace optiling
