"""SetDataPtr of the tiling macros (CANN's TilingDef::SetDataPtr): a TilingFunc binds its tiling data to the raw
tiling buffer and only calls SetDataSize, with no SaveToBuffer (FlashAttentionScoreWithLargeHeadDim's tiling does
this). Every way the host fills the struct must reach the kernel: set_x of a field, set_x of a nested struct's field,
and a whole nested struct assigned at once (MatmulApiTiling::GetTiling's `tiling = ...`)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from akgen_lsp.findings import Severity
from akgen_lsp.sim import SimResult, run_manifest

from .conftest import needs_gxx

pytestmark = needs_gxx

TILING = """
#pragma once
#include "register/tilingdata_base.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(InnerParams)
TILING_DATA_FIELD_DEF(int64_t, a);
TILING_DATA_FIELD_DEF(float, b);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(InnerParamsOp, InnerParams)

BEGIN_TILING_DATA_DEF(BoundTilingData)
TILING_DATA_FIELD_DEF(uint32_t, n);
TILING_DATA_FIELD_DEF_STRUCT(InnerParams, inner);
TILING_DATA_FIELD_DEF_STRUCT(InnerParams, whole);
TILING_DATA_FIELD_DEF_ARR(int32_t, 3, arr);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(Bound, BoundTilingData)
}  // namespace optiling
"""

HOST = """
#include "bound_tiling.h"
#include "register/op_def_registry.h"
namespace optiling {
class BoundTiling {
public:
    explicit BoundTiling(gert::TilingContext* context) : context_(context)
    {
        tilingData.SetDataPtr(context_->GetRawTilingData()->GetData());
    }
    ge::graphStatus DoTiling()
    {
        tilingData.set_n(MODE == 1 ? 0u : 7u);
        tilingData.inner.set_a(40000000000LL);
        tilingData.inner.set_b(2.5f);
        InnerParams p;
        p.set_a(-3);
        p.set_b(0.25f);
        tilingData.whole = p;  // a whole nested struct, as GetTiling fills TCubeTiling
        const int32_t arr[3] = {11, 12, 13};
        tilingData.set_arr(arr);
        context_->GetRawTilingData()->SetDataSize(tilingData.GetDataSize());
        context_->SetBlockDim(1);
        return ge::GRAPH_SUCCESS;
    }
private:
    gert::TilingContext* context_;
    BoundTilingData tilingData;
};
static ge::graphStatus BoundTilingFunc(gert::TilingContext* context)
{
    BoundTiling t(context);
    return t.DoTiling();
}
}  // namespace optiling
namespace ops {
class Bound : public OpDef {
public:
    explicit Bound(const char* name) : OpDef(name)
    {
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
        this->AICore().SetTiling(optiling::BoundTilingFunc);
    }
};
OP_ADD(Bound);
}  // namespace ops
"""

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void bound(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GET_TILING_DATA(t, tiling);
    GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer((__gm__ float*)y, 8);
    yGm.SetValue(0, static_cast<float>(t.n));
    yGm.SetValue(1, static_cast<float>(t.inner.a / 10000000LL));
    yGm.SetValue(2, t.inner.b);
    yGm.SetValue(3, static_cast<float>(t.whole.a));
    yGm.SetValue(4, t.whole.b);
    yGm.SetValue(5, static_cast<float>(t.arr[0] + t.arr[1] + t.arr[2]));
    yGm.SetValue(6, 1.0f);
    yGm.SetValue(7, 1.0f);
}
"""


def errors(res: SimResult) -> list[str]:
    return [f"{f.code}: {f.message}" for f in res.findings if f.severity is Severity.ERROR]


def run(write_manifest, tmp_path: Path, mode: int) -> np.ndarray:
    (tmp_path / "op_host").mkdir(exist_ok=True)
    (tmp_path / "op_kernel").mkdir(exist_ok=True)
    host = tmp_path / "op_host" / f"bound{mode}.cpp"
    host.write_text(f"#define MODE {mode}\n" + HOST, encoding="utf-8")
    (tmp_path / "op_host" / "bound_tiling.h").write_text(TILING, encoding="utf-8")
    kernel = tmp_path / "op_kernel" / "bound.cpp"
    kernel.write_text(KERNEL, encoding="utf-8")
    m = write_manifest(kernel, "bound", [
        {"name": "x", "input": np.zeros(8, np.float32)},
        {"name": "y", "output": "y.npy", "dtype": "float32", "shape": [8]},
        {"name": "workspace", "workspace_bytes": 0},
        {"name": "tiling", "tiling": {"host": str(host)}},
    ])
    data = json.loads(m.read_text())
    del data["block_dim"]
    m.write_text(json.dumps(data))
    res = run_manifest(m, tmp_path / f"o{mode}", confine=False)
    assert res.status == "ok", errors(res)
    return np.load(res.outputs["y"])


def test_bound_tiling_data_reaches_the_kernel_without_save_to_buffer(write_manifest, tmp_path: Path) -> None:
    y = run(write_manifest, tmp_path, 0)
    assert y.tolist() == [7.0, 4000.0, 2.5, -3.0, 0.25, 36.0, 1.0, 1.0]


def test_a_field_set_to_zero_after_binding_is_zero_in_the_kernel(write_manifest, tmp_path: Path) -> None:
    """The buffer holds what the bound struct holds, field by field (here n = 0; the rest as before)."""
    y = run(write_manifest, tmp_path, 1)
    assert y.tolist() == [0.0, 4000.0, 2.5, -3.0, 0.25, 36.0, 1.0, 1.0]
