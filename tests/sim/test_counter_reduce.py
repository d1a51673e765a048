"""The repeat forms of the reductions in counter mask mode (SetMaskCount + SetVectorMask<T, MaskMode::COUNTER>): the
hardware derives the repeat count from the element count, so the repeatTime argument is a placeholder and the CANN
samples pass 0. A repeatTime of 0 must compute exactly what the real repeat count computes (it used to be an early
no-op, leaving dst untouched with status ok). WholeReduceSum/Max/Min, BlockReduceSum, PairReduceSum and the CANN 9.1
ReduceRepeat name; float and half (kernels/counter_reduce.cpp)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.findings import Severity
from akgen_lsp.sim import run_manifest

from .conftest import KERNELS, needs_gxx

pytestmark = needs_gxx

SRC = KERNELS / "counter_reduce.cpp"
N = 2048
CNT = 300  # not a whole number of repeats: the last repeat is partial
CTYPE = {"float32": "float", "float16": "half"}
MODES = {"WholeReduceSum": 0, "WholeReduceMax": 1, "WholeReduceMin": 2, "BlockReduceSum": 3, "PairReduceSum": 4,
         "ReduceRepeat<SUM>": 5}


def run(write_manifest, tmp_path: Path, dtype: str, mode: int, rep: int) -> np.ndarray:
    rng = np.random.default_rng(5)
    a = rng.uniform(-2, 2, N).astype(dtype)
    b = np.full(N, -7.0, dtype)
    m = write_manifest(SRC, "counter_reduce", [
        {"name": "a", "input": a}, {"name": "b", "input": b},
        {"name": "z", "output": "z.npy", "dtype": dtype, "shape": [N]},
        {"name": "mode", "scalar": mode, "type": "int32_t"}, {"name": "n", "scalar": N, "type": "int32_t"},
        {"name": "cnt", "scalar": CNT, "type": "int32_t"}, {"name": "rep", "scalar": rep, "type": "int32_t"},
    ], defines={"DTYPE_X": CTYPE[dtype]})
    res = run_manifest(m, tmp_path / f"out{mode}_{rep}", confine=False)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    assert not [f for f in res.findings if f.severity is Severity.ERROR]
    return np.load(res.outputs["z"])


def expected(dtype: str, mode: int) -> tuple[np.ndarray, int]:
    """numpy's answer for the first results (float64 sums: the comparison is approximate) and how many there are."""
    rng = np.random.default_rng(5)
    a = rng.uniform(-2, 2, N).astype(dtype).astype(np.float64)[:CNT]
    per = 256 // np.dtype(dtype).itemsize
    blk = 32 // np.dtype(dtype).itemsize
    chunks = lambda k: [a[i:i + k] for i in range(0, CNT, k)]  # noqa: E731
    if mode in (0, 5):
        return np.array([c.sum() for c in chunks(per)]), -(-CNT // per)
    if mode == 1:
        return np.array([c.max() for c in chunks(per)]), -(-CNT // per)
    if mode == 2:
        return np.array([c.min() for c in chunks(per)]), -(-CNT // per)
    if mode == 3:
        return np.array([c.sum() for c in chunks(blk)]), -(-CNT // blk)
    return np.array([c.sum() for c in chunks(2)]), CNT // 2


@pytest.mark.parametrize("dtype", ["float32", "float16"])
@pytest.mark.parametrize("api", list(MODES))
def test_counter_mode_repeat_zero_reduces(write_manifest, tmp_path: Path, dtype: str, api: str) -> None:
    mode = MODES[api]
    want, k = expected(dtype, mode)
    placeholder = run(write_manifest, tmp_path, dtype, mode, 0)
    tol = 1e-5 if dtype == "float32" else 2e-2
    np.testing.assert_allclose(placeholder[:k].astype(np.float64), want, rtol=tol, atol=tol * 8)
    # the placeholder computes exactly what a real repeat count computes
    per = 256 // np.dtype(dtype).itemsize
    real = run(write_manifest, tmp_path, dtype, mode, -(-CNT // per))
    np.testing.assert_array_equal(placeholder, real)
