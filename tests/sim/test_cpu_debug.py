"""CANN CPU-debug mains (tikicpulib.h: GmAlloc/GmFree, SetKernelMode, ICPU_SET_TILING_KEY, ICPU_RUN_KF) built and
run as programs (akgen_lsp.sim.program): results against numpy, and a kernel's out-of-bounds read of GmAlloc memory
reported at its line (kernels/cpudebug/add_main.cpp)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from akgen_lsp.sim.program import run_program

from .conftest import KERNELS, marker_line, needs_gxx

pytestmark = needs_gxx

SRC = KERNELS / "cpudebug" / "add_main.cpp"
N = 4 * 256


def workdir(tmp_path: Path) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(11)
    x = rng.standard_normal(N).astype(np.float32)
    y = rng.standard_normal(N).astype(np.float32)
    (tmp_path / "input").mkdir()
    (tmp_path / "output").mkdir()
    x.tofile(tmp_path / "input" / "x.bin")
    y.tofile(tmp_path / "input" / "y.bin")
    return x, y


def test_cpu_debug_main_runs_the_kernel_on_its_blocks(tmp_path: Path) -> None:
    x, y = workdir(tmp_path)
    res = run_program(SRC, tmp_path)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    assert res.exit_code == 0 and "done" in res.stdout
    assert len(res.launches) == 1 and res.launches[0]["blocks"] == 4 and res.launches[0]["failed_blocks"] == 0
    z = np.fromfile(tmp_path / "output" / "z.bin", dtype=np.float32)
    np.testing.assert_array_equal(z, (x + y) * np.float32(2))  # tiling key 2 scales by 2


def test_out_of_bounds_read_of_gmalloc_memory_at_the_kernel_line(tmp_path: Path) -> None:
    workdir(tmp_path)
    res = run_program(SRC, tmp_path, defines={"OOB": "1"})
    oob = [f for f in res.findings if f.code == "SIM-GM-OOB-READ"]
    assert oob, [(f.code, f.message) for f in res.findings]
    assert oob[0].span.line == marker_line(SRC, "SIM-GM-OOB-READ")
