"""Compare / Compares / CompareScalar / Select / GetCmpMask / SetCmpMask against numpy, in half and float, with the
documented corner cases (the 256-byte rule of the count form, repeat 0 and 256, masks, Select modes 0/1/2, the reserved
UB scratch of modes 1 and 2). One kernel binary per dtype (kernels/cmpsel.cpp), `mode` picks the case."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.findings import Severity
from akgen_lsp.sim import SimResult, run_manifest

from .conftest import KERNELS, marker_line, needs_gxx

pytestmark = needs_gxx

SRC = KERNELS / "cmpsel.cpp"
N = 1024
DTYPES = ["float32", "float16"]
CTYPE = {"float32": "float", "float16": "half"}
PRE = 0xA5  # the kernel prefills the bit output with this byte


def inputs(dtype: str) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(7)
    a = rng.integers(-4, 5, N).astype(dtype) / np.asarray(2, dtype)  # many exact ties (EQ / NE / LE matter)
    b = rng.integers(-4, 5, N).astype(dtype) / np.asarray(2, dtype)
    return a.astype(dtype), b.astype(dtype)


def run(write_manifest, tmp_path: Path, dtype: str, mode: int) -> tuple[SimResult, np.ndarray, np.ndarray]:
    a, b = inputs(dtype)
    m = write_manifest(SRC, "cmpsel", [
        {"name": "a", "input": a},
        {"name": "b", "input": b},
        {"name": "bits", "output": "bits.npy", "dtype": "uint8", "shape": [N // 8]},
        {"name": "z", "output": "z.npy", "dtype": dtype, "shape": [N]},
        {"name": "mode", "scalar": mode, "type": "int32_t"},
        {"name": "n", "scalar": N, "type": "int32_t"},
    ], defines={"DTYPE_X": CTYPE[dtype]})
    res = run_manifest(m, tmp_path / "out", confine=False)
    if res.status != "ok":
        return res, np.zeros(0, np.uint8), np.zeros(0, dtype)
    return res, np.load(res.outputs["bits"]), np.load(res.outputs["z"])


def packbits(v: np.ndarray) -> np.ndarray:
    return np.packbits(v.astype(np.uint8), bitorder="little")


def ok(res: SimResult) -> None:
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    assert not [f for f in res.findings if f.severity is not Severity.INFO], [f.message for f in res.findings]


@pytest.mark.parametrize("dtype", DTYPES)
def test_compare_and_select_count_forms(write_manifest, tmp_path: Path, dtype: str) -> None:
    a, b = inputs(dtype)
    h = np.asarray(0.5, dtype)
    res, bits, z = run(write_manifest, tmp_path, dtype, 0)
    ok(res)
    np.testing.assert_array_equal(bits, packbits(a < b))
    np.testing.assert_array_equal(z, np.where(a < b, a, b))
    res, bits, z = run(write_manifest, tmp_path, dtype, 1)
    ok(res)
    np.testing.assert_array_equal(bits, packbits(a >= h))
    np.testing.assert_array_equal(z, np.where(a >= h, a, h))
    res, bits, z = run(write_manifest, tmp_path, dtype, 2)
    ok(res)
    np.testing.assert_array_equal(bits, packbits(a == h))
    np.testing.assert_array_equal(z, np.where(a == h, a, b))


@pytest.mark.parametrize("dtype", DTYPES)
def test_repeat_forms_and_partial_mask(write_manifest, tmp_path: Path, dtype: str) -> None:
    a, b = inputs(dtype)
    h = np.asarray(0.5, dtype)
    per = 256 // a.itemsize
    res, bits, z = run(write_manifest, tmp_path, dtype, 3)
    ok(res)
    np.testing.assert_array_equal(bits, packbits(a > b))
    np.testing.assert_array_equal(z, np.where(a > b, a, b))
    # Compares repeat form, then Select mode 1 with every other element enabled: the others keep dst (= b)
    res, bits, z = run(write_manifest, tmp_path, dtype, 7)
    ok(res)
    np.testing.assert_array_equal(bits, packbits(a < h))
    enabled = (np.arange(N) % per) % 2 == 0
    np.testing.assert_array_equal(z, np.where(enabled, np.where(a < h, a, h), b))


@pytest.mark.parametrize("dtype", DTYPES)
def test_select_mode0_reuses_the_first_repeat_bits(write_manifest, tmp_path: Path, dtype: str) -> None:
    a, b = inputs(dtype)
    per = 256 // a.itemsize
    res, bits, z = run(write_manifest, tmp_path, dtype, 4)
    ok(res)
    first = (a != b)[:per]
    np.testing.assert_array_equal(z, np.where(np.tile(first, N // per), a, b))
    # Compare into the CMPMASK register (one repeat), read back, Select<T, VSEL_CMPMASK_SPR> from the register
    res, bits, z = run(write_manifest, tmp_path, dtype, 8)
    ok(res)
    reg = np.zeros(128, bool)
    reg[:per] = (a > b)[:per]
    np.testing.assert_array_equal(bits[:16], packbits(reg))
    assert (bits[16:] == PRE).all()
    np.testing.assert_array_equal(z, np.where(np.tile((a > b)[:per], N // per), a, b))


@pytest.mark.parametrize("dtype", DTYPES)
def test_set_cmp_mask_feeds_select_scalar(write_manifest, tmp_path: Path, dtype: str) -> None:
    a, _ = inputs(dtype)
    res, _, z = run(write_manifest, tmp_path, dtype, 9)
    ok(res)
    np.testing.assert_array_equal(z, np.where(a > np.asarray(0.5, dtype), a, np.asarray(-2, dtype)))


@pytest.mark.parametrize("dtype", DTYPES)
def test_compare_256_byte_rule_drops_the_tail(write_manifest, tmp_path: Path, dtype: str) -> None:
    a, b = inputs(dtype)
    per = 256 // a.itemsize
    res, bits, _ = run(write_manifest, tmp_path, dtype, 5)
    assert res.status == "ok"
    hits = [f for f in res.findings if f.code == "SIM-CMP-COUNT"]
    assert hits and hits[0].severity is Severity.WARNING
    assert hits[0].span.path == str(SRC) and hits[0].span.line == marker_line(SRC, "SIM-CMP-COUNT")
    done = (N - 8) // per * per
    np.testing.assert_array_equal(bits[: done // 8], packbits((a <= b)[:done]))
    assert (bits[done // 8:] == PRE).all()


def test_repeat_zero_is_a_no_op(write_manifest, tmp_path: Path) -> None:
    _, b = inputs("float32")
    res, bits, z = run(write_manifest, tmp_path, "float32", 6)
    ok(res)
    assert (bits == PRE).all()
    np.testing.assert_array_equal(z, b)


@pytest.mark.parametrize(("mode", "code", "severity", "words"), [
    (10, "SIM-CMP-MODE", Severity.ERROR, "only CMPMODE::EQ"),
    (11, "SIM-REPEAT", Severity.ERROR, "out of range [0, 255]"),
    (12, "SIM-SEL-SCRATCH", Severity.WARNING, "reserved UB scratch"),
])
def test_checks_at_the_callers_line(write_manifest, tmp_path: Path, mode: int, code: str, severity: Severity,
                                    words: str) -> None:
    res, _, _ = run(write_manifest, tmp_path, "float32", mode)
    hits = [f for f in res.findings if f.code == code]
    assert hits, [(f.code, f.message) for f in res.findings]
    assert hits[0].span.path == str(SRC) and hits[0].span.line == marker_line(SRC, code)
    assert hits[0].severity is severity and words in hits[0].message
    assert res.status == ("runtime_error" if severity is Severity.ERROR else "ok")
