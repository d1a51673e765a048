"""The level-2 APIs against numpy models of the A2/A3 library: Sum and Mean (adv reduce: counter-mode RepeatReduceSum
passes, adjacent-pair trees rounding every add to T; Mean scales by 1/n, half with accType float sums in float),
BroadCast (axis 0 in place, axis 1), the raw vcadd intrinsic (mode 0: one tree sum per repeat; mode 1: repeat sums
added in order into ACC_VAL, read with get_acc_val), and the parameter check of Sum."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.findings import Severity
from akgen_lsp.sim import SimResult, run_manifest

from .conftest import KERNELS, marker_line, needs_gxx

pytestmark = needs_gxx

SRC = KERNELS / "l2_adv.cpp"
N = 4096
CTYPE = {"float32": "float", "float16": "half"}


def run(write_manifest, tmp_path: Path, dtype: str, x: np.ndarray, mode: int, rows: int, cols: int,
        n: int) -> tuple[SimResult, np.ndarray | None]:
    m = write_manifest(SRC, "l2_adv", [
        {"name": "x", "input": x.astype(dtype)},
        {"name": "z", "output": "z.npy", "dtype": dtype, "shape": [N]},
        {"name": "mode", "scalar": mode, "type": "int32_t"},
        {"name": "rows", "scalar": rows, "type": "int32_t"},
        {"name": "cols", "scalar": cols, "type": "int32_t"},
        {"name": "n", "scalar": n, "type": "int32_t"},
    ], defines={"DTYPE_X": CTYPE[dtype]})
    res = run_manifest(m, tmp_path / f"o{mode}_{dtype}_{rows}_{cols}_{n}", confine=False)
    return res, (np.load(res.outputs["z"]) if res.status == "ok" else None)


def clean(res: SimResult) -> None:
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    assert not [f for f in res.findings if f.severity is not Severity.INFO], [f.message for f in res.findings]


def tree(v: np.ndarray, dtype: str) -> np.generic:
    """One repeat: adjacent pairs added level by level, each add rounded to dtype (float16 adds in float32)."""
    t = np.dtype(dtype).type
    v = [t(e) for e in v]
    while len(v) > 1:
        v = [t(np.float32(v[i]) + np.float32(v[i + 1])) for i in range(0, len(v), 2)]
    return v[0]


def passes(v: np.ndarray, dtype: str) -> np.generic:
    per = 256 // np.dtype(dtype).itemsize
    t = np.dtype(dtype).type
    vals = [t(e) for e in v]
    while len(vals) > 1:
        out = []
        for i in range(0, len(vals), per):
            chunk = np.zeros(per, dtype=dtype)
            part = vals[i:i + per]
            chunk[:len(part)] = part
            out.append(tree(chunk, dtype))
        vals = out
    return vals[0]


def data(dtype: str, seed: int = 5) -> np.ndarray:
    return np.random.default_rng(seed).uniform(-2, 2, N).astype(dtype)


@pytest.mark.parametrize("dtype", ["float32", "float16"])
@pytest.mark.parametrize(("rows", "cols", "n"), [(4, 64, 60), (3, 1024, 1000), (2, 2048, 2048)])
def test_sum_and_mean_match_the_library_order(write_manifest, tmp_path: Path, dtype: str, rows: int, cols: int,
                                              n: int) -> None:
    x = data(dtype)
    res, z = run(write_manifest, tmp_path, dtype, x, 0, rows, cols, n)
    clean(res)
    assert z is not None
    want = np.array([passes(x[r * cols:r * cols + n], dtype) for r in range(rows)], dtype=dtype)
    np.testing.assert_array_equal(z[:rows], want)
    assert not z[rows:].any()
    exact = x.astype(np.float64).reshape(-1, cols)[:rows, :n].sum(axis=1)
    np.testing.assert_allclose(z[:rows].astype(np.float64), exact, rtol=1e-4 if dtype == "float32" else 2e-2,
                               atol=1e-4 if dtype == "float32" else 0.1)
    res, z = run(write_manifest, tmp_path, dtype, x, 1, rows, cols, n)
    clean(res)
    t = np.dtype(dtype).type
    k = t(np.float32(1.0) / np.float32(n))
    np.testing.assert_array_equal(z[:rows], np.array([t(np.float32(w) * np.float32(k)) for w in want], dtype=dtype))


def test_half_mean_accumulates_in_float(write_manifest, tmp_path: Path) -> None:
    x = data("float16", 9)
    rows, cols, n = 2, 1024, 1000
    res, z = run(write_manifest, tmp_path, "float16", x, 2, rows, cols, n)
    clean(res)
    assert z is not None
    want = [np.float16(passes(x[r * cols:r * cols + n].astype(np.float32), "float32") * (np.float32(1) / np.float32(n)))
            for r in range(rows)]
    np.testing.assert_array_equal(z[:rows], np.array(want, dtype=np.float16))


@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_broadcast_rows_in_place_and_columns(write_manifest, tmp_path: Path, dtype: str) -> None:
    x = data(dtype, 3)
    rows, cols = 6, 48
    res, z = run(write_manifest, tmp_path, dtype, x, 3, rows, cols, 0)
    clean(res)
    assert z is not None
    np.testing.assert_array_equal(z[:rows * cols], np.tile(x[:cols], rows))
    np.testing.assert_array_equal(z[rows * cols:], x[rows * cols:])  # past the broadcast: untouched
    res, z = run(write_manifest, tmp_path, dtype, x, 4, rows, cols, 0)
    clean(res)
    assert z is not None
    np.testing.assert_array_equal(z[:rows * cols], np.repeat(x[:rows], cols))
    assert not z[rows * cols:].any()


@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_vcadd_per_repeat_and_accumulated(write_manifest, tmp_path: Path, dtype: str) -> None:
    x = data(dtype, 4)
    per = 256 // np.dtype(dtype).itemsize
    repeat, mask = 5, per - 3
    sums = [tree(np.where(np.arange(per) < mask, x[r * per:(r + 1) * per], 0), dtype) for r in range(repeat)]
    res, z = run(write_manifest, tmp_path, dtype, x, 5, repeat, 0, mask)
    clean(res)
    assert z is not None
    np.testing.assert_array_equal(z[:repeat], np.array(sums, dtype=dtype))
    assert not z[repeat:].any()
    res, z = run(write_manifest, tmp_path, dtype, x, 6, repeat, 0, mask)
    clean(res)
    assert z is not None
    t = np.dtype(dtype).type
    acc = sums[0]
    for s in sums[1:]:
        acc = t(np.float32(acc) + np.float32(s))
    assert z[0] == acc


def test_sum_with_n_past_inner_is_reported(write_manifest, tmp_path: Path) -> None:
    res, _ = run(write_manifest, tmp_path, "float32", data("float32"), 7, 2, 64, 0)
    bad = [f for f in res.findings if f.code == "SIM-ADV-PARAMS"]
    assert bad and bad[0].span.line == marker_line(SRC, "SIM-ADV-PARAMS")


def taylor_exp(x: np.ndarray, level: int) -> np.ndarray:
    """The library's float sequence: exp(floor(x)) * (1 + d + sum d^n / n!), each step rounded to float32."""
    x = x.astype(np.float32)
    ip = np.floor(x).astype(np.float32)
    d = (x - ip).astype(np.float32)
    pw = d.copy()
    res = (d + np.float32(1)).astype(np.float32)
    for n in range(2, level + 1):
        pw = (d * pw).astype(np.float32)
        pw = (pw * (np.float32(1) / np.float32(n))).astype(np.float32)
        res = (res + pw).astype(np.float32)
    return (res * np.exp(ip).astype(np.float32)).astype(np.float32)


@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_adv_exp_taylor_levels(write_manifest, tmp_path: Path, dtype: str) -> None:
    x = data(dtype, 12) * 3
    for mode, level in ((8, 15), (9, 3)):
        res, z = run(write_manifest, tmp_path, dtype, x, mode, 0, 0, 1000)
        clean(res)
        assert z is not None
        want = taylor_exp(x[:1000], level).astype(dtype)
        if dtype == "float32":
            np.testing.assert_allclose(z[:1000], want, rtol=2e-6)  # exp(floor(x)): the vector Exp vs numpy
        else:
            np.testing.assert_allclose(z[:1000].astype(np.float32), want.astype(np.float32), rtol=1e-3)
        assert not z[1000:].any()
    exact = np.exp(x[:1000].astype(np.float64))
    res, z = run(write_manifest, tmp_path, dtype, x, 9, 0, 0, 1000)
    assert z is not None
    assert np.abs(z[:1000].astype(np.float64) / exact - 1).max() > 1e-3  # level 3 truncates the series: coarse
