// Host side of EqualCompare (akgen bundled suite): tiling for an element-wise kernel.
//
// The elements are cut into slices of whole 64-element chunks, one slice per vector core (so every slice starts
// 32-byte aligned in any dtype up to 4 bytes), and each slice into tiles of at most TILE_LENGTH elements.
#include "equal_compare_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t ALIGN_ELEMS = 64;
constexpr uint32_t TILE_LENGTH = 2048;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    EqualCompareTilingData tiling;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv();
    const uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    const uint64_t chunks = (total + ALIGN_ELEMS - 1) / ALIGN_ELEMS;
    const uint64_t perCore = ((chunks + cores - 1) / cores) * ALIGN_ELEMS;
    const uint32_t used = perCore == 0 ? 1 : static_cast<uint32_t>((total + perCore - 1) / perCore);
    tiling.set_totalLength(static_cast<uint32_t>(total));
    tiling.set_perCore(static_cast<uint32_t>(perCore));
    tiling.set_tileLength(perCore < TILE_LENGTH ? static_cast<uint32_t>(perCore) : TILE_LENGTH);
    context->SetBlockDim(used == 0 ? 1 : used);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class EqualCompare : public OpDef {
public:
    explicit EqualCompare(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("z")
            .ParamType(REQUIRED)
            .DataType({ge::DT_BOOL, ge::DT_BOOL, ge::DT_BOOL})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(EqualCompare);
}  // namespace ops
