"""Vector shifts by a scalar count up to the element width (ShiftLeft.md / ShiftRight.md: [0, 16] for 16-bit and
[0, 32] for 32-bit types on A2/A3): a count of the full width shifts every bit out (0, or the sign for an arithmetic
right shift), where a C++ shift would be undefined (x86: x >> 32 == x). NPUKernelBench's AbsMath answer builds the
int32 sign mask with ShiftRight(t, x, 32)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.findings import Severity
from akgen_lsp.sim import run_manifest

from .conftest import KERNELS, needs_gxx

pytestmark = needs_gxx

SRC = KERNELS / "vec_shift.cpp"


def _inputs() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(11)
    x32 = rng.integers(-(1 << 30), 1 << 30, 64).astype(np.int32)
    x32[:4] = [0, -1, np.iinfo(np.int32).min, np.iinfo(np.int32).max]
    x16 = rng.integers(-30000, 30000, 128).astype(np.int16)
    x16[:2] = [-1, 1]
    return x32, x16


def _expected(x32: np.ndarray, x16: np.ndarray, count: int) -> dict[str, np.ndarray]:
    x64 = x32.astype(np.int64)
    half = count // 2
    return {
        "r32": (x64 >> min(count, 63)).astype(np.int32),  # arithmetic: past the bits, the sign
        "l32": ((x64 << count) & 0xFFFFFFFF).astype(np.uint32).view(np.int32) if count < 32 else np.zeros(64, np.int32),
        "u32": (x32.view(np.uint32).astype(np.uint64) >> count).astype(np.uint32),
        "r16": (x16.astype(np.int32) >> half).astype(np.int16),
        "ab32": np.abs(x64).astype(np.uint32).view(np.int32),  # |INT_MIN| wraps to INT_MIN, as on the hardware
    }


@pytest.mark.parametrize("count", [3, 32])
def test_shifts_by_a_scalar_up_to_the_width(write_manifest, tmp_path: Path, count: int) -> None:
    x32, x16 = _inputs()
    m = write_manifest(SRC, "vec_shift", [
        {"name": "x32", "input": x32},
        {"name": "x16", "input": x16},
        {"name": "r32", "output": "r32.npy", "dtype": "int32", "shape": [64]},
        {"name": "l32", "output": "l32.npy", "dtype": "int32", "shape": [64]},
        {"name": "u32", "output": "u32.npy", "dtype": "uint32", "shape": [64]},
        {"name": "r16", "output": "r16.npy", "dtype": "int16", "shape": [128]},
        {"name": "ab32", "output": "ab32.npy", "dtype": "int32", "shape": [64]},
        {"name": "count", "scalar": count, "type": "int32_t"},
    ])
    res = run_manifest(m, tmp_path / "out", confine=False)
    assert res.status == "ok", [f.message for f in res.findings if f.severity is Severity.ERROR]
    for name, want in _expected(x32, x16, count).items():
        np.testing.assert_array_equal(np.load(res.outputs[name]), want, err_msg=name)
