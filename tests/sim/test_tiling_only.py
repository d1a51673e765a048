"""A kernel build compiles its op_host tiling header with the tiling macros alone when that header needs nothing
else (`glue.tiling_only`; register/tilingdata_base.h without the host API under AKGEN_SIM_TILING_ONLY): CANN's
kernel build never includes the op_host header, and the host API cost every dynamic-shape kernel compile 0.7 s of
parsing and template instantiation. A header that names host types keeps them, and both build and run."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.findings import Severity
from akgen_lsp.sim import run_manifest
from akgen_lsp.sim.build_types import BuildOptions
from akgen_lsp.sim.glue import generate_glue, tiling_only

from .conftest import needs_gxx

REPO = Path(__file__).resolve().parents[2]

MACROS_ONLY = """// tiling data
#pragma once
#include <cstdint>
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(ScaleTilingData)
TILING_DATA_FIELD_DEF(uint32_t, n);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(Scale, ScaleTilingData)
}  // namespace optiling  (a gert::TilingContext in a comment is not code)
"""

NAMES_HOST_TYPES = MACROS_ONLY.replace("}  // namespace optiling", """struct ScaleCompileInfo {};
ge::graphStatus ScaleHelper(gert::TilingContext* context);
}  // namespace optiling""")

HOST = """
#include "scale_tiling.h"
#include "register/op_def_registry.h"
namespace optiling {
static ge::graphStatus ScaleTilingFunc(gert::TilingContext* context)
{
    ScaleTilingData t;
    t.set_n(7);
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
namespace ops {
class Scale : public OpDef {
public:
    explicit Scale(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::ScaleTilingFunc);
    }
};
OP_ADD(Scale);
}  // namespace ops
"""

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void scale(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer((__gm__ float*)y, 8);
    for (int i = 0; i < 8; ++i) yGm.SetValue(i, static_cast<float>(t.n));
}
"""


@pytest.mark.parametrize("text, expected", [
    (MACROS_ONLY, True),
    (NAMES_HOST_TYPES, False),
    (MACROS_ONLY.replace("#include <cstdint>", '#include "tiling/tiling_api.h"'), False),
    (MACROS_ONLY.replace("TILING_DATA_FIELD_DEF(uint32_t, n);", "TILING_DATA_FIELD_DEF(uint32_t, n);\n"
                         "inline std::vector<int> Dims();"), False),
])
def test_which_tiling_headers_need_only_the_macros(tmp_path: Path, text: str, expected: bool) -> None:
    header = tmp_path / "scale_tiling.h"
    header.write_text(text, encoding="utf-8")
    assert tiling_only(header) is expected
    (tmp_path / "scale.cpp").write_text(KERNEL, encoding="utf-8")
    glue = generate_glue([tmp_path / "scale.cpp"], BuildOptions(kernel="scale", signature=[], tiling_header=header))
    lines = glue.splitlines()
    at = lines.index(f'#include "{header}"')
    assert (lines[at - 1] == "#define AKGEN_SIM_TILING_ONLY") is expected
    assert (lines[at + 1] == "#undef AKGEN_SIM_TILING_ONLY") is expected


def test_the_bundled_suites_tiling_headers_need_only_the_macros() -> None:
    headers = sorted((REPO / "akgen_lsp" / "bench" / "suite" / "tasks").glob("*/*/*/answer/*/op_host/*_tiling.h"))
    assert len(headers) >= 20
    assert [h for h in headers if not tiling_only(h)] == []


@needs_gxx
@pytest.mark.parametrize("tiling", [MACROS_ONLY, NAMES_HOST_TYPES], ids=["macros-only", "host-types"])
def test_both_kinds_of_tiling_header_build_and_run(write_manifest, tmp_path: Path, tiling: str) -> None:
    (tmp_path / "op_host").mkdir()
    (tmp_path / "op_kernel").mkdir()
    (tmp_path / "op_host" / "scale_tiling.h").write_text(tiling, encoding="utf-8")
    host = tmp_path / "op_host" / "scale.cpp"
    host.write_text(HOST, encoding="utf-8")
    kernel = tmp_path / "op_kernel" / "scale.cpp"
    kernel.write_text(KERNEL, encoding="utf-8")
    m = write_manifest(kernel, "scale", [
        {"name": "x", "input": np.zeros(8, np.float32)},
        {"name": "y", "output": "y.npy", "dtype": "float32", "shape": [8]},
        {"name": "workspace", "workspace_bytes": 0},
        {"name": "tiling", "tiling": {"host": str(host)}},
    ])
    data = json.loads(m.read_text())
    del data["block_dim"]
    m.write_text(json.dumps(data))
    res = run_manifest(m, tmp_path / "out", confine=False)
    assert res.status == "ok", [f"{f.code}: {f.message}" for f in res.findings if f.severity is Severity.ERROR]
    assert np.load(res.outputs["y"]).tolist() == [7.0] * 8
