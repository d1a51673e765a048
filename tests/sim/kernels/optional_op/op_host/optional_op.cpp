// Test op "OptionalOp": inputs x, bias (OPTIONAL), z. The TilingFunc reports what an absent optional input looks like
// to it: tiling key 1 when GetOptionalInputShape(1) is nullptr (2 when bias is there), and in the tiling data the
// first dim of the instance at index 1 (z's when bias is absent: instance indices skip an absent input) and of the
// IR input 2 (z).
#include "optional_op_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus OptionalOpTiling(gert::TilingContext* context)
{
    OptionalOpTilingData tiling;
    const gert::StorageShape* bias = context->GetOptionalInputShape(1);
    const gert::StorageShape* second = context->GetInputShape(1);
    const gert::StorageShape* z = context->GetOptionalInputShape(2);
    tiling.set_secondDim(second ? static_cast<uint32_t>(second->GetStorageShape().GetDim(0)) : 0);
    tiling.set_zDim(z ? static_cast<uint32_t>(z->GetStorageShape().GetDim(0)) : 0);
    tiling.set_hasDesc(context->GetOptionalInputDesc(1) != nullptr ? 1 : 0);
    context->SetBlockDim(1);
    context->SetTilingKey(bias == nullptr ? 1 : 2);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class OptionalOp : public OpDef {
public:
    explicit OptionalOp(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("bias").ParamType(OPTIONAL).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Input("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::OptionalOpTiling);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(OptionalOp);
}  // namespace ops
