"""CANN 6/7 kernel-launch projects (`project(x LANGUAGES CCE CXX)` with their own cmake/Modules that look for ccec):
the toolkit's ccec (akgen-cxx cce) lets such a project configure and build both its CPU-debug target and its CCE
(NPU) target, and its `run.sh -r cpu|npu -v SOC` runs, unchanged, on the simulator. The project is our own
(tests/sim/programs/cce_project), in the shape of those samples. Needs cmake and make."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from akgen_lsp.sim.toolkit import ensure_toolkit
from akgen_lsp.sim.toolkit_cxx import cce_args

from .conftest import needs_gxx

PROJECT = Path(__file__).resolve().parent / "programs" / "cce_project"


def test_cce_args_drop_what_only_the_npu_compiler_reads() -> None:
    args = ["-xcce", "-DX=1", "-I", "inc", "--cce-aicore-arch=dav-c220-vec", "-mllvm", "-cce-aicore-stack-size=0x8000",
            "--cce-auto-sync", "-x", "cce", "-O2", "--cce-aicore-arch", "dav-c220-cube", "-o", "a.o", "-c", "a.cpp"]
    assert cce_args(args) == ["-DX=1", "-I", "inc", "-O2", "-o", "a.o", "-c", "a.cpp"]


@needs_gxx
@pytest.mark.parametrize("mode", ["cpu", "npu"])
def test_a_cce_language_project_configures_builds_and_runs_with_its_run_sh(tmp_path: Path, mode: str) -> None:
    if shutil.which("cmake") is None or shutil.which("make") is None:
        pytest.fail("cmake and make are not installed: .ci/run installs them (apt-get install cmake make)")
    root = ensure_toolkit()
    assert (root / "compiler" / "ccec_compiler" / "bin" / "ccec").is_file()
    proj = tmp_path / "project"
    shutil.copytree(PROJECT, proj)
    env = {**os.environ, "ASCEND_INSTALL_PATH": str(root)}
    res = subprocess.run(["bash", "run.sh", "-r", mode, "-v", "Ascend910B1"], cwd=proj, env=env, capture_output=True,
                         text=True, timeout=900)
    out = res.stdout + res.stderr
    assert res.returncode == 0, out[-4000:]
    assert "Building CCE object" in out and "Linking CCE executable" in out  # the CCE target built with our ccec
    assert "test pass" in out and "8 blocks, 0 failed" in out
