// Host side of ReduceSumLastDim (akgen bundled suite): whole rows per vector core.
#include "reduce_sum_last_dim_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t MAX_COLS = 4096;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    ReduceSumLastDimTilingData tiling;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv();
    const gert::Shape& shape = context->GetInputShape(0)->GetStorageShape();
    const size_t dims = shape.GetDimNum();
    const uint64_t cols = dims == 0 ? 1 : shape.GetDim(dims - 1);
    const uint64_t rows = cols == 0 ? 0 : shape.GetShapeSize() / cols;
    if (cols == 0 || cols > MAX_COLS) {
        return ge::GRAPH_FAILED;
    }
    const uint64_t rowsPerCore = (rows + cores - 1) / cores;
    const uint32_t used = rowsPerCore == 0 ? 1 : static_cast<uint32_t>((rows + rowsPerCore - 1) / rowsPerCore);
    tiling.set_rows(static_cast<uint32_t>(rows));
    tiling.set_cols(static_cast<uint32_t>(cols));
    tiling.set_rowsPerCore(static_cast<uint32_t>(rowsPerCore == 0 ? 1 : rowsPerCore));
    context->SetBlockDim(used);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class ReduceSumLastDim : public OpDef {
public:
    explicit ReduceSumLastDim(const char* name) : OpDef(name)
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
OP_ADD(ReduceSumLastDim);
}  // namespace ops
