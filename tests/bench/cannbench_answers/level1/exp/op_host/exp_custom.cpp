// Host side of ExpCustom (akgen's reference answer for cann-bench's level1/exp).
//
// The elements are cut into slices of whole 64-element chunks, one per vector core (every slice starts 32-byte
// aligned), and each slice into tiles of at most TILE_LENGTH elements. The attrs become the kernel's affine map:
// (x * scale + shift) * ln(base) = x * (scale * ln(base)) + shift * ln(base) when base > 0.
#include "exp_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

#include <cmath>

namespace optiling {
constexpr uint64_t ALIGN_ELEMS = 64;
constexpr uint64_t TILE_LENGTH = 4096;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ExpCustomTilingData tiling;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint64_t cores = platform.GetCoreNumAiv();
    const uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    const uint64_t chunks = (total + ALIGN_ELEMS - 1) / ALIGN_ELEMS;
    const uint64_t perCore = ((chunks + cores - 1) / cores) * ALIGN_ELEMS;
    const uint64_t used = perCore == 0 ? 1 : (total + perCore - 1) / perCore;
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    const float base = *attrs->GetAttrPointer<float>(0);
    const float scale = *attrs->GetAttrPointer<float>(1);
    const float shift = *attrs->GetAttrPointer<float>(2);
    const float k = base > 0.0f ? std::log(base) : 1.0f;
    tiling.set_scale(scale * k);
    tiling.set_shift(shift * k);
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
class ExpCustom : public OpDef {
public:
    explicit ExpCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("base").AttrType(OPTIONAL).Float(-1.0);
        this->Attr("scale").AttrType(OPTIONAL).Float(1.0);
        this->Attr("shift").AttrType(OPTIONAL).Float(0.0);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ExpCustom);
}  // namespace ops
