// Host side of AddCustom (dynamic shape): the tiling function, shape and dtype inference, and the op definition.
//
// The kernel cuts x into one slice per core and every slice into 2 * tileNum tiles, all whole 32-byte blocks, so the
// tiling looks for the most cores that divide the input into such slices, then the fewest tiles whose six buffers
// (x, y and z, two each) fit in UB. Shapes it cannot tile that way are refused with a message, not run wrongly.
#include <cstdint>

#include "add_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t TYPE_SIZE = 2;                   // the op is registered for DT_FLOAT16 only
constexpr uint32_t ALIGN_NUM = 32 / TYPE_SIZE;      // elements in one 32-byte block
constexpr uint32_t BUFFER_NUM = 2;                  // the kernel double-buffers every queue
constexpr uint32_t QUEUE_NUM = 3;                   // x, y and z
constexpr uint32_t MAX_TILE_BYTES = 16 * 1024;      // larger tiles do not move data faster

static ge::graphStatus TilingFunc(gert::TilingContext *context)
{
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    uint64_t ubSize = 0;
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
    const uint32_t coreNum = platform.GetCoreNumAiv();
    const uint64_t totalLength = context->GetInputShape(0)->GetOriginShape().GetShapeSize();
    if (totalLength == 0 || totalLength > UINT32_MAX) {
        return ge::GRAPH_FAILED;
    }

    uint32_t blockDim = coreNum;
    while (blockDim > 1 && totalLength % (static_cast<uint64_t>(blockDim) * ALIGN_NUM) != 0) {
        blockDim--;
    }
    if (totalLength % (static_cast<uint64_t>(blockDim) * ALIGN_NUM) != 0) {
        return ge::GRAPH_FAILED;  // not a whole number of 32-byte blocks: this kernel has no tail handling
    }
    const uint64_t blockLength = totalLength / blockDim;

    uint32_t tileNum = 0;
    for (uint32_t t = 1; static_cast<uint64_t>(t) * BUFFER_NUM * ALIGN_NUM <= blockLength; t++) {
        if (blockLength % (static_cast<uint64_t>(t) * BUFFER_NUM * ALIGN_NUM) != 0) {
            continue;
        }
        const uint64_t tileBytes = blockLength / t / BUFFER_NUM * TYPE_SIZE;
        if (tileBytes <= MAX_TILE_BYTES && tileBytes * BUFFER_NUM * QUEUE_NUM <= ubSize) {
            tileNum = t;
            break;
        }
    }
    if (tileNum == 0) {
        return ge::GRAPH_FAILED;
    }

    AddCustomTilingData tiling;
    tiling.set_totalLength(static_cast<uint32_t>(totalLength));
    tiling.set_tileNum(tileNum);
    context->SetBlockDim(blockDim);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t *workspaceSizes = context->GetWorkspaceSizes(1);
    workspaceSizes[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ge {
static graphStatus InferShape(gert::InferShapeContext *context)
{
    *context->GetOutputShape(0) = *context->GetInputShape(0);
    return GRAPH_SUCCESS;
}

static graphStatus InferDataType(gert::InferDataTypeContext *context)
{
    context->SetOutputDataType(0, context->GetInputDataType(0));
    return GRAPH_SUCCESS;
}
}  // namespace ge

namespace ops {
class AddCustom : public OpDef {
public:
    explicit AddCustom(const char *name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
        this->SetInferShape(ge::InferShape).SetInferDataType(ge::InferDataType);
        this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b").AddConfig("ascend910_93");
    }
};
OP_ADD(AddCustom);
}  // namespace ops
