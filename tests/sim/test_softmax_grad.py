"""SoftmaxGrad / SoftmaxGradFront (akgen_sim/adv_softmax_grad.h) against the documented numpy formula
(asc-devkit SoftmaxGrad.md): s = sum(grad * src) over the valid columns, dst = (grad - s) * src over all srcK columns,
or s in one 32-byte block per row (isFront / SoftmaxGradFront); float math rounded once for half; dst may be src;
an unaligned srcK is reported at the caller's line."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.sim import SimResult, run_manifest

from .conftest import KERNELS, assert_finding_at, needs_gxx

pytestmark = needs_gxx

SRC = KERNELS / "softmax_grad.cpp"
M = 6


def run(write_manifest, tmp_path: Path, dtype: str, mode: int, k: int, valid: int
        ) -> tuple[SimResult, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(3)
    grad = rng.uniform(-2, 2, (M, k)).astype(dtype)
    src = rng.uniform(0, 1, (M, k)).astype(dtype)
    m = write_manifest(SRC, "softmax_grad", [
        {"name": "grad", "input": grad.ravel()},
        {"name": "src", "input": src.ravel()},
        {"name": "dst", "output": "dst.npy", "dtype": dtype, "shape": [M * k]},
        {"name": "mode", "scalar": mode, "type": "int32_t"},
        {"name": "m", "scalar": M, "type": "int32_t"},
        {"name": "k", "scalar": k, "type": "int32_t"},
        {"name": "valid", "scalar": valid, "type": "int32_t"},
    ], defines={"DTYPE_X": {"float32": "float", "float16": "half"}[dtype]})
    return run_manifest(m, tmp_path / f"{dtype}_{mode}_{k}_{valid}", confine=False), grad, src


def row_sums(grad: np.ndarray, src: np.ndarray, valid: int) -> np.ndarray:
    return (grad[:, :valid].astype(np.float64) * src[:, :valid]).sum(-1, keepdims=True)


@pytest.mark.parametrize("dtype", ["float32", "float16"])
@pytest.mark.parametrize("mode", [0, 1])
def test_matches_the_documented_formula(write_manifest, tmp_path: Path, dtype: str, mode: int) -> None:
    k, valid = 64, 50
    res, grad, src = run(write_manifest, tmp_path, dtype, mode, k, valid)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    dst = np.load(res.outputs["dst"]).reshape(M, k)
    want = (grad.astype(np.float64) - row_sums(grad, src, valid)) * src  # padded columns are computed too
    tol = 1e-5 if dtype == "float32" else 2e-3
    np.testing.assert_allclose(dst.astype(np.float64), want, rtol=tol, atol=tol)


@pytest.mark.parametrize("mode", [2, 3])
def test_front_fills_one_block_per_row(write_manifest, tmp_path: Path, mode: int) -> None:
    k = 32
    res, grad, src = run(write_manifest, tmp_path, "float16", mode, k, k)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    dst = np.load(res.outputs["dst"])
    front = dst[: M * 16].reshape(M, 16).astype(np.float64)
    np.testing.assert_allclose(front, np.repeat(row_sums(grad, src, k), 16, axis=1), rtol=2e-3, atol=2e-3)
    np.testing.assert_array_equal(dst[M * 16:], src.ravel()[M * 16:])  # the rest of dst is untouched


def test_unaligned_last_axis_is_reported(write_manifest, tmp_path: Path) -> None:
    res, *_ = run(write_manifest, tmp_path, "float32", 4, 16, 16)
    assert_finding_at(res, "SIM-SOFTMAX-SHAPE", SRC)
    assert res.status == "runtime_error"
