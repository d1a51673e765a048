"""The high-level Matmul with C in the user's CO1 (programs/matmul_co1.asc; CANN's Iterate.md, "用户自主管理CO1"):
Iterate(enPartialSum, localCmatrix) writes each base block into the L0C tensor as NZ fractals, a second pass with
enPartialSum adds to them without the bias, and the user's Fixpipe brings C = 2 A B + bias out. An NZ C in CO1 used
to be a compile error."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from akgen_lsp.sim.program import run_program

from .conftest import needs_gxx

pytestmark = needs_gxx

PROGRAM = Path(__file__).resolve().parent / "programs" / "matmul_co1.asc"


def test_iterate_into_the_users_co1_with_partial_sum(tmp_path: Path) -> None:
    rng = np.random.default_rng(11)
    a = rng.uniform(-1, 1, (32, 32)).astype(np.float16)
    b = rng.uniform(-1, 1, (32, 64)).astype(np.float16)
    bias = rng.uniform(-1, 1, 64).astype(np.float32)
    (tmp_path / "input").mkdir()
    (tmp_path / "output").mkdir()
    for name, arr in (("a", a), ("b", b), ("bias", bias)):
        arr.tofile(tmp_path / "input" / f"{name}.bin")
    res = run_program(PROGRAM, tmp_path)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    bad = [f for f in res.findings if f.code.startswith(("SIM-GM", "SIM-INIT", "SIM-L0"))]
    assert not bad, [(f.code, f.message) for f in bad]
    c = np.fromfile(tmp_path / "output" / "c.bin", dtype=np.float32).reshape(32, 64)
    np.testing.assert_allclose(c, 2 * (a.astype(np.float32) @ b.astype(np.float32)) + bias, rtol=1e-3, atol=1e-3)
