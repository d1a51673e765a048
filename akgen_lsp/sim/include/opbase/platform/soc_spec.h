// akgen sim host side: platform/soc_spec.h by the name ops-nn's common/inc/op_host/tiling_util.h includes (177 op_host
// files include that one): the SoC's architecture (NpuArch) and figures come with platform/platform_ascendc.h.
#pragma once

#include "platform/platform_ascendc.h"
