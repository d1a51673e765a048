"""The library's pointer forms of DataCopyPad that kernels of CANN's operator repositories call directly
(akgen_sim/data_copy_raw.h): DataCopyPadGm2UBImpl with strides and right padding, DataCopyPadUB2GMImpl back,
against NumPy; a UB pointer outside every allocated buffer is a finding."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from akgen_lsp.sim import run_manifest

from .conftest import needs_gxx

pytestmark = needs_gxx

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void raw(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GlobalTensor<float> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 40);
    yGm.SetGlobalBuffer((__gm__ float*)y, 32);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 * sizeof(float));
    LocalTensor<float> ub = buf.Get<float>();
    // rows of 10 floats: the first 5 of each (20 bytes, a 20-byte GM gap), 3 pad elements of -1 to fill 32 bytes
    DataCopyExtParams in{4, 5 * sizeof(float), 5 * sizeof(float), 0, 0};
    DataCopyPadExtParams<float> pad{true, 0, 3, -1.0f};
    DataCopyPadGm2UBImpl((__ubuf__ float*)ub.GetPhyAddr(), (__gm__ float*)xGm.GetPhyAddr(), in, pad,
                         static_cast<uint8_t>(0));
    PipeBarrier<PIPE_ALL>();
    DataCopyExtParams out{4, 8 * sizeof(float), 0, 0, 0};
    DataCopyPadUB2GMImpl((__gm__ float*)yGm.GetPhyAddr(), (__ubuf__ float*)ub.GetPhyAddr(), out);
#ifdef AKGEN_BAD_UB
    float notUb[8] = {};
    DataCopyPadGm2UBImpl((__ubuf__ float*)notUb, (__gm__ float*)xGm.GetPhyAddr(), in, pad);
#endif
}
"""


def _run(write_manifest, tmp_path: Path, defines: dict[str, str]):
    src = tmp_path / "raw.cpp"
    src.write_text(KERNEL, encoding="utf-8")
    x = np.arange(40, dtype=np.float32).reshape(4, 10)
    m = write_manifest(src, "raw", [
        {"name": "x", "input": x}, {"name": "y", "output": "y.npy", "dtype": "float32", "shape": [4, 8]},
        {"name": "workspace", "workspace_bytes": 0}, {"name": "tiling", "tiling": {"fields": {}}}], defines=defines)
    return x, run_manifest(m, tmp_path / "out")


def test_pointer_data_copy_pad_matches_numpy(write_manifest, tmp_path: Path) -> None:
    x, res = _run(write_manifest, tmp_path, {})
    assert res.status == "ok", [f.message for f in res.findings]
    want = np.concatenate([x[:, :5], np.full((4, 3), -1.0, np.float32)], axis=1)
    np.testing.assert_array_equal(np.load(res.outputs["y"]), want)


def test_a_pointer_outside_ub_is_a_finding(write_manifest, tmp_path: Path) -> None:
    _, res = _run(write_manifest, tmp_path, {"AKGEN_BAD_UB": "1"})
    assert res.status != "ok"
    assert any(f.code == "SIM-UB-OOB" and "DataCopyPadGm2UBImpl" in f.message for f in res.findings), res.findings
