"""The batch interfaces of the high-level Matmul (programs/matmul_batch.asc; CANN's IterateBatch.md and
IterateNBatch.md): BSNGD batches (batch i at i * D, rows N * G * D apart) with B transposed, the G-axis broadcast of
an A with G 1, NORMAL batches (whole matrices) sharing one bias (isBiasBatch false), and IterateNBatch's calls into
the workspace. They used to be a compile error (IterateBatch was not a member of Matmul)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from akgen_lsp.sim.program import run_program

from .conftest import needs_gxx

pytestmark = needs_gxx

PROGRAM = Path(__file__).resolve().parent / "programs" / "matmul_batch.asc"
M, K, N = 16, 32, 48


def f32(x: np.ndarray) -> np.ndarray:
    return x.astype(np.float32)


def test_iterate_batch_layouts_broadcast_bias_and_nbatch(tmp_path: Path) -> None:
    rng = np.random.default_rng(5)
    half = np.float16
    a = rng.uniform(-1, 1, (1, M, 1, 3, K)).astype(half)  # BSNGD
    b = rng.uniform(-1, 1, (1, N, 1, 3, K)).astype(half)  # BSNGD, B transposed: S = N, D = K
    a3 = rng.uniform(-1, 1, (2, M, K)).astype(half)  # NORMAL
    b3 = rng.uniform(-1, 1, (2, K, N)).astype(half)
    bias3 = rng.uniform(-1, 1, N).astype(np.float32)
    a4 = rng.uniform(-1, 1, (1, M, 1, 6, K)).astype(half)
    b4 = rng.uniform(-1, 1, (1, N, 1, 6, K)).astype(half)
    (tmp_path / "input").mkdir()
    (tmp_path / "output").mkdir()
    for name, arr in (("a", a), ("b", b), ("a3", a3), ("b3", b3), ("bias3", bias3), ("a4", a4), ("b4", b4)):
        arr.tofile(tmp_path / "input" / f"{name}.bin")
    res = run_program(PROGRAM, tmp_path)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    # the host copies of C read what the batches wrote (the initcheck tracks the workspace's writes too)
    bad = [f for f in res.findings if f.code.startswith(("SIM-GM", "SIM-INIT"))]
    assert not bad, [(f.code, f.message) for f in bad]

    def out(name: str, shape: tuple[int, ...]) -> np.ndarray:
        return np.fromfile(tmp_path / "output" / f"{name}.bin", dtype=np.float32).reshape(shape)

    # C [1, M, 1, G, N]: C[0, :, 0, g, :] = A[0, :, 0, g, :] @ B[0, :, 0, g, :].T
    want1 = np.einsum("mgk,ngk->mgn", f32(a[0, :, 0]), f32(b[0, :, 0]))
    np.testing.assert_allclose(out("c1", (M, 3, N)), want1, rtol=1e-3, atol=1e-3)
    a2 = a.reshape(-1)[: M * K].reshape(M, K)  # A [1, M, 1, 1, K]: one batch for the three of B
    want2 = np.einsum("mk,ngk->mgn", f32(a2), f32(b[0, :, 0]))
    np.testing.assert_allclose(out("c2", (M, 3, N)), want2, rtol=1e-3, atol=1e-3)
    want3 = f32(a3) @ f32(b3) + bias3
    np.testing.assert_allclose(out("c3", (2, M, N)), want3, rtol=1e-3, atol=1e-3)
    want4 = np.einsum("mgk,ngk->mgn", f32(a4[0, :, 0]), f32(b4[0, :, 0]))
    np.testing.assert_allclose(out("c4", (M, 6, N)), want4, rtol=1e-3, atol=1e-3)
