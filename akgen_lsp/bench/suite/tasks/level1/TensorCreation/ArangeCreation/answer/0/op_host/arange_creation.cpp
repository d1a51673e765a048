// Host side of ArangeCreation (akgen bundled suite): tiling for an element-wise kernel.
//
// The elements are cut into slices of whole 64-element chunks, one slice per vector core (so every slice starts
// 32-byte aligned in any dtype up to 4 bytes), and each slice into tiles of at most TILE_LENGTH elements.
#include "arange_creation_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t ALIGN_ELEMS = 64;
constexpr uint32_t TILE_LENGTH = 2048;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ArangeCreationTilingData tiling;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv();
    const uint64_t total = context->GetOutputShape(0)->GetStorageShape().GetShapeSize();
    const uint64_t chunks = (total + ALIGN_ELEMS - 1) / ALIGN_ELEMS;
    const uint64_t perCore = ((chunks + cores - 1) / cores) * ALIGN_ELEMS;
    const uint32_t used = perCore == 0 ? 1 : static_cast<uint32_t>((total + perCore - 1) / perCore);
    tiling.set_totalLength(static_cast<uint32_t>(total));
    tiling.set_perCore(static_cast<uint32_t>(perCore));
    tiling.set_tileLength(perCore < TILE_LENGTH ? static_cast<uint32_t>(perCore) : TILE_LENGTH);
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    const float* start = attrs ? attrs->GetFloat(0) : nullptr;
    tiling.set_start(start ? *start : -3.0f);
    const float* step = attrs ? attrs->GetFloat(1) : nullptr;
    tiling.set_step(step ? *step : 0.25f);
    context->SetBlockDim(used == 0 ? 1 : used);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class ArangeCreation : public OpDef {
public:
    explicit ArangeCreation(const char* name) : OpDef(name)
    {
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("start").AttrType(OPTIONAL).Float(-3.0f);
        this->Attr("step").AttrType(OPTIONAL).Float(0.25f);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ArangeCreation);
}  // namespace ops
