"""LoadDataWithTranspose (A2/A3 square-matrix transpose into L0B) against numpy for half, float and int8, through
Mmad with an identity A: C = I x B must give back the square that was loaded (kernels/cube_transpose.cpp); and the
converting L1 -> bias table copy (half into float)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.sim import run_manifest

from .conftest import KERNELS, needs_gxx

pytestmark = needs_gxx

SRC = KERNELS / "cube_transpose.cpp"
CFG = {"float16": ("half", "float", 16, 16), "float32": ("float", "float", 16, 8), "int8": ("int8_t", "int32_t", 32, 32)}


def fractal_image(square: np.ndarray, c0: int) -> np.ndarray:
    """A square in L1's layout: fractals of 16 rows x c0 columns, row-major inside; the columns of the square split
    into fractals side by side (32-bit) or its rows into fractals stacked (8-bit, 16-bit)."""
    side = square.shape[0]
    if c0 < side:  # 32-bit: 16x16 as two 16x8 fractals, left then right
        return np.concatenate([square[:, j * c0:(j + 1) * c0].reshape(-1) for j in range(side // c0)])
    return square.reshape(-1)  # stacked rows: the row-major square is already its fractal image


def zz_identity(side: int, c0: int, dtype: str) -> np.ndarray:
    eye = np.eye(side, dtype=dtype)
    # zZ: fractal (mi, ki) at (mi * Kb + ki), each 16 x c0 row-major
    frs = [eye[mi * 16:(mi + 1) * 16, ki * c0:(ki + 1) * c0].reshape(-1)
           for mi in range(side // 16) for ki in range(side // c0)]
    return np.concatenate(frs)


@pytest.mark.parametrize("dtype", ["float16", "float32", "int8"])
def test_load_data_with_transpose_round_trips_through_an_identity_mmad(write_manifest, tmp_path: Path,
                                                                       dtype: str) -> None:
    x, c, side, c0 = CFG[dtype]
    acc = np.int32 if dtype == "int8" else np.float32
    rng = np.random.default_rng(7)
    squares = [rng.integers(-9, 10, (side, side)).astype(dtype) for _ in range(3)]
    image = np.concatenate([fractal_image(s, c0) for s in squares])
    m = write_manifest(SRC, "cube_transpose", [
        {"name": "sq", "input": image},
        {"name": "eye", "input": zz_identity(side, c0, dtype)},
        {"name": "bias", "input": np.zeros(32, np.float16)},
        {"name": "c", "output": "c.npy", "dtype": np.dtype(acc).name, "shape": [side, side]},
        {"name": "pick", "scalar": 2, "type": "int32_t"},
        {"name": "useBias", "scalar": 0, "type": "int32_t"},
    ], defines={"DTYPE_X": x, "DTYPE_C": c})
    res = run_manifest(m, tmp_path / "out", confine=False)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    np.testing.assert_array_equal(np.load(res.outputs["c"]), squares[2].astype(acc))


def test_l1_to_bias_table_converts_half_to_float(write_manifest, tmp_path: Path) -> None:
    rng = np.random.default_rng(8)
    sq = rng.integers(-9, 10, (16, 16)).astype(np.float16)
    bias = (rng.standard_normal(32) * 4).astype(np.float16)
    m = write_manifest(SRC, "cube_transpose", [
        {"name": "sq", "input": np.concatenate([sq.reshape(-1)] * 3)},
        {"name": "eye", "input": zz_identity(16, 16, "float16")},
        {"name": "bias", "input": bias},
        {"name": "c", "output": "c.npy", "dtype": "float32", "shape": [16, 16]},
        {"name": "pick", "scalar": 0, "type": "int32_t"},
        {"name": "useBias", "scalar": 1, "type": "int32_t"},
    ], defines={"DTYPE_X": "half", "DTYPE_C": "float"})
    res = run_manifest(m, tmp_path / "out", confine=False)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    np.testing.assert_array_equal(np.load(res.outputs["c"]), sq.astype(np.float32) + bias[:16].astype(np.float32))
