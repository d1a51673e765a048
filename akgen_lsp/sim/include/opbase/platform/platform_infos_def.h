// akgen sim host side: platform/platform_infos_def.h (fe::PlatFormInfos, opaque: the host runner answers from
// the arch profile)
#pragma once
#include "platform/platform_info.h"
