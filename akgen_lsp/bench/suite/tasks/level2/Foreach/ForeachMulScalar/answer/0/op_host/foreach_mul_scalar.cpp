// Host side of ForeachMulScalar (akgen bundled suite): one slice of whole 64-element chunks per vector core, the
// same slice in each of the three tensors; tiles of at most 4096 elements.
#include "foreach_mul_scalar_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t ALIGN_ELEMS = 64;
constexpr uint32_t TILE_LENGTH = 4096;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ForeachMulScalarTilingData tiling;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv();
    const uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    for (size_t k = 1; k < 3; ++k) {
        if (context->GetInputShape(k)->GetStorageShape().GetShapeSize() != static_cast<int64_t>(total)) {
            return ge::GRAPH_FAILED;  // this kernel handles lists of one shape
        }
    }
    const uint64_t chunks = (total + ALIGN_ELEMS - 1) / ALIGN_ELEMS;
    const uint64_t perCore = ((chunks + cores - 1) / cores) * ALIGN_ELEMS;
    const uint32_t used = perCore == 0 ? 1 : static_cast<uint32_t>((total + perCore - 1) / perCore);
    tiling.set_totalLength(static_cast<uint32_t>(total));
    tiling.set_perCore(static_cast<uint32_t>(perCore));
    tiling.set_tileLength(perCore < TILE_LENGTH ? static_cast<uint32_t>(perCore) : TILE_LENGTH);
    const gert::RuntimeAttrs* attrs = context->GetAttrs();
    const float* scalar = attrs ? attrs->GetFloat(0) : nullptr;
    tiling.set_scalar(scalar ? *scalar : 1.5f);
    context->SetBlockDim(used == 0 ? 1 : used);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class ForeachMulScalar : public OpDef {
public:
    explicit ForeachMulScalar(const char* name) : OpDef(name)
    {
        const char* inputs[] = {"x0", "x1", "x2"};
        const char* outputs[] = {"y0", "y1", "y2"};
        for (const char* n : inputs) {
            this->Input(n)
                .ParamType(REQUIRED)
                .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
                .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        }
        for (const char* n : outputs) {
            this->Output(n)
                .ParamType(REQUIRED)
                .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
                .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        }
        this->Attr("scalar").AttrType(OPTIONAL).Float(1.5f);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ForeachMulScalar);
}  // namespace ops
