"""SyncAll across blocks: blocks run as fibers and meet at the barrier, so block 0 sees every block's partial sum;
a block that ends without reaching the barrier (a likely NPU hang) is reported at the SyncAll line as a warning."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from akgen_lsp.sim import run_manifest

from .conftest import KERNELS, marker_line, needs_gxx

pytestmark = needs_gxx

SRC = KERNELS / "sync_all.cpp"


def run(write_manifest, tmp_path: Path, skip: int):
    x = np.arange(8 * 64, dtype=np.float32) / 64
    m = write_manifest(SRC, "sync_all", [
        {"name": "x", "input": x},
        {"name": "z", "output": "z.npy", "dtype": "float32", "shape": [8]},
        {"name": "workspace", "workspace_bytes": 256},
        {"name": "skip", "scalar": skip, "type": "int32_t"},
    ], block_dim=8)
    return x, run_manifest(m, tmp_path / f"o{skip}", confine=False)


def test_block_zero_sees_all_partial_sums(write_manifest, tmp_path: Path) -> None:
    x, res = run(write_manifest, tmp_path, 0)
    assert res.status == "ok", [f.message for f in res.findings]
    assert np.load(res.outputs["z"])[0] == np.float32(x.sum())


def test_block_missing_the_barrier_is_reported(write_manifest, tmp_path: Path) -> None:
    _, res = run(write_manifest, tmp_path, 1)
    f = next(f for f in res.findings if f.code == "SIM-SYNCALL-MISSING")
    assert f.span.line == marker_line(SRC, "SIM-SYNCALL-MISSING") and "block 1" in f.message
    assert f.severity.value == "warning"
