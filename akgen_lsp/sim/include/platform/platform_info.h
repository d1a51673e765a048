// akgen sim host side: platform/platform_info.h (fe::PlatFormInfos is opaque here).
//
// CANN's platform/platform_info.h includes platform_info_def.h, which puts `using std::map;`,
// `using std::vector;` and `using std::string;` at global scope (metadef inc/common/util/platform_info_def.h).
// Host tiling code that includes this header therefore may write `vector<...>` / `map<...>` unqualified;
// we mirror exactly that, and only in this header, as CANN does.
#pragma once
#include <map>
#include <string>
#include <vector>
#include "../akgen_sim/host/tiling_context.h"

using std::map;
using std::string;
using std::vector;
