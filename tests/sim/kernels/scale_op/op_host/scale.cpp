// Test TilingFunc registered with IMPL_OP_OPTILING (the OpDef is in scale_def.cpp).
#include "scale_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus ScaleTiling(gert::TilingContext* context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv();
    const uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    const float* alpha = context->GetAttrs()->GetAttrPointer<float>(0);
    const bool* plusOne = context->GetAttrs()->GetAttrPointer<bool>(1);
    uint32_t blocks = 8 < cores ? 8 : cores;
    if (total % (blocks * 64) != 0) {
        return ge::GRAPH_FAILED;
    }
    ScaleTilingData tiling;
    tiling.set_blockLength(static_cast<uint32_t>(total / blocks));
    tiling.set_alpha(*alpha);
    context->SetBlockDim(blocks);
    context->SetTilingKey(*plusOne ? 2 : 1);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = platform.GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
IMPL_OP_OPTILING(Scale)
    .Tiling(ScaleTiling);
}  // namespace optiling
