"""Host builds the way a CANN custom-op project's CMakeLists.txt splits op_host/: the TilingFunc (optiling) and OpDef
(op_host_aclnn) sources are built, opsproto and unlisted aclnn sources are not; two libraries that both compile a
header's non-inline function link (as separate shared libraries do in CANN). The TilingParse<CompileInfo> registration
runs once before the TilingFunc reads GetCompileInfo()."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np

from akgen_lsp.sim import run_manifest
from akgen_lsp.sim.host import cmake_host_groups

from .conftest import KERNELS, needs_gxx

CMAKE = """add_ops_compile_options(OP_NAME Op OPTIONS --cce-auto-sync=on)
target_sources(op_host_aclnn PRIVATE
op_host/scale_def.cpp
)
# target_sources(optiling PRIVATE op_host/commented.cpp)
target_sources(optiling PRIVATE
        op_host/scale.cpp
        op_host/missing.cpp
)
target_sources(opsproto PRIVATE op_host/scale_proto.cpp)
target_include_directories(optiling PRIVATE ${CMAKE_CURRENT_SOURCE_DIR}/op_host/scale_tiling.h)
"""


def project(tmp_path: Path, cmake: str | None) -> Path:
    """A copy of the scale op whose def and tiling sources both include a header defining a non-inline function,
    with an InferShape source and an aclnn source that do not compile against our headers."""
    op = tmp_path / "scale_op"
    shutil.copytree(KERNELS / "scale_op", op)
    host = op / "op_host"
    (host / "shared_util.h").write_text("#pragma once\nint SharedMod(int a, int b) { return a % b; }\n",
                                        encoding="utf-8")
    for name in ("scale.cpp", "scale_def.cpp"):
        p = host / name
        p.write_text('#include "shared_util.h"\n' + p.read_text(encoding="utf-8"), encoding="utf-8")
    (host / "scale_proto.cpp").write_text('#include "error/not_ours.h"\n', encoding="utf-8")
    (host / "aclnn_scale.cpp").write_text('#include "aclnn/aclnn_base.h"\n', encoding="utf-8")
    (host / "commented.cpp").write_text("int x = ;\n", encoding="utf-8")
    if cmake is not None:
        (op / "CMakeLists.txt").write_text(cmake, encoding="utf-8")
    return op


def test_groups_follow_the_tiling_and_opdef_targets(tmp_path: Path) -> None:
    op = project(tmp_path, CMAKE)
    groups = cmake_host_groups(op / "op_host")
    assert sorted(sorted(p.name for p in g) for g in groups) == [["scale.cpp"], ["scale_def.cpp"]]


def test_no_cmakelists_or_no_host_target_means_no_groups(tmp_path: Path) -> None:
    assert cmake_host_groups(project(tmp_path / "a", None) / "op_host") == []
    only_proto = "target_sources(opsproto PRIVATE op_host/scale_proto.cpp)\n"
    assert cmake_host_groups(project(tmp_path / "b", only_proto) / "op_host") == []


@needs_gxx
def test_split_project_builds_and_runs_its_tiling(write_manifest, tmp_path: Path) -> None:
    op = project(tmp_path, CMAKE)
    x = np.arange(8 * 256, dtype=np.float32)
    m = write_manifest(op / "op_kernel" / "scale.cpp", "scale", [
        {"name": "x", "input": x},
        {"name": "y", "output": "y.npy", "dtype": "float32", "shape": [x.size]},
        {"name": "workspace", "workspace_bytes": 0},
        {"name": "tiling", "tiling": {"host": str(op / "op_host" / "scale.cpp"),
                                      "attrs": {"alpha": 0.5, "plus_one": True}}},
    ])
    data = json.loads(m.read_text())
    del data["block_dim"]
    m.write_text(json.dumps(data))
    res = run_manifest(m, tmp_path / "o", confine=False)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    np.testing.assert_array_equal(np.load(res.outputs["y"]), x * 0.5 + 1.0)


PARSE = """
namespace optiling {
struct ScaleCompileInfo {
    uint32_t coreNum = 0;
    uint64_t ubSize = 0;
    int parses = 0;
};
static ge::graphStatus ScaleParse(gert::TilingParseContext* context)
{
    auto* info = context->GetCompiledInfo<ScaleCompileInfo>();
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    info->coreNum = platform.GetCoreNumAiv();
    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, info->ubSize);
    info->parses += 1;
    return ge::GRAPH_SUCCESS;
}
static ge::graphStatus ScaleTilingFromInfo(gert::TilingContext* context)
{
    const auto* info = context->GetCompileInfo<ScaleCompileInfo>();
    const auto* again = reinterpret_cast<const ScaleCompileInfo*>(context->GetCompileInfo());
    if (info->coreNum == 0 || info->ubSize == 0 || info->parses != 1 || again != info) {
        return ge::GRAPH_FAILED;
    }
    const uint64_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
    uint32_t blocks = info->coreNum < 4 ? info->coreNum : 4;
    ScaleTilingData tiling;
    tiling.set_blockLength(static_cast<uint32_t>(total / blocks));
    tiling.set_alpha(*context->GetAttrs()->GetAttrPointer<float>(0));
    context->SetBlockDim(blocks);
    context->SetTilingKey(1);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* ws = context->GetWorkspaceSizes(1);
    ws[0] = platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetLibApiWorkSpaceSize();
    return ge::GRAPH_SUCCESS;
}
IMPL_OP_OPTILING(Scale).Tiling(ScaleTilingFromInfo).TilingParse<ScaleCompileInfo>(ScaleParse);
}  // namespace optiling
"""


@needs_gxx
def test_tiling_parse_fills_the_compile_info_once(write_manifest, tmp_path: Path) -> None:
    op = tmp_path / "scale_op"
    shutil.copytree(KERNELS / "scale_op", op)
    host = op / "op_host" / "scale.cpp"
    text = host.read_text(encoding="utf-8")
    host.write_text(text[:text.index("namespace optiling")] + PARSE, encoding="utf-8")
    x = np.arange(4 * 256, dtype=np.float32)
    m = write_manifest(op / "op_kernel" / "scale.cpp", "scale", [
        {"name": "x", "input": x},
        {"name": "y", "output": "y.npy", "dtype": "float32", "shape": [x.size]},
        {"name": "workspace", "workspace_bytes": 0},
        {"name": "tiling", "tiling": {"host": str(host), "attrs": {"alpha": 2.0, "plus_one": False}}},
    ])
    data = json.loads(m.read_text())
    del data["block_dim"]
    m.write_text(json.dumps(data))
    res = run_manifest(m, tmp_path / "o", confine=False)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    np.testing.assert_array_equal(np.load(res.outputs["y"]), x * 2.0)
    assert res.estimate["blocks"] == 4


STRATEGIES = """
#include "tiling/tiling_base.h"
#include "tiling/tiling_templates_registry.h"
#include "tiling/tiling_api.h"
#include "error/ops_error.h"

namespace optiling {
class ScaleNever : public TilingBaseClass {  // priority 5: never capable, the registry moves on
public:
    explicit ScaleNever(gert::TilingContext* c) : TilingBaseClass(c) {}
protected:
    bool IsCapable() override { return false; }
    ge::graphStatus GetPlatformInfo() override { return ge::GRAPH_SUCCESS; }
    ge::graphStatus GetShapeAttrsInfo() override { return ge::GRAPH_SUCCESS; }
    ge::graphStatus DoOpTiling() override { return ge::GRAPH_FAILED; }
    ge::graphStatus DoLibApiTiling() override { return ge::GRAPH_FAILED; }
    uint64_t GetTilingKey() const override { return 9; }
    ge::graphStatus GetWorkspaceSize() override { return ge::GRAPH_FAILED; }
    ge::graphStatus PostTiling() override { return ge::GRAPH_FAILED; }
};
class ScaleSplit : public TilingBaseClass {  // priority 7: splits over 4 blocks
public:
    explicit ScaleSplit(gert::TilingContext* c) : TilingBaseClass(c) {}
protected:
    bool IsCapable() override { return total_ % (4 * 64) == 0; }
    ge::graphStatus GetPlatformInfo() override {
        auto platform = platform_ascendc::PlatformAscendC(context_->GetPlatformInfo());
        platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, aicoreParams_.ubSize);
        return aicoreParams_.ubSize > 0 ? ge::GRAPH_SUCCESS : ge::GRAPH_FAILED;
    }
    ge::graphStatus GetShapeAttrsInfo() override {
        auto shape = context_->GetInputShape(0);
        OPS_CHECK_NULL_WITH_CONTEXT(context_, shape);
        total_ = shape->GetStorageShape().GetShapeSize();
        alpha_ = *context_->GetAttrs()->GetAttrPointer<float>(0);
        return ge::GRAPH_SUCCESS;
    }
    ge::graphStatus DoOpTiling() override {
        ScaleTilingData tiling;
        tiling.set_blockLength(static_cast<uint32_t>(total_ / 4));
        tiling.set_alpha(alpha_);
        tiling.SaveToBuffer(context_->GetRawTilingData()->GetData(), context_->GetRawTilingData()->GetCapacity());
        context_->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
        context_->SetBlockDim(4);
        return ge::GRAPH_SUCCESS;
    }
    ge::graphStatus DoLibApiTiling() override { return ge::GRAPH_SUCCESS; }
    uint64_t GetTilingKey() const override { return 2; }
    ge::graphStatus GetWorkspaceSize() override {
        context_->GetWorkspaceSizes(1)[0] = 16 * 1024 * 1024;
        return ge::GRAPH_SUCCESS;
    }
    ge::graphStatus PostTiling() override { return ge::GRAPH_SUCCESS; }
private:
    int64_t total_ = 0;
    float alpha_ = 1.0f;
};
REGISTER_TILING_TEMPLATE("Scale", ScaleSplit, 7);
REGISTER_TILING_TEMPLATE("Scale", ScaleNever, 5);
static ge::graphStatus ScaleByRegistry(gert::TilingContext* context)
{
    uint32_t maxTmp = 0, minTmp = 0;
    AscendC::GetSigmoidMaxMinTmpSize(ge::Shape({4, 100}), 2, false, maxTmp, minTmp);
    uint32_t meanMax = 0, meanMin = 0, sumMax = 0, sumMin = 0;
    AscendC::GetMeanMaxMinTmpSize(1000, 2, 4, false, meanMax, meanMin);
    AscendC::GetSumMaxMinTmpSize(1000, 4, false, sumMax, sumMin);
    // library sizes: sigmoid max(n * typeSize, 256) / 256; mean (2, 4): 32 + inner (1008) * 4 = 4064; sum: 16 repeats -> 64 B
    if (maxTmp != 800 || minTmp != 256 || meanMax != 4064 || meanMin != 4064 || sumMax != 64 || sumMin != 64) {
        return ge::GRAPH_FAILED;
    }
    return TilingRegistry::GetInstance().DoTilingImpl(context);
}
IMPL_OP_OPTILING(Scale).Tiling(ScaleByRegistry);
}  // namespace optiling
"""


@needs_gxx
def test_tiling_base_class_strategies_by_priority(write_manifest, tmp_path: Path) -> None:
    """The registry skips the strategy that is not capable and runs the next one through CANN's steps; the tiling key
    comes from GetTilingKey (2: the kernel adds 1); the adv-API tmp-size helpers give the library's sizes."""
    op = tmp_path / "scale_op"
    shutil.copytree(KERNELS / "scale_op", op)
    host = op / "op_host" / "scale.cpp"
    text = host.read_text(encoding="utf-8")
    host.write_text(text[:text.index("namespace optiling")] + STRATEGIES, encoding="utf-8")
    x = np.arange(4 * 256, dtype=np.float32)
    m = write_manifest(op / "op_kernel" / "scale.cpp", "scale", [
        {"name": "x", "input": x},
        {"name": "y", "output": "y.npy", "dtype": "float32", "shape": [x.size]},
        {"name": "workspace", "workspace_bytes": 0},
        {"name": "tiling", "tiling": {"host": str(host), "attrs": {"alpha": 3.0, "plus_one": False}}},
    ])
    data = json.loads(m.read_text())
    del data["block_dim"]
    m.write_text(json.dumps(data))
    res = run_manifest(m, tmp_path / "o", confine=False)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    np.testing.assert_array_equal(np.load(res.outputs["y"]), x * 3.0 + 1.0)
    assert res.estimate["blocks"] == 4


def test_kernel_side_names_of_a_tiling_header(tmp_path: Path) -> None:
    """The glue's view of a tiling header: the struct registered for the kernel's op (not a nested struct registered
    under another name) and only the header's types brought to global scope, not its constants."""
    from akgen_lsp.sim.glue import optiling_type_names, tiling_struct_name

    h = tmp_path / "t.h"
    h.write_text("""#include "register/tilingdata_base.h"
namespace optiling {
constexpr size_t MAX_DIM_NUM = 8;  // struct NotAType {
BEGIN_TILING_DATA_DEF(BaseTiling)
TILING_DATA_FIELD_DEF(uint32_t, a);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(BaseTilingOp, BaseTiling)
BEGIN_TILING_DATA_DEF(FusedOpTilingData)
TILING_DATA_FIELD_DEF_STRUCT(BaseTiling, base);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(FusedOp, FusedOpTilingData)
struct FusedOpCompileInfo { uint32_t coreNum = 0; };
enum class FusedOpKey : int { A = 1 };
inline int Helper() { struct Local { int x; }; return 0; }
}  // namespace optiling
""", encoding="utf-8")
    assert tiling_struct_name(h, None, "fused_op") == "optiling::FusedOpTilingData"
    assert tiling_struct_name(h, None, "other") == "optiling::BaseTiling"
    assert tiling_struct_name(h, "Given", "fused_op") == "optiling::Given"
    assert optiling_type_names(h.read_text(encoding="utf-8")) == [
        "BaseTiling", "FusedOpTilingData", "FusedOpCompileInfo", "FusedOpKey"]
