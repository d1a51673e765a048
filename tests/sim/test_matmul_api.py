"""The host Matmul tiling API (matmul_tiling::MatmulApiTiling / MultiCoreMatmulTiling filling a TCubeTiling) and the
high-level Matmul fed by it, in one single-source program (programs/matmul_api.asc): the tiling respects the L1 /
L0 sizes of the profile and the alignment rules, the cores cover C, and C = A x B (+ bias) matches numpy."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.sim.program import cube_kernels, rewrite_launches, run_program

from .conftest import needs_gxx

pytestmark = needs_gxx

PROGRAMS = Path(__file__).resolve().parent / "programs"
PROGRAM = PROGRAMS / "matmul_api.asc"
L0A = L0B = 65536
L0C = 131072
L1 = 524288 - 256  # Ascend910B keeps 256 bytes of L1 for KFC


def run(tmp_path: Path, m: int, n: int, k: int, dim: int, bias: bool = True, trans: tuple[bool, bool] = (False, False),
        fix: tuple[int, int, int] | None = None) -> tuple[dict[str, int], np.ndarray, np.ndarray]:
    rng = np.random.default_rng(m * 7 + n * 3 + k)
    a = rng.integers(-3, 4, (m, k)).astype(np.float16)
    b = rng.integers(-3, 4, (k, n)).astype(np.float16)
    bv = rng.integers(-9, 9, n).astype(np.float32)
    (tmp_path / "input").mkdir()
    (tmp_path / "output").mkdir()
    (a.T if trans[0] else a).astype(np.float16).tofile(tmp_path / "input" / "a.bin")
    (b.T if trans[1] else b).astype(np.float16).tofile(tmp_path / "input" / "b.bin")
    bv.tofile(tmp_path / "input" / "bias.bin")
    args = [str(v) for v in (m, n, k, dim, int(bias), int(trans[0]), int(trans[1]))]
    if fix:
        args += [str(v) for v in fix]
    res = run_program(PROGRAM, tmp_path, args=args)
    assert res.status == "ok", [f.message for f in res.findings] + [res.stdout]
    assert "ret=0" in res.stdout and "sync=0" in res.stdout, res.stdout
    line = next(ln for ln in res.stdout.splitlines() if ln.startswith("tiling "))
    t = {key: int(v) for key, v in re.findall(r"(\w+)=(-?\d+)", line)}
    c = np.fromfile(tmp_path / "output" / "c.bin", dtype=np.float32).reshape(m, n)
    want = a.astype(np.float32) @ b.astype(np.float32) + (bv if bias else 0)
    return t, c, want


def check_tiling(t: dict[str, int], m: int, n: int, k: int, bias: bool) -> None:
    assert (t["M"], t["N"], t["Ka"], t["Kb"]) == (m, n, k, k)
    assert t["baseM"] % 16 == 0 and t["baseN"] % 16 == 0 and t["baseK"] % 16 == 0  # half: 16 elements of K per fractal
    assert t["baseM"] * t["baseK"] * 2 * 2 <= L0A and t["baseN"] * t["baseK"] * 2 * 2 <= L0B
    assert t["baseM"] * t["baseN"] * 4 * t["dbL0C"] <= L0C
    l1 = (t["depthA1"] * t["baseM"] + t["depthB1"] * t["baseN"]) * t["baseK"] * 2 + (t["baseN"] * 4 if bias else 0)
    assert l1 <= L1
    assert t["depthA1"] >= t["stepKa"] * t["stepM"] and t["depthB1"] >= t["stepKb"] * t["stepN"]
    assert t["baseM"] <= -(-t["singleCoreM"] // 16) * 16 and t["baseN"] <= -(-t["singleCoreN"] // 16) * 16
    assert t["isBias"] == int(bias)


def test_single_core_tiling_and_result(tmp_path: Path) -> None:
    t, c, want = run(tmp_path, 96, 80, 200, dim=0)
    check_tiling(t, 96, 80, 200, True)
    assert t["usedCoreNum"] == 1 and (t["singleCoreM"], t["singleCoreN"], t["singleCoreK"]) == (96, 80, 200)
    np.testing.assert_array_equal(c, want)


@pytest.mark.parametrize("trans", [(False, True), (True, False)])
def test_multi_core_split_covers_c(tmp_path: Path, trans: tuple[bool, bool]) -> None:
    m, n, k = 200, 300, 64
    t, c, want = run(tmp_path, m, n, k, dim=8, bias=False, trans=trans)
    check_tiling(t, m, n, k, False)
    used, sm, sn = t["usedCoreNum"], t["singleCoreM"], t["singleCoreN"]
    assert 1 < used <= 8
    assert -(-m // sm) * -(-n // sn) == used  # every core has a block and the blocks cover C
    np.testing.assert_array_equal(c, want)


def test_large_shape_keeps_the_buffers(tmp_path: Path) -> None:
    m, n, k = 512, 640, 1024
    t, c, want = run(tmp_path, m, n, k, dim=4)
    check_tiling(t, m, n, k, True)
    assert t["baseM"] * t["baseN"] >= 128 * 128  # big shapes get big blocks, not the minimum
    assert t["singleCoreK"] == k and t["stepKa"] > 1
    np.testing.assert_allclose(c, want, rtol=0, atol=0)


def test_fix_split_is_kept_and_bad_one_fails(tmp_path: Path) -> None:
    t, c, want = run(tmp_path, 64, 64, 128, dim=0, fix=(32, 48, 64))
    assert (t["baseM"], t["baseN"], t["baseK"]) == (32, 48, 64)
    np.testing.assert_array_equal(c, want)
    bad = tmp_path / "bad"
    bad.mkdir()
    (bad / "input").mkdir()
    (bad / "output").mkdir()
    np.zeros(64 * 64, np.float16).tofile(bad / "input" / "a.bin")
    np.zeros(64 * 64, np.float16).tofile(bad / "input" / "b.bin")
    np.zeros(64, np.float32).tofile(bad / "input" / "bias.bin")
    # 512 x 512 float accumulators are 1 MiB: more than L0C
    res = run_program(PROGRAM, bad, args=["64", "64", "64", "0", "0", "0", "0", "512", "512", "64"])
    assert "ret=-1" in res.stdout
    assert "does not fit in L0C" in res.stdout  # the program's stderr comes with its stdout


def test_cube_kernel_with_constant_tiling(tmp_path: Path) -> None:
    rng = np.random.default_rng(11)
    a = rng.integers(-3, 4, (32, 64)).astype(np.float16)
    b = rng.integers(-3, 4, (64, 48)).astype(np.float16)
    (tmp_path / "input").mkdir()
    (tmp_path / "output").mkdir()
    a.tofile(tmp_path / "input" / "a.bin")
    b.tofile(tmp_path / "input" / "b.bin")
    res = run_program(PROGRAMS / "matmul_cube_const.asc", tmp_path)
    assert res.status == "ok", [f.message for f in res.findings] + [res.stdout]
    # the __cube__ kernel ran past its `if ASCEND_IS_AIV return;`, in the static tiling's 2 x 2 base blocks
    assert "blocks=4" in res.stdout and "sync=0" in res.stdout, res.stdout
    assert "stepKa=2 depthA1=2" in res.stdout  # K = 64 is two base K blocks, all in L1 at once
    c = np.fromfile(tmp_path / "output" / "c.bin", dtype=np.float32).reshape(32, 48)
    np.testing.assert_array_equal(c, a.astype(np.float32) @ b.astype(np.float32))


def test_only_cube_kernels_launch_as_aic_only() -> None:
    src = ("__cube__ __global__ __aicore__ void mm_k(int a) {}\n"
           "__global__ __aicore__ void vec_k(int a) {}\n"
           "int main() { mm_k<<<1, nullptr, s>>>(1); vec_k<<<2, nullptr, s>>>(2); }\n")
    assert cube_kernels(src) == {"mm_k"}
    out, _ = rewrite_launches(src)
    assert "[&]() { ::akgen_sim::task_type() = 1; mm_k(1); }" in out
    assert "[&]() { ::akgen_sim::task_type() = -1; vec_k(2); }" in out
    plain, _ = rewrite_launches(src.replace("__cube__ ", ""))
    assert "task_type" not in plain  # programs without cube kernels are rewritten as before


def test_an_a_in_tscm_is_not_split_over_cores_and_the_tscm_queue(tmp_path: Path) -> None:
    # A in TSCM is held whole in each core's L1 (asc-devkit's matmul_tscm copies all of it there): the split is N only
    res = run_program(PROGRAMS / "tscm_tiling.asc", tmp_path)
    assert res.status == "ok", [f.message for f in res.findings] + [res.stdout]
    assert "tiling ret=0 used=8 singleCoreM=256 singleCoreN=64" in res.stdout
    assert "first=1 last=64" in res.stdout  # through AscendC::TSCM<TPosition::GM, 1>
