"""Max / Min / Maxs / Mins with a NaN operand give NaN whichever operand it is: the Memory vector APIs' INF/NAN mode
(asc-devkit, "Memory矢量计算接口边界值汇总": an input that contains nan gives nan, of no particular sign). The result
does not depend on the operands' order (docs/sim.md, "NaN in Max and Min")."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.sim import run_manifest

from .conftest import needs_gxx

pytestmark = needs_gxx

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void nan_mm(GM_ADDR a, GM_ADDR b, GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> ta, tb, to;
    pipe.InitBuffer(ta, 64 * sizeof(ELEM_T));
    pipe.InitBuffer(tb, 64 * sizeof(ELEM_T));
    pipe.InitBuffer(to, 6 * 64 * sizeof(ELEM_T));
    GlobalTensor<ELEM_T> aGm, bGm, oGm;
    aGm.SetGlobalBuffer((__gm__ ELEM_T*)a, 64);
    bGm.SetGlobalBuffer((__gm__ ELEM_T*)b, 64);
    oGm.SetGlobalBuffer((__gm__ ELEM_T*)out, 6 * 64);
    LocalTensor<ELEM_T> x = ta.Get<ELEM_T>(), y = tb.Get<ELEM_T>(), o = to.Get<ELEM_T>();
    DataCopy(x, aGm, 64);
    DataCopy(y, bGm, 64);
    PipeBarrier<PIPE_ALL>();
    Max(o[0], x, y, 64);
    Max(o[64], y, x, 64);
    Min(o[128], x, y, 64);
    Min(o[192], y, x, 64);
    Maxs(o[256], x, static_cast<ELEM_T>(1), 64);
    Mins(o[320], x, static_cast<ELEM_T>(1), 64);
    PipeBarrier<PIPE_ALL>();
    DataCopy(oGm, o, 6 * 64);
}
"""


@pytest.mark.parametrize("dtype, ctype", [("float32", "float"), ("float16", "half")])
def test_a_nan_operand_gives_nan_whichever_it_is(write_manifest, tmp_path: Path, dtype: str, ctype: str) -> None:
    src = tmp_path / "nan_mm.cpp"
    src.write_text(KERNEL, encoding="utf-8")
    a = np.arange(64).astype(dtype) - 8
    b = (np.arange(64)[::-1]).astype(dtype) - 30
    a[::3] = np.nan
    b[1::5] = np.nan
    m = write_manifest(src, "nan_mm", [
        {"name": "a", "input": a}, {"name": "b", "input": b},
        {"name": "out", "output": "out.npy", "dtype": dtype, "shape": [6 * 64]},
        {"name": "workspace", "workspace_bytes": 0}, {"name": "tiling", "tiling": {"fields": {}}}],
        defines={"ELEM_T": ctype})
    res = run_manifest(m, tmp_path / "out")
    assert res.status == "ok", [f.message for f in res.findings]
    o = np.load(res.outputs["out"]).reshape(6, 64)
    one = np.asarray(1, dtype=dtype)
    for got, want in zip(o, [np.maximum(a, b), np.maximum(b, a), np.minimum(a, b), np.minimum(b, a),
                             np.maximum(a, one), np.minimum(a, one)], strict=True):
        np.testing.assert_array_equal(got, want)  # numpy's maximum / minimum propagate NaN from either side
