"""A kernel that declares a MIX type (KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2)) and sets no kernel mode runs
as CANN's CPU debug runs it: each block is one AIC and two AIVs, each AIV with its own GetBlockIdx() (2 * block +
GetSubBlockIdx()); the AIC skips the vector work, as the library's vector and UB APIs do on the cube core."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from akgen_lsp.findings import Severity
from akgen_lsp.sim import run_manifest

from .conftest import needs_gxx

pytestmark = needs_gxx

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void mix_ids(GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 32);
    LocalTensor<int32_t> t = buf.Get<int32_t>();
    Duplicate(t, static_cast<int32_t>(GetBlockIdx() * 10 + GetSubBlockIdx() + 1), 8);
    PipeBarrier<PIPE_ALL>();
    GlobalTensor<int32_t> zGm;
    zGm.SetGlobalBuffer((__gm__ int32_t*)z + 8 * GetBlockIdx(), 8);
    DataCopy(zGm, t, 8);
}
"""


def test_a_mix_kernel_with_one_block_runs_two_vector_cores(write_manifest, tmp_path: Path) -> None:
    src = tmp_path / "mix_ids.cpp"
    src.write_text(KERNEL, encoding="utf-8")
    m = write_manifest(src, "mix_ids", [
        {"name": "z", "output": "z.npy", "dtype": "int32", "shape": [16]},
        {"name": "workspace", "workspace_bytes": 0}, {"name": "tiling", "tiling": {"fields": {}}}], block_dim=1)
    res = run_manifest(m, tmp_path / "out")
    assert res.status == "ok", [(f.code, f.message) for f in res.findings if f.severity is Severity.ERROR]
    assert [(f.code, f.message) for f in res.findings if f.severity is Severity.WARNING] == []
    z = np.load(res.outputs["z"]).reshape(2, 8)
    assert z[0].tolist() == [1] * 8     # AIV 0: block index 0, sub-block 0
    assert z[1].tolist() == [12] * 8    # AIV 1: block index 1, sub-block 1
