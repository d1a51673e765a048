// akgen sim host side: platform/platform_info.h (fe::PlatFormInfos is opaque here).
#pragma once
#include "../akgen_sim/host/tiling_context.h"
