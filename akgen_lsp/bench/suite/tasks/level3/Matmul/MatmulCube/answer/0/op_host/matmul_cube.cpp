// Host side of MatmulCube (akgen bundled suite): M, K, N from the shapes of a [M, K] and b [K, N]; one 128 x 128 block
// of C per cube core and round, as many cores as blocks (at most all of them).
#include "matmul_cube_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
constexpr uint32_t BASE = 128;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
    MatmulCubeTilingData tiling;
    const gert::Shape& a = context->GetInputShape(0)->GetStorageShape();
    const gert::Shape& b = context->GetInputShape(1)->GetStorageShape();
    if (a.GetDimNum() != 2 || b.GetDimNum() != 2 || a.GetDim(1) != b.GetDim(0)) {
        return ge::GRAPH_FAILED;
    }
    const uint32_t m = static_cast<uint32_t>(a.GetDim(0));
    const uint32_t k = static_cast<uint32_t>(a.GetDim(1));
    const uint32_t n = static_cast<uint32_t>(b.GetDim(1));
    if (m % BASE != 0 || k % BASE != 0 || n % BASE != 0) {
        return ge::GRAPH_FAILED;  // this kernel handles multiples of 128 only
    }
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAic();
    const uint32_t blocks = (m / BASE) * (n / BASE);
    tiling.set_m(m);
    tiling.set_k(k);
    tiling.set_n(n);
    context->SetBlockDim(blocks < cores ? blocks : cores);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class MatmulCube : public OpDef {
public:
    explicit MatmulCube(const char* name) : OpDef(name)
    {
        this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_BF16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Input("b").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_BF16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->Output("c").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_BF16}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::TilingFunc);
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(MatmulCube);
}  // namespace ops
