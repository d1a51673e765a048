// akgen sim host side: Ops::Base::TilingBaseClass of CANN's operator base library (op_host/tiling_base_class.h), the
// base of the repositories' tiling strategies. DoTiling runs the documented steps in order: shape and attribute
// information, platform information, IsCapable (false: GRAPH_PARAM_INVALID, "try the next strategy"), the op's
// tiling, the library APIs' tiling, the workspace, PostTiling; a step that does not succeed ends it with its status;
// at the end the context gets GetTilingKey(). The members derived strategies use keep the library's names.
#ifndef AKGEN_SIM_OPBASE_TILING_BASE_CLASS_H
#define AKGEN_SIM_OPBASE_TILING_BASE_CLASS_H

#include <cstdint>
#include <memory>
#include <sstream>
#include <string>

#include "log/log.h"
#include "tiling/platform/platform_ascendc.h"

namespace Ops {
namespace Base {
struct AiCoreParams {
    uint64_t ubSize = 0;
    uint64_t numBlocks = 0;
    uint64_t aicNum = 0;
    uint64_t l1Size = 0;
    uint64_t l0aSize = 0;
    uint64_t l0bSize = 0;
    uint64_t l0cSize = 0;
};
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

class TilingBaseClass {
public:
    explicit TilingBaseClass(gert::TilingContext* context) : context_(context) {}
    virtual ~TilingBaseClass() = default;

    ge::graphStatus DoTiling() {
        if (context_ == nullptr) return ge::GRAPH_FAILED;
        ge::graphStatus s = GetShapeAttrsInfo();
        if (s != ge::GRAPH_SUCCESS) return s;
        if ((s = GetPlatformInfo()) != ge::GRAPH_SUCCESS) return s;
        if (!IsCapable()) return ge::GRAPH_PARAM_INVALID;
        if ((s = DoOpTiling()) != ge::GRAPH_SUCCESS) return s;
        if ((s = DoLibApiTiling()) != ge::GRAPH_SUCCESS) return s;
        if ((s = GetWorkspaceSize()) != ge::GRAPH_SUCCESS) return s;
        if ((s = PostTiling()) != ge::GRAPH_SUCCESS) return s;
        context_->SetTilingKey(GetTilingKey());
        DumpTilingInfo();
        return ge::GRAPH_SUCCESS;
    }
    virtual void Reset(gert::TilingContext* context) { context_ = context; }

protected:
    virtual bool IsCapable() = 0;
    virtual ge::graphStatus GetPlatformInfo() = 0;
    virtual ge::graphStatus GetShapeAttrsInfo() = 0;
    virtual ge::graphStatus DoOpTiling() = 0;
    virtual ge::graphStatus DoLibApiTiling() = 0;
    [[nodiscard]] virtual uint64_t GetTilingKey() const = 0;
    virtual ge::graphStatus GetWorkspaceSize() = 0;
    virtual ge::graphStatus PostTiling() = 0;
    virtual void DumpTilingInfo() {}
    int64_t DefaultTilingInfoDump() { return 0; }

    // blocks for `sliceNum` vector slices when each cube core drives aiv / aic vector cores
    static uint32_t CalcTschBlockDim(uint32_t sliceNum, uint32_t aicCoreNum, uint32_t aivCoreNum) {
        if (aicCoreNum == 0 || aivCoreNum == 0 || aicCoreNum > aivCoreNum) return sliceNum;
        uint32_t ratio = aivCoreNum / aicCoreNum;
        return (sliceNum + ratio - 1) / ratio;
    }
    template <typename T> [[nodiscard]] std::string GetShapeDebugStr(const T& shape) const {
        return ::Ops::Base::ToString(shape);
    }
    [[nodiscard]] std::string GetTilingContextDebugStr() { return ""; }
    [[nodiscard]] std::string GetTilingDataDebugStr() const { return ""; }

    gert::TilingContext* context_ = nullptr;
    std::unique_ptr<platform_ascendc::PlatformAscendC> ascendcPlatform_{nullptr};
    uint32_t blockDim_{0};
    uint64_t workspaceSize_{0};
    uint64_t tilingKey_{0};
    AiCoreParams aicoreParams_;
};
}  // namespace Base
}  // namespace Ops
#endif
