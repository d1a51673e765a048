// akgen sim host side: tiling/tiling_base.h of the CANN op repositories: optiling::TilingBaseClass, the template a
// tiling strategy derives from. DoTiling() runs the steps in CANN's order: GetShapeAttrsInfo, GetPlatformInfo,
// IsCapable (false: GRAPH_PARAM_INVALID, so the registry tries the next strategy), DoOpTiling, DoLibApiTiling,
// GetWorkspaceSize, PostTiling, then sets the tiling key; the first step that fails ends it with its status.
// The one implementation: the operator base library's Ops::Base::TilingBaseClass (opbase/op_common/op_host/
// tiling_base_class.h) derives from it, so a strategy of either kind registers with TilingTemplateRegistry.
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
    uint64_t ubSize = 0;
    union {  // the block count: blockDim in the op repositories, numBlocks in the operator base library
        uint64_t blockDim = 0;
        uint64_t numBlocks;
    };
    uint64_t aicNum = 0;
    uint64_t l1Size = 0;
    uint64_t l0aSize = 0;
    uint64_t l0bSize = 0;
    uint64_t l0cSize = 0;
};

class TilingBaseClass {
public:
    explicit TilingBaseClass(gert::TilingContext* context) : context_(context) {}
    TilingBaseClass() = default;
    virtual ~TilingBaseClass() = default;

    ge::graphStatus DoTiling() {
        if (context_ == nullptr) return ge::GRAPH_FAILED;
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
    [[nodiscard]] std::string GetTilingContextDebugStr() { return ""; }
    [[nodiscard]] std::string GetTilingDataDebugStr() const { return ""; }

    gert::TilingContext* context_ = nullptr;
    std::unique_ptr<platform_ascendc::PlatformAscendC> ascendcPlatform_{nullptr};
    uint32_t blockDim_{0};
    uint64_t workspaceSize_{0};
    uint64_t tilingKey_{0};
    AiCoreParams aicoreParams_{0, 0, 0, 0, 0, 0, 0};
};

}  // namespace optiling
