"""Hostile kernels are contained and reported: an endless loop, a fork bomb, a 100 GB allocation, a write outside the
run directory, reading /etc/passwd, a segfault."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.sim import run_manifest

from .conftest import KERNELS, marker_line, needs_gxx

pytestmark = needs_gxx

HOSTILE = KERNELS / "sandbox.cpp"
ESCAPE = Path("/tmp/akgen_sandbox_escape.txt")


def run_mode(write_manifest, tmp_path: Path, mode: int, **extra):
    m = write_manifest(HOSTILE, "hostile", [
        {"name": "x", "input": np.zeros(8, dtype=np.float32)},
        {"name": "mode", "scalar": mode, "type": "int32_t"},
    ], **extra)
    return run_manifest(m, tmp_path / "o", confine=False)


def test_endless_loop_times_out_with_last_api_location(write_manifest, tmp_path: Path) -> None:
    res = run_mode(write_manifest, tmp_path, 1, timeout_s=2, cpu_s=1)
    assert res.status == "timeout"
    f = next(f for f in res.findings if f.code == "SIM-TIMEOUT")
    assert f.span.path == str(HOSTILE) and f.span.line == marker_line(HOSTILE, "LAST-API")
    assert "SetGlobalBuffer" in f.message


def test_fork_bomb_is_stopped(write_manifest, tmp_path: Path) -> None:
    res = run_mode(write_manifest, tmp_path, 2)
    assert res.status in ("runtime_error", "crash")
    codes = {f.code for f in res.findings}
    assert codes & {"SIM-SANDBOX", "SIM-CRASH"}
    if res.sandbox.get("seccomp"):
        f = next(f for f in res.findings if f.code == "SIM-SANDBOX")
        assert "clone" in f.message or "fork" in f.message


def test_huge_allocation_is_refused(write_manifest, tmp_path: Path) -> None:
    res = run_mode(write_manifest, tmp_path, 3, memory_mb=1024)
    assert res.status == "crash"
    f = next(f for f in res.findings if f.code == "SIM-CRASH")
    assert "SIGABRT" in f.message


def test_write_outside_run_dir_is_blocked(write_manifest, tmp_path: Path) -> None:
    ESCAPE.unlink(missing_ok=True)
    res = run_mode(write_manifest, tmp_path, 4)
    assert not ESCAPE.exists()
    assert res.status == "runtime_error"
    assert any(f.code == "SIM-SANDBOX" and "openat" in f.message for f in res.findings)


def test_reading_etc_passwd_is_blocked(write_manifest, tmp_path: Path) -> None:
    res = run_mode(write_manifest, tmp_path, 5)
    assert "root:" not in res.stdout
    assert res.status == "runtime_error"
    assert any(f.code == "SIM-SANDBOX" for f in res.findings)


def test_segfault_is_a_crash_at_last_api(write_manifest, tmp_path: Path) -> None:
    res = run_mode(write_manifest, tmp_path, 6)
    assert res.status == "crash"
    f = next(f for f in res.findings if f.code == "SIM-CRASH")
    assert "SIGSEGV" in f.message and f.span.line == marker_line(HOSTILE, "LAST-API")


@pytest.mark.parametrize("mode", [0])
def test_benign_mode_reports_sandbox_state(write_manifest, tmp_path: Path, mode: int) -> None:
    res = run_mode(write_manifest, tmp_path, mode)
    assert res.status == "ok"
    assert {"seccomp", "net_isolated", "rlimits"} <= set(res.sandbox)
