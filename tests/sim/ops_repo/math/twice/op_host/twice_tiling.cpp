// The TilingFunc of twice: the element count of each block from the input's shape, two blocks, tiling key 1, one
// workspace of 1 KiB; registered with IMPL_OP_OPTILING as the repositories do, on op_host/tiling_base_util.h.
#include "register/op_impl_registry.h"
#include "op_host/tiling_base_util.h"
#include "twice_tiling.h"
#include "../op_kernel/twice_tiling_data.h"

namespace optiling {
static ge::graphStatus TwiceTiling(gert::TilingContext* context)
{
    const gert::StorageShape* x = context->GetInputShape(0);
    OP_CHECK_IF(x == nullptr, OP_LOGE(context, "no input shape"), return ge::GRAPH_FAILED);
    const auto* info = context->GetCompileInfo<TwiceCompileInfo>();
    OP_CHECK_IF(info == nullptr || info->coreNum < TWICE_BLOCKS, OP_LOGE(context, "too few cores"),
                return ge::GRAPH_FAILED);
    const gert::Shape& shape = Ops::Base::EnsureNotScalar(x->GetStorageShape());
    uint64_t total = static_cast<uint64_t>(shape.GetShapeSize());
    TwiceTilingData* t = context->GetTilingData<TwiceTilingData>();
    t->blockLength = static_cast<uint32_t>(Ops::Base::CeilDiv(total, static_cast<uint64_t>(TWICE_BLOCKS)));
    t->tileLength = TWICE_TILE;
    context->SetBlockDim(TWICE_BLOCKS);
    context->SetTilingKey(1);
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = 1024;
    return ge::GRAPH_SUCCESS;
}
IMPL_OP_OPTILING(Twice).Tiling(TwiceTiling);
}  // namespace optiling
