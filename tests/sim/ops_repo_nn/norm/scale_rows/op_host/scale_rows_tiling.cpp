// The TilingFunc of scale_rows: rows and columns from the input's shape, alpha from the attribute, the rows to scale
// from the value of a const input; tiling key 7 on A2/A3 (the architecture through the repository's tiling_util.h).
#include "register/op_impl_registry.h"
#include "op_host/tiling_util.h"
#include "../op_kernel/scale_rows_tiling_data.h"

namespace optiling {
static ge::graphStatus ScaleRowsTiling(gert::TilingContext* context)
{
    const gert::StorageShape* x = context->GetInputShape(0);
    const gert::Tensor* rows = context->GetInputTensor(1);
    const float* alpha = context->GetAttrs()->GetAttrPointer<float>(0);
    if (x == nullptr || rows == nullptr || rows->GetData<int64_t>() == nullptr || alpha == nullptr ||
        !FixtureNN::IsA2A3(context) || FixtureNN::FormatName(context->GetInputTensor(0)->GetStorageFormat()) != "ND") {
        return ge::GRAPH_FAILED;
    }
    ScaleRowsTilingData* t = context->GetTilingData<ScaleRowsTilingData>();
    t->rows = static_cast<uint32_t>(x->GetStorageShape().GetDim(0));
    t->cols = static_cast<uint32_t>(x->GetStorageShape().GetDim(1));
    t->rowsToScale = static_cast<uint32_t>(*rows->GetData<int64_t>());
    t->alpha = *alpha;
    context->SetBlockDim(1);
    context->SetTilingKey(7);
    return ge::GRAPH_SUCCESS;
}
IMPL_OP_OPTILING(ScaleRows).Tiling(ScaleRowsTiling);
}  // namespace optiling
