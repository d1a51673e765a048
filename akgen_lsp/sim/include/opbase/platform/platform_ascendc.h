// akgen sim host side: platform/platform_ascendc.h, the spelling of tiling/platform/platform_ascendc.h that CANN also installs
#pragma once
#include "tiling/platform/platform_ascendc.h"

// The NPU architecture (CANN 9's NpuArch, the __NPU_ARCH__ numbers), which host tiling code of ops-math / ops-nn
// names unqualified (histogram_v2: `NpuArch npuArch = NpuArch::DAV_2201;`). The simulator's A2/A3 parts are DAV_2201.
#ifndef AKGEN_SIM_NPU_ARCH_ENUM
#define AKGEN_SIM_NPU_ARCH_ENUM
enum class NpuArch : uint32_t {
    DAV_1001 = 1001, DAV_2002 = 2002, DAV_2201 = 2201, DAV_3002 = 3002, DAV_3003 = 3003, DAV_3102 = 3102,
    DAV_3113 = 3113, DAV_3510 = 3510, DAV_5102 = 5102, DAV_RESV = 0xFFFFFFFFu
};
#endif
