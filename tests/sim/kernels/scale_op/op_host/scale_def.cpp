// Test OpDef for Scale: attributes alpha (float) and plus_one (bool), in this order.
#include "register/op_def_registry.h"

namespace ops {
class Scale : public OpDef {
public:
    explicit Scale(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Attr("alpha").AttrType(OPTIONAL).Float(1.0);
        this->Attr("plus_one").AttrType(OPTIONAL).Bool(false);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(Scale);
}  // namespace ops
