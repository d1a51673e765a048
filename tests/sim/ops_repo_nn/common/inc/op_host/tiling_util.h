// The repository's shared host helpers (ours, in the shape of ops-nn's common/inc/op_host/tiling_util.h): the SoC's
// architecture through platform/soc_spec.h, a format's name.
#pragma once
#include <string>
#include "register/op_impl_registry.h"
#include "platform/platform_ascendc.h"
#include "platform/soc_spec.h"

namespace FixtureNN {
inline bool IsA2A3(const gert::TilingContext* context)
{
    return platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCurNpuArch() == NpuArch::DAV_2201;
}
inline std::string FormatName(ge::Format f) { return ge::TypeUtils::FormatToSerialString(ge::GetPrimaryFormat(f)); }
}  // namespace FixtureNN
