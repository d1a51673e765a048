"""High-level SoftMax / SimpleSoftMax / LayerNorm against numpy (float math, one rounding to the data type), in half
and float, with padded rows (oriSrcK / originalHLength / rLength smaller than the row length), the sum/max block
layout, the [B, S, H] and [A, R] LayerNorm forms, and a shape check at the caller's line (kernels/adv.cpp)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.findings import Severity
from akgen_lsp.sim import SimResult, run_manifest

from .conftest import KERNELS, marker_line, needs_gxx

pytestmark = needs_gxx

SRC = KERNELS / "adv.cpp"
ROWS, COLS, VALID = 8, 64, 50
CT = {"float16": "half", "float32": "float"}
TOL = {"float16": 2e-3, "float32": 2e-6}


def data(dtype: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(9)
    x = rng.uniform(-3, 3, (ROWS, COLS)).astype(dtype)
    g = rng.choice([0.5, 0.75, 1.0, 1.25, 1.5], COLS).astype(dtype)  # bytes both zero and not (Select's mask)
    b = rng.uniform(-1, 1, COLS).astype(dtype)
    return x, g, b


def run(write_manifest, tmp_path: Path, dtype: str, mode: int, valid: int = VALID) -> tuple[SimResult, dict]:
    x, g, b = data(dtype)
    m = write_manifest(SRC, "adv", [
        {"name": "x", "input": x},
        {"name": "gamma", "input": g},
        {"name": "beta", "input": b},
        {"name": "y", "output": "y.npy", "dtype": dtype, "shape": [ROWS, COLS]},
        # each mode writes the few blocks of stats it checks: the rest is not compared (no SIM-GM-UNWRITTEN warning)
        {"name": "stats", "output": "s.npy", "dtype": "float32", "shape": [ROWS, 16], "compared": False},
        {"name": "mode", "scalar": mode, "type": "int32_t"},
        {"name": "rows", "scalar": ROWS, "type": "int32_t"},
        {"name": "cols", "scalar": COLS, "type": "int32_t"},
        {"name": "valid", "scalar": valid, "type": "int32_t"},
    ], defines={"DTYPE_X": CT[dtype]})
    res = run_manifest(m, tmp_path / "out", confine=False)
    return res, ({k: np.load(v) for k, v in res.outputs.items()} if res.status == "ok" else {})


def ok(res: SimResult) -> None:
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    assert not [f for f in res.findings if f.severity is not Severity.INFO], [f.message for f in res.findings]


def softmax(x: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    v = x[:, :n].astype(np.float32)
    mx = v.max(axis=1, keepdims=True)
    e = np.exp(v - mx)
    s = e.sum(axis=1, keepdims=True)
    return e / s, s[:, 0], mx[:, 0]


@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_softmax_padded_rows_and_sum_max_blocks(write_manifest, tmp_path: Path, dtype: str) -> None:
    x, _, _ = data(dtype)
    res, out = run(write_manifest, tmp_path, dtype, 0)
    ok(res)
    y, s, mx = softmax(x, VALID)
    np.testing.assert_allclose(out["y"][:, :VALID].astype(np.float32), y, rtol=TOL[dtype], atol=TOL[dtype])
    np.testing.assert_array_equal(out["y"][:, VALID:], x[:, VALID:])  # past oriSrcK: not written
    np.testing.assert_allclose(out["stats"][:, 0], s.astype(dtype).astype(np.float32), rtol=TOL[dtype])
    np.testing.assert_array_equal(out["stats"][:, 2], out["stats"][:, 0])  # the whole 32-byte block holds the sum
    np.testing.assert_array_equal(out["stats"][:, 1], mx.astype(dtype).astype(np.float32))


@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_softmax_without_outputs_and_simple_softmax(write_manifest, tmp_path: Path, dtype: str) -> None:
    x, _, _ = data(dtype)
    res, out = run(write_manifest, tmp_path, dtype, 1)
    ok(res)
    y, _, _ = softmax(x, COLS)
    np.testing.assert_allclose(out["y"].astype(np.float32), y, rtol=TOL[dtype], atol=TOL[dtype])
    res, out2 = run(write_manifest, tmp_path, dtype, 2)
    ok(res)
    if dtype == "float32":
        np.testing.assert_allclose(out2["y"], y, rtol=1e-6, atol=1e-7)
    else:  # sum / max rounded to half before SimpleSoftMax uses them
        np.testing.assert_allclose(out2["y"].astype(np.float32), y, rtol=5e-3, atol=5e-3)


@pytest.mark.parametrize("dtype", ["float32", "float16"])
@pytest.mark.parametrize("mode", [3, 4])
def test_layernorm_forms(write_manifest, tmp_path: Path, dtype: str, mode: int) -> None:
    x, g, b = data(dtype)
    res, out = run(write_manifest, tmp_path, dtype, mode)
    ok(res)
    v = x[:, :VALID].astype(np.float32)
    mu = v.mean(axis=1)
    var = ((v - mu[:, None]) ** 2).mean(axis=1)
    inv = 1 / np.sqrt(var + 1e-5)
    y = (v - mu[:, None]) * inv[:, None] * g[:VALID].astype(np.float32) + b[:VALID].astype(np.float32)
    tol = 5e-3 if dtype == "float16" else 1e-5
    np.testing.assert_allclose(out["y"][:, :VALID].astype(np.float32), y, rtol=tol, atol=tol)
    np.testing.assert_array_equal(out["y"][:, VALID:], x[:, VALID:])
    np.testing.assert_allclose(out["stats"][:, 0], mu, rtol=tol, atol=tol)
    np.testing.assert_allclose(out["stats"][:, 1], var if mode == 3 else inv, rtol=tol, atol=tol)


@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_select_with_byte_mask(write_manifest, tmp_path: Path, dtype: str) -> None:
    x, g, _ = data(dtype)
    res, out = run(write_manifest, tmp_path, dtype, 6)
    ok(res)
    mrows = g.view(np.uint8)[: 2 * COLS].reshape(2, COLS)  # the mask: gamma's bytes, COLS per row
    h = np.asarray(0.5, dtype)
    assert (mrows == 0).any() and (mrows != 0).any()
    np.testing.assert_array_equal(out["y"][:2], np.where(mrows == 0, x[:2], h))
    np.testing.assert_array_equal(out["y"][2:4], np.where(mrows == 0, h, x[2:4]))


def test_softmax_shape_check_at_the_callers_line(write_manifest, tmp_path: Path) -> None:
    res, _ = run(write_manifest, tmp_path, "float32", 5)
    hits = [f for f in res.findings if f.code == "SIM-SOFTMAX-SHAPE"]
    assert hits and hits[0].span.line == marker_line(SRC, "SIM-SOFTMAX-SHAPE")
    assert "32-byte aligned" in hits[0].message and res.status == "runtime_error"
