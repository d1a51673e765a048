// clamp_scale's op definition (the part the simulator reads: its inputs' and outputs' dtype lists).
#include "register/op_def_registry.h"

namespace ops {
class ClampScale : public OpDef {
public:
    explicit ClampScale(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(ClampScale);
}  // namespace ops
