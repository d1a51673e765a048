// Host side of SigmoidCustom (akgen's reference answer for cann-bench's level1/sigmoid).
//
// The elements are cut into slices of whole 64-element chunks, one per vector core (every slice starts 32-byte
// aligned), and each slice into tiles of at most TILE_LENGTH elements.
#include "sigmoid_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint64_t ALIGN_ELEMS = 64;
constexpr uint64_t TILE_LENGTH = 4096;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    SigmoidCustomTilingData tiling;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint64_t cores = platform.GetCoreNumAiv();
    const uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    const uint64_t chunks = (total + ALIGN_ELEMS - 1) / ALIGN_ELEMS;
    const uint64_t perCore = ((chunks + cores - 1) / cores) * ALIGN_ELEMS;
    const uint64_t used = perCore == 0 ? 1 : (total + perCore - 1) / perCore;
    tiling.set_totalLength(total);
    tiling.set_perCore(perCore);
    tiling.set_tileLength(static_cast<uint32_t>(perCore < TILE_LENGTH ? perCore : TILE_LENGTH));
    context->SetBlockDim(static_cast<uint32_t>(used == 0 ? 1 : used));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class SigmoidCustom : public OpDef {
public:
    explicit SigmoidCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(SigmoidCustom);
}  // namespace ops
