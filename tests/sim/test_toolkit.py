"""The simulator's CANN toolkit (`akgen sim toolkit`): a CANN-style sample's own CMakeLists builds with cmake and make
against it, in CPU-debug mode (tikicpulib) and NPU mode (ascendc.cmake's ascendc_library and the generated
aclrtlaunch header), with the sample's `-std=c++17 -Wall -Werror`; the binary, started directly as run.sh starts it,
runs the kernel on the simulator, writes the right output and prints findings at the user's line and one line per
launch. A CANN 9 `.asc` project (find_package(ASC), the ASC language) builds the same way. Needs cmake and make."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.sim.toolkit import ensure_toolkit, environment

from .conftest import marker_line, needs_gxx

pytestmark = needs_gxx

HERE = Path(__file__).resolve().parent
SAMPLE = HERE / "programs" / "cmake_sample"


def tools() -> None:
    missing = [t for t in ("cmake", "make") if shutil.which(t) is None]
    assert not missing, f"{' and '.join(missing)} not installed: .ci/run installs them (apt-get install cmake make)"


def sh(cmd: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    res = subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)
    assert res.returncode == 0, f"{' '.join(cmd)}:\n{res.stdout[-3000:]}\n{res.stderr[-3000:]}"
    return res


def build(tmp_path: Path, mode: str, defines: tuple[str, ...] = ()) -> tuple[Path, dict[str, str]]:
    tools()
    root = ensure_toolkit()
    proj = tmp_path / "sample"
    shutil.copytree(SAMPLE, proj)
    env = {**os.environ, **environment(root)}
    if defines:
        # the sample's own sources get the macro (as a user adding it to the CMakeLists would)
        (proj / "CMakeLists.txt").write_text((proj / "CMakeLists.txt").read_text() +
                                             f"add_compile_definitions({' '.join(defines)})\n")
    sh(["cmake", "-B", "build", f"-DRUN_MODE={mode}", "-DSOC_VERSION=Ascend910B1",
        f"-DASCEND_CANN_PACKAGE_PATH={root}"], proj, env)
    sh(["cmake", "--build", "build", "-j", "2"], proj, env)
    sh(["cmake", "--install", "build"], proj, env)
    (proj / "input").mkdir()
    (proj / "output").mkdir()
    np.arange(2048, dtype=np.float32).tofile(proj / "input" / "x.bin")
    return proj, env


@pytest.mark.parametrize("mode", ["cpu", "npu"])
def test_a_sample_builds_with_its_own_cmake_and_runs_on_the_simulator(tmp_path: Path, mode: str) -> None:
    proj, env = build(tmp_path, mode)
    env["LD_LIBRARY_PATH"] = f"{proj / 'out' / 'lib'}:{env.get('LD_LIBRARY_PATH', '')}"
    res = sh([str(proj / "out" / "bin" / "ascendc_kernels_bbit")], proj, env)
    assert "done Ascend910B1" in res.stdout
    z = np.fromfile(proj / "output" / "z.bin", dtype=np.float32)
    np.testing.assert_array_equal(z, np.arange(2048, dtype=np.float32) * 3)
    assert "akgen sim: launch 1 at " in res.stderr and "8 blocks" in res.stderr, res.stderr
    assert "on Ascend910B1 (estimate" in res.stderr  # the SoC the sample was built for
    assert "error:" not in res.stderr
    if mode == "npu":  # ascendc_library installed the library and its launch header (the sample installs neither)
        assert (proj / "out" / "lib" / "libascendc_kernels_npu.so").is_file()
        assert (proj / "out" / "include" / "ascendc_kernels_npu" / "aclrtlaunch_scale_custom.h").is_file()


def test_findings_of_a_direct_run_are_at_the_line_and_in_the_events_file(tmp_path: Path) -> None:
    proj, env = build(tmp_path, "cpu", ("OOB",))
    env["LD_LIBRARY_PATH"] = f"{proj / 'out' / 'lib'}:{env.get('LD_LIBRARY_PATH', '')}"
    env["AKGEN_SIM_EVENTS"] = str(tmp_path / "events.jsonl")
    res = subprocess.run([str(proj / "out" / "bin" / "ascendc_kernels_bbit")], cwd=proj, env=env,
                         capture_output=True, text=True, timeout=300)
    line = marker_line(SAMPLE / "scale_custom.cpp", "SIM-GM-OOB-READ")
    assert f"scale_custom.cpp:{line}:" in res.stderr and "[SIM-GM-OOB-READ, CWE-125] (block 7)" in res.stderr, res.stderr
    assert "1 failed" in res.stderr
    events = [json.loads(x) for x in (tmp_path / "events.jsonl").read_text().splitlines()]
    hits = [e for e in events if e.get("code") == "SIM-GM-OOB-READ"]
    assert hits and hits[0]["line"] == line and hits[0]["file"].endswith("scale_custom.cpp")


ASC_CMAKE = """cmake_minimum_required(VERSION 3.16)
set(CMAKE_ASC_ARCHITECTURES "dav-2201" CACHE STRING "NPU architecture")
find_package(ASC REQUIRED)
project(kernel_samples LANGUAGES ASC CXX)
add_executable(demo vec_add.asc)
target_link_libraries(demo PRIVATE tiling_api register platform m dl)
target_compile_options(demo PRIVATE $<$<COMPILE_LANGUAGE:ASC>:--npu-arch=${CMAKE_ASC_ARCHITECTURES}>)
"""


def test_an_asc_project_builds_with_find_package_asc(tmp_path: Path) -> None:
    tools()
    root = ensure_toolkit()
    proj = tmp_path / "asc"
    proj.mkdir()
    shutil.copy(HERE / "programs" / "vec_add.asc", proj / "vec_add.asc")
    (proj / "CMakeLists.txt").write_text(ASC_CMAKE, encoding="utf-8")
    env = {**os.environ, **environment(root)}
    sh(["cmake", "-B", "build"], proj, env)
    sh(["cmake", "--build", "build"], proj, env)
    run = proj / "build"
    (run / "input").mkdir()
    (run / "output").mkdir()
    x = np.arange(512, dtype=np.float32)
    x.tofile(run / "input" / "x.bin")
    (2 * x).tofile(run / "input" / "y.bin")
    res = sh([str(run / "demo")], run, env)
    np.testing.assert_array_equal(np.fromfile(run / "output" / "z.bin", dtype=np.float32), 3 * x)
    assert "2 blocks" in res.stderr and "on Ascend910B2 (estimate" in res.stderr, res.stderr
