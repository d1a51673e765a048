"""An optional input the call leaves out (manifest "absent": true) reaches the kernel as a null GM_ADDR, as aclnn
passes it; a kernel that tests for it takes its no-input path, and one that reads it anyway fails at that line."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np

from akgen_lsp.findings import Severity
from akgen_lsp.sim import run_manifest

from .conftest import marker_line, needs_gxx

KERNEL = r"""
#include "kernel_operator.h"
using namespace AscendC;

extern "C" __global__ __aicore__ void scale_opt(GM_ADDR x, GM_ADDR w, GM_ADDR z, int32_t readAnyway)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 2 * 64 * sizeof(float));
    GlobalTensor<float> xGm, wGm, zGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 64);
    zGm.SetGlobalBuffer((__gm__ float*)z, 64);
    LocalTensor<float> t = buf.Get<float>();
    DataCopy(t, xGm, 64);
    PipeBarrier<PIPE_ALL>();
    if (w != nullptr || readAnyway) {
        wGm.SetGlobalBuffer((__gm__ float*)w, 64);
        DataCopy(t[64], wGm, 64);  // EXPECT SIM-GM-NULL
        PipeBarrier<PIPE_ALL>();
        Mul(t, t, t[64], 64);
    } else {
        Muls(t, t, 2.0f, 64);
    }
    PipeBarrier<PIPE_ALL>();
    DataCopy(zGm, t, 64);
}
"""

pytestmark = needs_gxx


def _run(write_manifest: Any, tmp_path: Path, absent: bool, read_anyway: int) -> Any:
    src = tmp_path / "scale_opt.cpp"
    src.write_text(KERNEL.lstrip(), encoding="utf-8")
    w: dict[str, Any] = {"name": "w", "input": np.full(64, 3.0, dtype=np.float32)}
    if absent:
        w["absent"] = True
    m = write_manifest(src, "scale_opt", [
        {"name": "x", "input": np.arange(64, dtype=np.float32)},
        w,
        {"name": "z", "output": "z.npy", "dtype": "float32", "shape": [64]},
        {"name": "readAnyway", "scalar": read_anyway, "type": "int32_t"},
    ])
    return run_manifest(m, tmp_path / f"out-{absent}-{read_anyway}", confine=False)


def test_present_input_is_a_buffer(write_manifest: Any, tmp_path: Path) -> None:
    res = _run(write_manifest, tmp_path, absent=False, read_anyway=0)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    np.testing.assert_array_equal(np.load(res.outputs["z"]), np.arange(64, dtype=np.float32) * 3)


def test_absent_input_is_a_null_gm_addr(write_manifest: Any, tmp_path: Path) -> None:
    res = _run(write_manifest, tmp_path, absent=True, read_anyway=0)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    np.testing.assert_array_equal(np.load(res.outputs["z"]), np.arange(64, dtype=np.float32) * 2)


def test_reading_an_absent_input_fails_at_the_line(write_manifest: Any, tmp_path: Path) -> None:
    res = _run(write_manifest, tmp_path, absent=True, read_anyway=1)
    assert res.status == "runtime_error"
    errors = [f for f in res.findings if f.severity is Severity.ERROR]
    src = tmp_path / "scale_opt.cpp"
    assert [(f.code, f.span.line) for f in errors][:1] == [("SIM-GM-NULL", marker_line(src, "SIM-GM-NULL"))], \
        [(f.code, f.span.line, f.message) for f in res.findings]
