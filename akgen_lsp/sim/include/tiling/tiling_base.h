// akgen sim host side: tiling/tiling_base.h of the CANN op repositories: optiling::TilingBaseClass, the template a
// tiling strategy derives from. DoTiling() runs the steps in CANN's order: GetShapeAttrsInfo, GetPlatformInfo,
// IsCapable (false: GRAPH_PARAM_INVALID, so the registry tries the next strategy), DoOpTiling, DoLibApiTiling,
// GetWorkspaceSize, PostTiling, then sets the tiling key; the first step that fails ends it with its status.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "../error/ops_error.h"
#include "../register/op_def_registry.h"
#include "platform/platform_ascendc.h"

namespace optiling {

struct AiCoreParams {
    uint64_t ubSize;
    uint64_t blockDim;
    uint64_t aicNum;
    uint64_t l1Size;
    uint64_t l0aSize;
    uint64_t l0bSize;
    uint64_t l0cSize;
};

class TilingBaseClass {
public:
    explicit TilingBaseClass(gert::TilingContext* context) : context_(context) {}
    TilingBaseClass() = default;
    virtual ~TilingBaseClass() = default;

    ge::graphStatus DoTiling() {
        ge::graphStatus ret = GetShapeAttrsInfo();
        if (ret != ge::GRAPH_SUCCESS) return ret;
        ret = GetPlatformInfo();
        if (ret != ge::GRAPH_SUCCESS) return ret;
        if (!IsCapable()) return ge::GRAPH_PARAM_INVALID;
        ret = DoOpTiling();
        if (ret != ge::GRAPH_SUCCESS) return ret;
        ret = DoLibApiTiling();
        if (ret != ge::GRAPH_SUCCESS) return ret;
        ret = GetWorkspaceSize();
        if (ret != ge::GRAPH_SUCCESS) return ret;
        ret = PostTiling();
        if (ret != ge::GRAPH_SUCCESS) return ret;
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
    virtual uint64_t GetTilingKey() const = 0;
    virtual ge::graphStatus GetWorkspaceSize() = 0;
    virtual ge::graphStatus PostTiling() = 0;
    virtual void DumpTilingInfo() {}

    gert::TilingContext* context_ = nullptr;
    std::unique_ptr<platform_ascendc::PlatformAscendC> ascendcPlatform_{nullptr};
    uint32_t blockDim_{0};
    uint64_t workspaceSize_{0};
    uint64_t tilingKey_{0};
    AiCoreParams aicoreParams_{0, 0, 0, 0, 0, 0, 0};
};

}  // namespace optiling
