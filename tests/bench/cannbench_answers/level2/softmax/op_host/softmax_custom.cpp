// Host side of SoftmaxCustom (akgen's reference answer for cann-bench's level2/softmax).
//
// x is viewed as [outer, reduce, inner] around the softmax dim (a negative dim counts from the end). The work units
// (rows when inner == 1, else (outer, column tile) pairs) are shared out evenly over the vector cores.
#include "softmax_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint64_t INNER_TILE = 2048;  // float columns per unit: 8 KiB a buffer

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    SoftmaxCustomTilingData tiling;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint64_t cores = platform.GetCoreNumAiv();
    const gert::Shape shape = context->GetInputShape(0)->GetStorageShape();
    const int64_t rank = static_cast<int64_t>(shape.GetDimNum());
    int64_t dim = *context->GetAttrs()->GetAttrPointer<int64_t>(0);
    dim = dim < 0 ? dim + rank : dim;
    if (dim < 0 || dim >= rank) {
        return ge::GRAPH_FAILED;
    }
    uint64_t outer = 1;
    uint64_t inner = 1;
    for (int64_t i = 0; i < dim; ++i) {
        outer *= shape.GetDim(i);
    }
    for (int64_t i = dim + 1; i < rank; ++i) {
        inner *= shape.GetDim(i);
    }
    const uint64_t reduce = shape.GetDim(dim);
    const uint64_t tile = inner < INNER_TILE ? inner : INNER_TILE;
    const uint64_t units = inner == 1 ? outer : outer * ((inner + tile - 1) / tile);
    const uint64_t perCore = (units + cores - 1) / cores;
    tiling.set_outer(outer);
    tiling.set_reduce(static_cast<uint32_t>(reduce));
    tiling.set_inner(inner);
    tiling.set_innerTile(static_cast<uint32_t>(tile));
    tiling.set_unitsPerCore(perCore == 0 ? 1 : perCore);
    context->SetBlockDim(static_cast<uint32_t>(perCore == 0 ? 1 : (units + perCore - 1) / perCore));
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class SoftmaxCustom : public OpDef {
public:
    explicit SoftmaxCustom(const char* name) : OpDef(name)
    {
        this->Input("x")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y")
            .ParamType(REQUIRED)
            .DataType({ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        this->Attr("dim").AttrType(OPTIONAL).Int(-1);
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(SoftmaxCustom);
}  // namespace ops
