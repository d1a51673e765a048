"""The high-level Matmul with NZ-format inputs (CANN's group-matmul sample feeds B in NZ): 16 x C0 fractals, C0 the
32 bytes of the type (16 halves, 32 int8), one column block after another over all rows. A half ND x NZ product and
an int8 NZ x NZ product into int32, a GEMV whose A is in VECTOR format (one row, stored as ND), and NZ float
outputs (programs/matmul_nz.asc); NZ and VECTOR inputs and NZ outputs used to be a compile error."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from akgen_lsp.sim.program import run_program

from .conftest import needs_gxx

pytestmark = needs_gxx

PROGRAM = Path(__file__).resolve().parent / "programs" / "matmul_nz.asc"


def nz(x: np.ndarray) -> np.ndarray:
    """The NZ layout of a row-major matrix whose rows are a multiple of 16 and columns of C0."""
    rows, cols = x.shape
    c0 = 32 // x.itemsize
    return x.reshape(rows // 16, 16, cols // c0, c0).transpose(2, 0, 1, 3).copy()


def test_nz_inputs_of_the_high_level_matmul(tmp_path: Path) -> None:
    rng = np.random.default_rng(3)
    a1 = rng.uniform(-1, 1, (32, 64)).astype(np.float16)
    b1 = rng.uniform(-1, 1, (64, 48)).astype(np.float16)
    a2 = rng.integers(-128, 128, (32, 64), dtype=np.int8)
    b2 = rng.integers(-128, 128, (64, 64), dtype=np.int8)
    a3 = rng.uniform(-1, 1, (1, 64)).astype(np.float16)
    (tmp_path / "input").mkdir()
    (tmp_path / "output").mkdir()
    for name, arr in (("a1", a1), ("b1", nz(b1)), ("a2", nz(a2)), ("b2", nz(b2)), ("a3", a3)):
        arr.tofile(tmp_path / "input" / f"{name}.bin")
    res = run_program(PROGRAM, tmp_path)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    assert not [f for f in res.findings if f.code.startswith("SIM-GM")], [(f.code, f.message) for f in res.findings]
    c1 = np.fromfile(tmp_path / "output" / "c1.bin", dtype=np.float32).reshape(32, 48)
    np.testing.assert_allclose(c1, a1.astype(np.float32) @ b1.astype(np.float32), rtol=1e-3, atol=1e-3)
    c2 = np.fromfile(tmp_path / "output" / "c2.bin", dtype=np.int32).reshape(32, 64)
    np.testing.assert_array_equal(c2, a2.astype(np.int32) @ b2.astype(np.int32))
    c3 = np.fromfile(tmp_path / "output" / "c3.bin", dtype=np.float32).reshape(1, 48)
    np.testing.assert_allclose(c3, a3.astype(np.float32) @ b1.astype(np.float32), rtol=1e-3, atol=1e-3)
    # an NZ C (it used to be a compile error): float fractals of 16 x 16, 16 x 8 with isEnableChannelSplit
    want = a1.astype(np.float32) @ b1.astype(np.float32)
    c4 = np.fromfile(tmp_path / "output" / "c4.bin", dtype=np.float32).reshape(48 // 16, 32, 16)
    np.testing.assert_allclose(c4, want.reshape(32, 3, 16).transpose(1, 0, 2), rtol=1e-3, atol=1e-3)
    c5 = np.fromfile(tmp_path / "output" / "c5.bin", dtype=np.float32).reshape(48 // 8, 32, 8)
    np.testing.assert_allclose(c5, want.reshape(32, 6, 8).transpose(1, 0, 2), rtol=1e-3, atol=1e-3)
