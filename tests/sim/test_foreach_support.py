"""Simulator pieces the Foreach answers rely on: the high-level Power (tensor^scalar, scalar^tensor, tensor^tensor;
float and int32 against numpy), the DT_* macros behind `#if ORIG_DTYPE_X == DT_FLOAT`, and CrossCoreWaitFlag with
mode 0 as a barrier of every block."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.sim import run_manifest

from .conftest import KERNELS, needs_gxx

pytestmark = needs_gxx
KERNEL = KERNELS / "foreach_support.cpp"


def _run(tmp_path: Path, x: np.ndarray, mode: int, s: float, block_dim: int = 1) -> tuple[np.ndarray, np.ndarray]:
    np.save(tmp_path / "x.npy", x)
    dtype = str(x.dtype)
    data = {"sources": [str(KERNEL)], "kernel": "foreach_support", "block_dim": block_dim, "args": [
        {"name": "x", "input": "x.npy"},
        {"name": "z", "output": "z.npy", "dtype": dtype, "shape": [64]},
        {"name": "flag", "output": "flag.npy", "dtype": "int32", "shape": [8]},
        {"name": "mode", "scalar": mode, "type": "int32_t"},
        {"name": "s", "scalar": s, "type": "float"},
    ]}
    (tmp_path / "m.json").write_text(json.dumps(data), encoding="utf-8")
    res = run_manifest(tmp_path / "m.json", tmp_path / "out", confine=False)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    return np.load(res.outputs["z"]), np.load(res.outputs["flag"])


@pytest.mark.parametrize("mode", [0, 1, 2])
def test_power_float_matches_numpy(tmp_path: Path, mode: int) -> None:
    x = np.linspace(0.25, 3.0, 64, dtype=np.float32)
    z, flag = _run(tmp_path, x, mode, 1.5)
    want = {0: x ** np.float32(1.5), 1: np.float32(1.5) ** x, 2: x ** x[::-1]}[mode]
    np.testing.assert_allclose(z, want.astype(np.float32), rtol=1e-6)
    assert flag[0] == 2  # `#if ORIG_DTYPE_X == DT_FLOAT` took the float path


def test_power_int32_is_exact_and_picks_the_int_path(tmp_path: Path) -> None:
    x = (np.arange(64, dtype=np.int32) % 9) - 4
    z, flag = _run(tmp_path, x, 0, 3.0)
    np.testing.assert_array_equal(z, x.astype(np.int64) ** 3)
    assert flag[0] == 1


def test_cross_core_wait_mode0_is_a_barrier_of_all_blocks(tmp_path: Path) -> None:
    z, _ = _run(tmp_path, np.zeros(64, np.float32), 3, 0.0, block_dim=4)
    assert list(z[:4]) == [1, 2, 3, 4]
    assert z[32] == 10  # block 0 summed after every block wrote its slot
