"""MIX (AIC + AIV) kernels launched by a host program (ICPU_RUN_KF, as CANN's CPU-debug mains do): each block is an
AI Core with its cube core and two vector cores, so a MIX 1:2 kernel with blockDim 1 sees two vector cores
(GetBlockIdx() 0 and 1) and one cube core; it used to see one, and the high-level Matmul samples
(`blockDim = (usedCoreNum + 1) / 2`) then filled half of C. The kind comes from SetKernelMode, or, without one, from
the kernel's source (here `__mix__(1, 2)`); AIV_MODE and vector kernels keep one core per block (AIV_MODE on a MIX
kernel warns: SIM-LAUNCH-CORES). The program is two
translation units (programs/mix_launch: main.cpp and mix_kernel.cpp)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.sim.program import run_program

from .conftest import needs_gxx

pytestmark = needs_gxx

DIR = Path(__file__).resolve().parent / "programs" / "mix_launch"


def run(tmp_path: Path, what: str, blocks: int, findings: list | None = None) -> np.ndarray:
    (tmp_path / "output").mkdir(exist_ok=True)
    res = run_program(DIR, tmp_path, defines={"BLOCKS": str(blocks)}, args=[what])
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    assert len(res.launches) == 1 and res.launches[0]["failed_blocks"] == 0
    if findings is not None:
        findings.extend(res.findings)
    else:
        assert not [f for f in res.findings if f.code == "SIM-LAUNCH-CORES"]
    return np.fromfile(tmp_path / "output" / "z.bin", dtype=np.int32)


@pytest.mark.parametrize("what", ["default", "mix"])
@pytest.mark.parametrize("blocks", [1, 3])
def test_mix_kernel_gets_two_vector_cores_and_a_cube_core_per_block(tmp_path: Path, what: str, blocks: int) -> None:
    z = run(tmp_path, what, blocks)
    aiv = np.arange(2 * blocks)
    np.testing.assert_array_equal(z[:2 * blocks], 100 + aiv)          # vector cores 0 .. 2 * blocks - 1
    assert not z[2 * blocks:64].any()
    np.testing.assert_array_equal(z[64:64 + blocks], 200 + np.arange(blocks))  # one cube core per block
    assert not z[64 + blocks:96].any()
    np.testing.assert_array_equal(z[96:96 + 2 * blocks], 1)          # g_coreType is the running core's


def test_aiv_mode_and_vector_kernels_run_one_core_per_block(tmp_path: Path) -> None:
    found: list = []
    z = run(tmp_path, "aiv", 2, found)
    np.testing.assert_array_equal(z[:2], [100, 101])
    assert not z[2:64].any() and not z[64:96].any()  # no cube core ran
    # ... which the run says, at the launch: the MIX kernel got fewer cores than the chip gives it
    cores = [f for f in found if f.code == "SIM-LAUNCH-CORES"]
    assert cores and "AIV_MODE" in cores[0].message and Path(cores[0].span.path).name == "main.cpp"
    assert "ICPU_RUN_KF(mix_kernel" in (DIR / "main.cpp").read_text().splitlines()[cores[0].span.line - 1]
    z = run(tmp_path, "vec", 2)
    np.testing.assert_array_equal(z[:2], [300, 301])
    assert not z[2:].any()
