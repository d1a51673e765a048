#include "tiling_case_executor.h"

#include <cstring>

#include "base/registry/op_impl_space_registry_v2.h"
#include "platform/platform_infos_def.h"

bool ExecuteTiling(const ScaleRowsCase& c, TilingInfo& info)
{
    fe::PlatFormInfos platform;
    platform.Init();
    auto tilingData = gert::TilingData::CreateCap(1024);
    auto workspace = gert::ContinuousVector::Create<size_t>(16);
    gert::TilingContextFaker faker;
    faker.SetOpType(c.opName).NodeIoNum(2, 1);
    faker.NodeInputTd(0, ge::DT_FLOAT, ge::FORMAT_ND, ge::FORMAT_ND, c.dims)
        .NodeInputTd(1, ge::DT_INT64, ge::FORMAT_ND, ge::FORMAT_ND, {1})
        .NodeOutputTd(0, ge::DT_FLOAT, ge::FORMAT_ND, ge::FORMAT_ND, c.dims)
        .ConstInput(1, c.rowsToScale)
        .Attr("alpha", c.alpha);
    faker.CompileInfo(c.compileInfo).PlatformInfo(&platform);
    faker.TilingData(reinterpret_cast<gert::TilingData*>(tilingData.get()));
    faker.Workspace(reinterpret_cast<gert::ContinuousVector*>(workspace.get()));
    gert::KernelRunContextHolder holder = faker.Build();
    auto* context = holder.GetContext<gert::TilingContext>();
    auto registry = gert::DefaultOpImplSpaceRegistryV2::GetInstance().GetSpaceRegistry();
    const gert::OpImplKernelRegistry::OpImplFunctions* f = registry->GetOpImpl(c.opName.c_str());
    if (f == nullptr || f->tiling == nullptr || f->tiling(context) != ge::GRAPH_SUCCESS) {
        return false;
    }
    info.tilingKey = static_cast<int64_t>(context->GetTilingKey());
    info.blockNum = context->GetBlockDim();
    auto* raw = context->GetRawTilingData();
    const auto* bytes = static_cast<const uint8_t*>(raw->GetData());
    info.tilingData.assign(bytes, bytes + raw->GetDataSize());
    return true;
}
