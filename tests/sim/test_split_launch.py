"""Split launches: a kernel that calls cube instructions and cross-core flags is compiled once per core type
(g_coreType AIC / AIV, akgen_lsp/sim/build.py) and each block runs as its AI Core, one AIC fiber and two AIV fibers
(launcher.cpp), with GetBlockIdx/GetSubBlockIdx as on A2/A3 and CrossCoreSetFlag/WaitFlag ordering them
(kernels/split_launch.cpp); a wait nobody will satisfy is reported at its line instead of hanging."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from akgen_lsp.sim import run_manifest
from akgen_lsp.sim.split import can_split, infer_core_type

from .conftest import KERNELS, marker_line, needs_gxx

pytestmark = needs_gxx

SRC = KERNELS / "split_launch.cpp"
BLOCKS = 3


def run(write_manifest, tmp_path: Path, broken: int):
    sq = np.random.default_rng(5).integers(-9, 10, (16, 16)).astype(np.float16)
    m = write_manifest(SRC, "split_launch", [
        {"name": "sq", "input": sq},
        {"name": "eye", "input": np.eye(16, dtype=np.float16)},
        {"name": "ws", "input": np.zeros(BLOCKS * 256, np.float32)},
        {"name": "y", "output": "y.npy", "dtype": "float32", "shape": [BLOCKS, 16, 16]},
        {"name": "z", "output": "z.npy", "dtype": "int32", "shape": [BLOCKS, 8]},
        {"name": "broken", "scalar": broken, "type": "int32_t"},
    ], block_dim=BLOCKS)
    return sq, run_manifest(m, tmp_path / "out", confine=False)


def test_the_build_splits_kernels_with_cube_and_cross_core_calls() -> None:
    text = SRC.read_text(encoding="utf-8")
    assert infer_core_type([text], split=True) == "mix"
    assert infer_core_type([text], split=False) == "aic"


def test_sources_that_cannot_be_included_twice_build_one_pass(tmp_path: Path) -> None:
    def src(name: str, body: str) -> Path:
        p = tmp_path / name
        p.write_text('#include "kernel_operator.h"\n' + body, encoding="utf-8")
        return p

    assert can_split([src("a.cpp", 'using namespace AscendC;\nextern "C" void k() {}\n')])
    assert not can_split([src("b.cpp", 'namespace AscendC { int x; }\nextern "C" void k() {}\n')])
    assert not can_split([src("c.cpp", 'extern "C" void helper() {}\nextern "C" void k() {}\n')])
    assert not can_split([src("d.cpp", '#include "my_header.h"\nextern "C" void k() {}\n')])
    assert not can_split([src("e.cpp", ""), src("f.cpp", "")])


def test_aic_and_aiv_fibers_hand_over_through_cross_core_flags(write_manifest, tmp_path: Path) -> None:
    sq, res = run(write_manifest, tmp_path, broken=0)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    y = np.load(res.outputs["y"])
    for b in range(BLOCKS):
        for s in range(2):
            want = sq[8 * s:8 * s + 8].astype(np.float32) + 1000 * (2 * b + s) + s
            np.testing.assert_array_equal(y[b, 8 * s:8 * s + 8], want)
    assert np.load(res.outputs["z"])[:, 0].tolist() == [7] * BLOCKS  # the AIC passed its wait for both AIV
    # the estimate counts AI Cores (an AIC and its two AIV run side by side), not the nine fibers
    assert res.estimate is not None and res.estimate["blocks"] == BLOCKS and res.estimate["core_kind"] == "AIC"


def test_a_wait_nobody_satisfies_is_a_deadlock_at_its_line(write_manifest, tmp_path: Path) -> None:
    _, res = run(write_manifest, tmp_path, broken=1)
    assert res.status == "runtime_error"
    dead = [f for f in res.findings if f.code == "SIM-CROSSCORE-DEADLOCK"]
    assert dead, [(f.code, f.message) for f in res.findings]
    # the AIV wait at the marker, and the AIC's wait for the AIV that never come
    assert marker_line(SRC, "SIM-CROSSCORE-DEADLOCK") in {f.span.line for f in dead}
    assert all("CrossCoreWaitFlag(3)" in f.message or "CrossCoreWaitFlag(1)" in f.message for f in dead)


def test_syncall_holds_the_two_vector_cores_of_one_block(write_manifest, tmp_path: Path) -> None:
    # blockDim 1 of a MIX kernel is one AI Core with two vector cores: SyncAll must order them (it was skipped with
    # one block, so sub-block 0 read y before sub-block 1 wrote it: CANN's noABshare sample lost half its sum)
    x = np.arange(64, dtype=np.float32)
    m = write_manifest(KERNELS / "syncall_mix.cpp", "syncall_mix", [
        {"name": "x", "input": x}, {"name": "y", "output": "y.npy", "dtype": "float32", "shape": [128]},
    ], block_dim=1)
    res = run_manifest(m, tmp_path / "out", confine=False)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    assert not [f for f in res.findings if f.code in ("SIM-SYNCALL-MISSING", "SIM-GM-OVERLAP")], \
        [(f.code, f.message) for f in res.findings]
    y = np.load(res.outputs["y"])
    np.testing.assert_array_equal(y[64:], x + 1)
    np.testing.assert_array_equal(y[:64], x + 2)
