// akgen sim host side: op_host/tiling_base_util.h of CANN's operator base library, which many TilingFuncs of ops-math
// and ops-nn include for the base helpers: the log and check macros (log/log.h), the integer helpers
// (CeilDiv, CeilAlign, FloorDiv, FloorAlign: util/math_util.h), the platform figures (GetUbBlockSize, GetVRegSize,
// GetCacheLineSize, IsRegbaseSocVersion: util/platform_util.h), the tiling base class, and EnsureNotScalar: a scalar
// shape (no dims) read as the one-element vector {1}, any other shape as itself.
#ifndef AKGEN_SIM_OPBASE_TILING_BASE_UTIL_H
#define AKGEN_SIM_OPBASE_TILING_BASE_UTIL_H

#include "../log/log.h"
#include "../op_common/op_host/tiling_base_class.h"
#include "../op_common/op_host/util/math_util.h"
#include "../op_common/op_host/util/platform_util.h"

namespace Ops {
namespace Base {
inline const gert::Shape& EnsureNotScalar(const gert::Shape& shape) {
    static const gert::Shape kOne{1};
    return shape.IsScalar() ? kOne : shape;
}
}  // namespace Base
}  // namespace Ops

#endif
