#include "tiling_case_executor.h"

#include <cstring>
#include <map>
#include <string>

#include <nlohmann/json.hpp>

#include "base/registry/op_impl_space_registry_v2.h"
#include "platform/platform_infos_def.h"

bool ExecuteTiling(const gert::TilingContextPara& para, TilingInfo& info)
{
    std::vector<std::unique_ptr<gert::Tensor>> keep;
    std::vector<gert::Tensor*> inputs, outputs;
    for (const auto* list : {&para.inputs_, &para.outputs_}) {
        for (const auto& d : *list) {
            keep.push_back(std::make_unique<gert::Tensor>(d.shape_,
                gert::StorageFormat(d.format_, d.format_, gert::ExpandDimsType()), gert::TensorPlacement::kOnHost,
                d.dtype_, nullptr));
            (list == &para.inputs_ ? inputs : outputs).push_back(keep.back().get());
        }
    }
    fe::PlatFormInfos platform;
    platform.Init();
    auto tilingData = gert::TilingData::CreateCap(4096);
    auto workspace = gert::ContinuousVector::Create<size_t>(16);
    gert::TilingContextFaker faker;
    faker.NodeIoNum(inputs.size(), outputs.size());
    faker.InputTensors(inputs).OutputTensors(outputs);
    auto holder = faker.SetOpType(para.opName_)
                      .CompileInfo(para.compileInfo_)
                      .PlatformInfo(&platform)
                      .TilingData(reinterpret_cast<gert::TilingData*>(tilingData.get()))
                      .Workspace(reinterpret_cast<gert::ContinuousVector*>(workspace.get()))
                      .Build();
    auto hw = nlohmann::json::parse(R"({"CORE_NUM": 48, "UB_SIZE": 196608})");
    std::map<std::string, std::string> soc = {{"ai_core_cnt", std::to_string(hw["CORE_NUM"].get<int>())}};
    gert::TilingContext* context = holder.GetContext();
    context->GetPlatformInfo()->SetPlatformRes("SoCInfo", soc);
    auto registry = gert::DefaultOpImplSpaceRegistryV2::GetInstance().GetSpaceRegistry();
    auto functions = registry->GetOpImpl(para.opName_.c_str());
    if (functions == nullptr || functions->tiling == nullptr || functions->tiling(context) != ge::GRAPH_SUCCESS) {
        return false;
    }
    info.tilingKey = static_cast<int64_t>(context->GetTilingKey());
    info.blockNum = context->GetBlockDim();
    size_t n = context->GetWorkspaceNum();
    const size_t* sizes = context->GetWorkspaceSizes(n);
    for (size_t i = 0; i < n; ++i) info.workspaceSizes.push_back(static_cast<int64_t>(sizes[i]));
    auto* raw = context->GetRawTilingData();
    info.tilingDataSize = raw->GetDataSize();
    info.tilingData = std::make_unique<uint8_t[]>(info.tilingDataSize);
    std::memcpy(info.tilingData.get(), raw->GetData(), info.tilingDataSize);
    return true;
}
