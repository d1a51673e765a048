"""Semantics of the element-wise families against numpy, in half and float: count form, operators, mask + repeat
(continuous mask, mask bits with mask[0] low, counter mode, block strides), half rounding per operation, Cast with
every RoundMode, repeatTime 256 and count 0."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.sim import run_manifest

from .conftest import KERNELS, needs_gxx

pytestmark = needs_gxx

VEC = KERNELS / "vecops.cpp"
N = 256
C_TYPES = {"float16": "half", "float32": "float", "int32": "int32_t"}


def run_op(write_manifest, tmp_path: Path, op: int, x: np.ndarray, y: np.ndarray, zdtype: str | None = None):
    zdtype = zdtype or str(x.dtype)
    m = write_manifest(VEC, "vecops", [
        {"name": "x", "input": x}, {"name": "y", "input": y},
        {"name": "z", "output": "z.npy", "dtype": zdtype, "shape": [N]},
        {"name": "op", "scalar": op, "type": "int32_t"},
    ], defines={"DTYPE_X": C_TYPES[str(x.dtype)], "DTYPE_Z": C_TYPES[zdtype]})
    return run_manifest(m, tmp_path / f"o{op}", confine=False)


def data(dtype: str) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(7)
    x = rng.uniform(-4, 4, N).astype(dtype)
    y = rng.uniform(0.5, 3, N).astype(dtype)
    return x, y


def as32(a: np.ndarray) -> np.ndarray:
    return a.astype(np.float32)


# expected results computed like the hardware: in float, rounded once to the element type
COUNT_CASES = {
    0: lambda x, y: as32(x) + as32(y), 1: lambda x, y: as32(x) - as32(y), 2: lambda x, y: as32(x) * as32(y),
    3: lambda x, y: as32(x) / as32(y), 4: lambda x, y: np.maximum(x, y), 5: lambda x, y: np.minimum(x, y),
    6: lambda x, y: np.exp(as32(x)), 7: lambda x, y: np.abs(x), 8: lambda x, y: np.sqrt(np.abs(as32(x))),
    9: lambda x, y: np.maximum(x, 0), 10: lambda x, y: as32(x) + np.float32(1.5),
    13: lambda x, y: as32(x) * as32(y),
}


@pytest.mark.parametrize("dtype", ["float16", "float32"])
@pytest.mark.parametrize("op", sorted(COUNT_CASES))
def test_count_form(write_manifest, tmp_path: Path, dtype: str, op: int) -> None:
    x, y = data(dtype)
    if op == 8:
        x = np.abs(x)
    res = run_op(write_manifest, tmp_path, op, x, y)
    assert res.status == "ok", [f.message for f in res.findings]
    z = np.load(res.outputs["z"])
    want = COUNT_CASES[op](x, y).astype(dtype)
    if op == 6:  # exp: libm vs numpy may differ by one ulp of the element type
        np.testing.assert_allclose(as32(z), as32(want), rtol=2e-3 if dtype == "float16" else 1e-6)
    else:
        np.testing.assert_array_equal(z, want)


def test_half_rounds_per_operation(write_manifest, tmp_path: Path) -> None:
    """Muls by 0.3 on half: the scalar is a half (0.2998...) and the product is rounded to half once."""
    x, y = data("float16")
    res = run_op(write_manifest, tmp_path, 11, x, y)
    z = np.load(res.outputs["z"])
    np.testing.assert_array_equal(z, (as32(x) * as32(np.float16(0.3))).astype(np.float16))


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_repeat_forms(write_manifest, tmp_path: Path, dtype: str) -> None:
    x, y = data(dtype)
    per = 256 // np.dtype(dtype).itemsize
    # continuous mask 10, 2 repeats: elements [0, 10) and [per, per + 10)
    z = np.load(run_op(write_manifest, tmp_path, 14, x, y).outputs["z"])
    want = np.zeros(N, dtype)
    for r in range(2):
        sl = slice(r * per, r * per + 10)
        want[sl] = (as32(x[sl]) + as32(y[sl])).astype(dtype)
    np.testing.assert_array_equal(z, want)
    # mask bits 0x5555...: even elements of every repeat
    z = np.load(run_op(write_manifest, tmp_path, 15, x, y).outputs["z"])
    want = np.zeros(N, dtype)
    want[::2] = (as32(x[::2]) * as32(y[::2])).astype(dtype)
    np.testing.assert_array_equal(z, want)
    # counter mode: exactly 100 elements
    z = np.load(run_op(write_manifest, tmp_path, 16, x, y).outputs["z"])
    want = np.zeros(N, dtype)
    want[:100] = (as32(x[:100]) - as32(y[:100])).astype(dtype)
    np.testing.assert_array_equal(z, want)
    # src0 block stride 2: dst block k = src0 block 2k + src1 block k
    z = np.load(run_op(write_manifest, tmp_path, 17, x, y).outputs["z"])
    blk = 32 // np.dtype(dtype).itemsize
    a = np.concatenate([x[2 * k * blk:(2 * k + 1) * blk] for k in range(8)])
    want = np.zeros(N, dtype)
    want[:per] = (as32(a) + as32(y[:per])).astype(dtype)
    np.testing.assert_array_equal(z, want)


def test_repeat_256_and_count_0(write_manifest, tmp_path: Path) -> None:
    x, y = data("float32")
    res = run_op(write_manifest, tmp_path, 18, x, y)
    assert res.status == "runtime_error" and res.findings[0].code == "SIM-REPEAT"
    res = run_op(write_manifest, tmp_path, 19, x, y)
    assert res.status == "ok"
    np.testing.assert_array_equal(np.load(res.outputs["z"]), np.zeros(N, np.float32))


ROUND = {  # numpy model of each RoundMode for float -> int32
    0: np.rint, 1: np.rint, 2: np.floor, 3: np.ceil,
    4: lambda v: np.sign(v) * np.floor(np.abs(v) + 0.5), 5: np.trunc,
}


@pytest.mark.parametrize("mode", sorted(ROUND))
def test_cast_float_to_int32_round_modes(write_manifest, tmp_path: Path, mode: int) -> None:
    x = np.array(([-2.5, -1.5, -0.5, 0.5, 1.5, 2.5, 2.7, -2.7] * 32), dtype=np.float32)
    res = run_op(write_manifest, tmp_path, mode, x, x, "int32")
    assert res.status == "ok", [f.message for f in res.findings]
    np.testing.assert_array_equal(np.load(res.outputs["z"]), ROUND[mode](x).astype(np.int32))


@pytest.mark.parametrize(("mode", "pick"), [(2, "floor"), (3, "ceil"), (5, "trunc"), (1, "rint"), (6, "odd")])
def test_cast_float_to_half_round_modes(write_manifest, tmp_path: Path, mode: int, pick: str) -> None:
    rng = np.random.default_rng(5)
    x = rng.uniform(-100, 100, N).astype(np.float32)
    res = run_op(write_manifest, tmp_path, mode, x, x, "float16")
    z = np.load(res.outputs["z"])
    near = x.astype(np.float16)
    lo = np.where(near.astype(np.float32) > x, np.nextafter(near, np.float16(-np.inf)), near)
    hi = np.where(near.astype(np.float32) < x, np.nextafter(near, np.float16(np.inf)), near)
    exact = lo == hi
    if pick == "floor":
        want = lo
    elif pick == "ceil":
        want = hi
    elif pick == "trunc":
        want = np.where(x < 0, hi, lo)
    elif pick == "rint":
        want = near
    else:
        odd_lo = (lo.view(np.uint16) & 1) == 1
        want = np.where(exact, lo, np.where(odd_lo, lo, hi))
    np.testing.assert_array_equal(z, want)


@pytest.mark.parametrize("dtype", ["float16", "float32"])
def test_cast_same_type_rounds_to_integral(write_manifest, tmp_path: Path, dtype: str) -> None:
    x, y = data(dtype)
    z = np.load(run_op(write_manifest, tmp_path, 20, x, y).outputs["z"])
    np.testing.assert_array_equal(z, (np.sign(as32(x)) * np.floor(np.abs(as32(x)) + 0.5)).astype(dtype))
    z = np.load(run_op(write_manifest, tmp_path, 21, x, y).outputs["z"])
    np.testing.assert_array_equal(z, np.floor(x))
