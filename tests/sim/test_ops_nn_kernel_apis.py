"""Kernel-side APIs that ops-nn's kernel unit tests need: TQueSync<pipe_t src, pipe_t dst> (the API pages declare its
template parameters as pipes; the event between them is the one SetFlag<HardEvent::SRC_DST> names)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from akgen_lsp.sim import run_manifest

from .conftest import needs_gxx

pytestmark = needs_gxx

QUE_SYNC = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void qsync(GM_ADDR x, GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling)
{
    GlobalTensor<float> xGm, oGm;
    xGm.SetGlobalBuffer((__gm__ float*)x, 64);
    oGm.SetGlobalBuffer((__gm__ float*)out, 64);
    TPipe pipe;
    TBuf<TPosition::VECCALC> buf;
    pipe.InitBuffer(buf, 64 * sizeof(float));
    LocalTensor<float> t = buf.Get<float>();
    TQueSync<PIPE_MTE2, PIPE_V> inSync;
    TQueSync<PIPE_V, PIPE_MTE3> outSync;
    DataCopy(t, xGm, 64);
    inSync.SetFlag(0);
    WaitFlag<HardEvent::MTE2_V>(0);  // the same event as the queue's pipes
    Adds(t, t, 1.0f, 64);
    outSync.SetFlag(1);
    outSync.WaitFlag(1);
    DataCopy(oGm, t, 64);
#ifdef WRONG_EVENT
    TQueSync<PIPE_MTE3, PIPE_V> back;
    back.SetFlag(2);
    WaitFlag<HardEvent::V_MTE3>(2);  // EXPECT SIM-SYNC-WAIT-UNSET: another pair of pipes, another event
#endif
}
"""


def _run(write_manifest, tmp_path: Path, defines: dict[str, str], out: str):
    src = tmp_path / "qsync.cpp"
    src.write_text(QUE_SYNC, encoding="utf-8")
    x = np.arange(64, dtype=np.float32)
    m = write_manifest(src, "qsync", [
        {"name": "x", "input": x}, {"name": "out", "output": "out.npy", "dtype": "float32", "shape": [64]},
        {"name": "workspace", "workspace_bytes": 0}, {"name": "tiling", "tiling": {"fields": {}}}], defines=defines)
    return x, run_manifest(m, tmp_path / out)


def test_tquesync_takes_pipes_and_syncs_their_event(write_manifest, tmp_path: Path) -> None:
    x, res = _run(write_manifest, tmp_path, {}, "ok")
    assert res.status == "ok", [f.message for f in res.findings]
    assert np.array_equal(np.load(res.outputs["out"]), x + 1)
    _, bad = _run(write_manifest, tmp_path, {"WRONG_EVENT": "1"}, "bad")
    assert "SIM-SYNC-WAIT-UNSET" in [f.code for f in bad.findings], [f.message for f in bad.findings]
