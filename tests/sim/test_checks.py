"""Runtime checks: each mistake in kernels/checks.cpp is reported at its own line, ends the block (errors) or warns,
and never crashes the launcher."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.findings import Severity
from akgen_lsp.sim import run_manifest

from .conftest import KERNELS, marker_line, needs_gxx

pytestmark = needs_gxx

CHECKS = KERNELS / "checks.cpp"

CASES = [
    (1, "SIM-UB-LIMIT", Severity.ERROR, "exceeds the limit"),
    (2, "SIM-QUE-EMPTY", Severity.ERROR, "DeQue from an empty queue"),
    (3, "SIM-QUE-ALLOC", Severity.ERROR, "no free buffer"),
    (4, "SIM-QUE-DOUBLE-FREE", Severity.ERROR, "double free"),
    (5, "SIM-QUE-LEAK", Severity.WARNING, "still held at kernel end"),
    (6, "SIM-DC-ROUNDDOWN", Severity.WARNING, "not a multiple of 32 B"),
    (7, "SIM-GM-OOB-READ", Severity.ERROR, "out of bounds"),
    (8, "SIM-UB-ALIGN", Severity.ERROR, "which should be 32 byte aligned"),
    (9, "SIM-REPEAT", Severity.ERROR, "out of range [0, 255]"),
    (10, "SIM-SYNC-WAIT-UNSET", Severity.ERROR, "no SetFlag"),
    (12, "SIM-UB-SIZE", Severity.ERROR, "tensor size needs to be at least"),
    (13, "SIM-SYNC-UNPAIRED", Severity.WARNING, "no matching WaitFlag"),
    (14, "SIM-MASK", Severity.ERROR, "out of range [1, 64]"),
    (15, "SIM-TENSOR-FREED", Severity.ERROR, "after FreeTensor"),
    (16, "SIM-QUE-LIVE", Severity.ERROR, "max buffer number in same queue position is 8"),
]


# modes whose check only CANN's CPU debug makes: they end the block in the cpu-debug check mode (the npu mode warns;
# tests/sim/test_check_mode.py)
CPU_DEBUG_ONLY = {1, 12, 15}


def manifest(write_manifest, mode: int, block_dim: int = 1) -> Path:
    x = np.arange(256, dtype=np.float32)
    return write_manifest(CHECKS, "checks", [
        {"name": "x", "input": x},
        {"name": "z", "output": "z.npy", "dtype": "float32", "shape": [256]},
        {"name": "mode", "scalar": mode, "type": "int32_t"},
    ], block_dim=block_dim, checks="cpu-debug" if mode in CPU_DEBUG_ONLY else "npu")


def test_correct_mode_is_clean(write_manifest, tmp_path: Path) -> None:
    res = run_manifest(manifest(write_manifest, 0, block_dim=2), tmp_path / "o", confine=False)
    assert res.status == "ok", [f.message for f in res.findings]
    assert res.findings == []
    np.testing.assert_array_equal(np.load(res.outputs["z"]), np.arange(256, dtype=np.float32) + 1)


@pytest.mark.parametrize(("mode", "code", "severity", "words"), CASES, ids=[c[1] for c in CASES])
def test_check_reported_at_caller_line(write_manifest, tmp_path: Path, mode: int, code: str, severity: Severity,
                                       words: str) -> None:
    res = run_manifest(manifest(write_manifest, mode), tmp_path / "o", confine=False)
    hits = [f for f in res.findings if f.code == code]
    assert hits, f"no {code}; got {[(f.code, f.message) for f in res.findings]}"
    f = hits[0]
    assert f.span.path == str(CHECKS)
    assert f.span.line == marker_line(CHECKS, code)
    assert f.severity is severity
    assert words in f.message
    assert f.source == "akgen-run"
    assert res.status == ("runtime_error" if severity is Severity.ERROR else "ok")


def test_overlapping_gm_writes_across_blocks(write_manifest, tmp_path: Path) -> None:
    res = run_manifest(manifest(write_manifest, 11, block_dim=2), tmp_path / "o", confine=False)
    hits = [f for f in res.findings if f.code == "SIM-GM-OVERLAP"]
    assert hits and hits[0].span.line == marker_line(CHECKS, "SIM-GM-OVERLAP")
    assert "blocks 0 and 1" in hits[0].message


def test_error_in_one_block_does_not_stop_others(write_manifest, tmp_path: Path) -> None:
    res = run_manifest(manifest(write_manifest, 2, block_dim=3), tmp_path / "o", confine=False)
    hits = [f for f in res.findings if f.code == "SIM-QUE-EMPTY"]
    assert len(hits) == 1 and hits[0].data["blocks"] == [0, 1, 2]
