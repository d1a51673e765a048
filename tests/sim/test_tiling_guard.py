"""An op_kernel tiling header with the same include guard as the op_host one (`#ifndef GUARD_TILING_H` in both, as
msopgen-style projects often have): CANN's kernel build never includes the op_host file, so the kernel's own header
must be seen. The glue includes the op_host header for the tiling struct and used to hide the kernel's header
behind the shared guard ('KernelExtra' was not declared)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from akgen_lsp.findings import Severity
from akgen_lsp.sim import run_manifest

from .conftest import needs_gxx

pytestmark = needs_gxx

HOST_TILING = """
#ifndef GUARD_TILING_H
#define GUARD_TILING_H
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(GuardTilingData)
TILING_DATA_FIELD_DEF(uint32_t, n);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(Guard, GuardTilingData)
}  // namespace optiling
#endif
"""

KERNEL_TILING = """
#ifndef GUARD_TILING_H
#define GUARD_TILING_H
#include <cstdint>
struct KernelExtra {
    static constexpr uint32_t SCALE = 3;
};
#endif
"""

HOST = """
#include "guard_tiling.h"
#include "register/op_def_registry.h"
namespace optiling {
static ge::graphStatus GuardTilingFunc(gert::TilingContext* context)
{
    GuardTilingData t;
    t.set_n(5);
    t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(t.GetDataSize());
    context->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
namespace ops {
class Guard : public OpDef {
public:
    explicit Guard(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::GuardTilingFunc);
    }
};
OP_ADD(Guard);
}  // namespace ops
"""

KERNEL = """
#include "kernel_operator.h"
#include "guard_tiling.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void guard(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer((__gm__ float*)y, 8);
    for (int i = 0; i < 8; ++i) yGm.SetValue(i, static_cast<float>(t.n * KernelExtra::SCALE));
}
"""


def test_kernel_tiling_header_with_the_op_host_guard_is_seen(write_manifest, tmp_path: Path) -> None:
    (tmp_path / "op_host").mkdir()
    (tmp_path / "op_kernel").mkdir()
    (tmp_path / "op_host" / "guard_tiling.h").write_text(HOST_TILING, encoding="utf-8")
    (tmp_path / "op_kernel" / "guard_tiling.h").write_text(KERNEL_TILING, encoding="utf-8")
    host = tmp_path / "op_host" / "guard.cpp"
    host.write_text(HOST, encoding="utf-8")
    kernel = tmp_path / "op_kernel" / "guard.cpp"
    kernel.write_text(KERNEL, encoding="utf-8")
    m = write_manifest(kernel, "guard", [
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
    assert np.load(res.outputs["y"]).tolist() == [15.0] * 8
