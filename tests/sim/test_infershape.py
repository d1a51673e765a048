"""The op's own InferShape / InferDataType in the host runner (akgen_lsp/sim/launcher/host_main.cpp,
gert::InferShapeContext in host/tiling_context.h): run on the call's input shapes, dtypes and attributes, the output
shapes and dtypes they write come back (`HostTiling.inferred`, `infer_outputs`), as CANN's aclnn API allocates its
outputs. Uses a small op_host written here: a (rows, 1) mean output, as AddLayerNorm's."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from akgen_lsp.ascendc.arch import load_arch
from akgen_lsp.sim.host import infer_outputs, run_host_tiling

from .conftest import needs_gxx

pytestmark = needs_gxx

TILING = """
#include "register/op_def_registry.h"
#include "register/tilingdata_base.h"

namespace optiling {
BEGIN_TILING_DATA_DEF(RowStatsTiling)
TILING_DATA_FIELD_DEF(uint32_t, meanDims);
TILING_DATA_FIELD_DEF(uint32_t, meanLast);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(RowStats, RowStatsTiling)

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
    RowStatsTiling tiling;
    const gert::Shape& m = context->GetOutputShape(1)->GetStorageShape();
    tiling.set_meanDims(static_cast<uint32_t>(m.GetDimNum()));
    tiling.set_meanLast(static_cast<uint32_t>(m.GetDim(m.GetDimNum() - 1)));
    context->SetBlockDim(1);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
"""

INFER = """
namespace ge {
static graphStatus RowStatsInferShape(gert::InferShapeContext* context) {
    auto ext = reinterpret_cast<gert::ExtendedKernelContext*>(context);
    size_t n_in = ext->GetComputeNodeInputNum();
    if ((n_in != 2 && n_in != 3) || context->GetComputeNodeOutputNum() != 2) return GRAPH_FAILED;
    const gert::Shape* x = context->GetInputShape(0);
    const gert::Shape* gamma = context->GetInputShape(1);
    if (x == nullptr || gamma == nullptr || x->GetDimNum() < 1) return GRAPH_FAILED;
    if (gamma->GetDim(0) != x->GetDim(x->GetDimNum() - 1)) return GRAPH_FAILED;
    *context->GetOutputShape(0) = *x;
    gert::Shape mean(*x);
    mean.SetDim(mean.GetDimNum() - 1, 1);
    // with the optional bias: the rows are summed over the keep_rows first ones only
    const int64_t* keep = context->GetAttrs()->GetInt(1);
    if (context->GetOptionalInputShape(2) != nullptr && keep != nullptr && *keep > 0) mean.SetDim(0, *keep);
    *context->GetOutputShape(1) = mean;
    return GRAPH_SUCCESS;
}
static graphStatus RowStatsInferDataType(gert::InferDataTypeContext* context) {
    context->SetOutputDataType(0, context->GetInputDataType(0));
    context->SetOutputDataType(1, DT_FLOAT);
    return GRAPH_SUCCESS;
}
}  // namespace ge
"""

OPDEF = """
namespace ops {
class RowStats : public OpDef {
public:
    explicit RowStats(const char* name) : OpDef(name) {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT});
        this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT});
        this->Input("bias").ParamType(OPTIONAL).DataType({ge::DT_FLOAT16, ge::DT_FLOAT});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT});
        this->Output("mean").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT});
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-5);
        this->Attr("keep_rows").AttrType(OPTIONAL).Int(0);
        %s
        this->AICore().AddConfig("ascend910b");
    }
};
OP_ADD(RowStats);
}  // namespace ops
"""


def one_file(tmp_path: Path) -> Path:
    host = tmp_path / "one" / "op_host"
    host.mkdir(parents=True, exist_ok=True)
    src = host / "row_stats.cpp"
    src.write_text(TILING + INFER + OPDEF % ("this->SetInferShape(ge::RowStatsInferShape)"
                   ".SetInferDataType(ge::RowStatsInferDataType); this->AICore().SetTiling(optiling::TilingFunc);"),
                   encoding="utf-8")
    return src


def proto_project(tmp_path: Path) -> Path:
    """The CANN project layout: OpDef, TilingFunc and InferShape in three files, the last in CMake's opsproto."""
    root = tmp_path / "proj"
    host = root / "op_host"
    host.mkdir(parents=True)
    (host / "row_stats_tiling.cpp").write_text(TILING + "IMPL_OP_OPTILING(RowStats).Tiling(optiling::TilingFunc);\n",
                                               encoding="utf-8")
    (host / "row_stats_def.cpp").write_text('#include "register/op_def_registry.h"\n' + OPDEF % "",
                                            encoding="utf-8")
    (host / "row_stats_proto.cpp").write_text('#include "register/op_def_registry.h"\n' + INFER +
                                              "IMPL_OP_INFERSHAPE(RowStats).InferShape(ge::RowStatsInferShape)"
                                              ".InferDataType(ge::RowStatsInferDataType);\n", encoding="utf-8")
    (root / "CMakeLists.txt").write_text(textwrap.dedent("""\
        target_sources(op_host_aclnn PRIVATE op_host/row_stats_def.cpp)
        target_sources(optiling PRIVATE op_host/row_stats_tiling.cpp)
        target_sources(opsproto PRIVATE op_host/row_stats_proto.cpp)
        """), encoding="utf-8")
    return host / "row_stats_def.cpp"


INPUTS = [("x", "float16", (4, 6, 32)), ("gamma", "float16", (32,)), ("bias", "float16", (32,))]
OUTPUTS = [("y", "float16", (4, 6, 32)), ("mean", "float32", (4, 6, 32))]


def test_infershape_gives_a_rows_by_one_output_and_the_dtypes(tmp_path: Path) -> None:
    got = infer_outputs(one_file(tmp_path), INPUTS, OUTPUTS, {"epsilon": 1e-5}, op="RowStats", absent={"bias"})
    assert got == [((4, 6, 32), "float16"), ((4, 6, 1), "float32")]


def test_attributes_and_the_optional_input_reach_infershape(tmp_path: Path) -> None:
    src = one_file(tmp_path)
    got = infer_outputs(src, INPUTS, OUTPUTS, {"keep_rows": 2}, op="RowStats")
    assert got is not None and got[1][0] == (2, 6, 1)
    # without the bias the attribute does not apply (GetOptionalInputShape(2) is nullptr, two inputs counted)
    got = infer_outputs(src, INPUTS, OUTPUTS, {"keep_rows": 2}, op="RowStats", absent={"bias"})
    assert got is not None and got[1][0] == (4, 6, 1)


def test_a_failing_infershape_gives_none(tmp_path: Path) -> None:
    bad = [("x", "float16", (4, 6, 32)), ("gamma", "float16", (16,))]  # gamma does not match x's last dim
    # the shapes are unknown (InferShape returned GRAPH_FAILED); InferDataType still answered
    assert infer_outputs(one_file(tmp_path), bad, OUTPUTS, {}, op="RowStats") == [(None, "float16"),
                                                                                   (None, "float32")]


def test_inference_before_the_tiling_func_leaves_its_output_shapes(tmp_path: Path) -> None:
    res = run_host_tiling(one_file(tmp_path), INPUTS, OUTPUTS, {}, load_arch("Ascend910B2"), op="RowStats",
                          absent={"bias"}, infer=True)
    assert res.ok, [f.message for f in res.findings]
    assert res.inferred[1] == ((4, 6, 1), "float32")
    # the TilingFunc sees the output tensors the caller allocated (3 dims, last 32), not the inferred ones
    assert res.tiling[:8] == (3).to_bytes(4, "little") + (32).to_bytes(4, "little")
    plain = run_host_tiling(one_file(tmp_path), INPUTS, OUTPUTS, {}, load_arch("Ascend910B2"), op="RowStats",
                            absent={"bias"})
    assert plain.ok and plain.inferred == [] and plain.tiling == res.tiling


def test_infershape_registered_in_the_opsproto_file(tmp_path: Path) -> None:
    got = infer_outputs(proto_project(tmp_path), INPUTS, OUTPUTS, {}, op="RowStats", absent={"bias"})
    assert got == [((4, 6, 32), "float16"), ((4, 6, 1), "float32")]


@pytest.mark.parametrize("register", ["", "this->SetInferShape(42);"])
def test_no_usable_inference_gives_none(tmp_path: Path, register: str) -> None:
    host = tmp_path / "none" / "op_host"
    host.mkdir(parents=True)
    src = host / "row_stats.cpp"
    src.write_text(TILING + OPDEF % (register + " this->AICore().SetTiling(optiling::TilingFunc);"),
                   encoding="utf-8")
    assert infer_outputs(src, INPUTS, OUTPUTS, {}, op="RowStats") is None
