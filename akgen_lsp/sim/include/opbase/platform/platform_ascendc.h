// akgen sim host side: platform/platform_ascendc.h, the spelling of tiling/platform/platform_ascendc.h that CANN also installs
#pragma once
#include "tiling/platform/platform_ascendc.h"
