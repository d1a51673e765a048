// akgen sim host side: Ops::Base::TilingBaseClass of CANN's operator base library (op_host/tiling_base_class.h), the
// base of the repositories' tiling strategies. DoTiling runs the documented steps in order: shape and attribute
// information, platform information, IsCapable (false: GRAPH_PARAM_INVALID, "try the next strategy"), the op's
// tiling, the library APIs' tiling, the workspace, PostTiling; a step that does not succeed ends it with its status;
// at the end the context gets GetTilingKey(). The members derived strategies use keep the library's names.
// One implementation: the steps live in optiling::TilingBaseClass (tiling/tiling_base.h), which this class extends
// with the library's debug-string helper (its AiCoreParams is the same struct; `numBlocks` names its block count).
#ifndef AKGEN_SIM_OPBASE_TILING_BASE_CLASS_H
#define AKGEN_SIM_OPBASE_TILING_BASE_CLASS_H

#include <cstdint>
#include <memory>
#include <sstream>
#include <string>

#include "log/log.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_base.h"

namespace Ops {
namespace Base {
using AiCoreParams = ::optiling::AiCoreParams;
struct CompileInfoCommon {
    uint32_t aivNum = 0;
    uint32_t aicNum = 0;
    uint64_t ubSize = 0;
    uint64_t l1Size = 0;
    uint64_t l0aSize = 0;
    uint64_t l0bSize = 0;
    uint64_t l0cSize = 0;
    uint64_t l2CacheSize = 0;
    int64_t coreNum = 0;
    int32_t socVersion = 0;
    uint32_t rsvd = 0;
};

class TilingBaseClass : public ::optiling::TilingBaseClass {
public:
    explicit TilingBaseClass(gert::TilingContext* context) : ::optiling::TilingBaseClass(context) {}

protected:
    template <typename T> [[nodiscard]] std::string GetShapeDebugStr(const T& shape) const {
        return ::Ops::Base::ToString(shape);
    }
};
}  // namespace Base
}  // namespace Ops
#endif
