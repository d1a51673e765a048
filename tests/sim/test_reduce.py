"""Reductions against a numpy model of the hardware's order and precision (adjacent-pair trees per repeat / block,
rounding each add to the dtype; count-form ReduceSum adds repeat results in order, the repeat form reduces them in
trees again), in half and float: ReduceSum/Max/Min (count and mask + repeat forms, index reinterpretation),
WholeReduce* with every ReduceOrder, BlockReduce*, PairReduceSum and the CANN 9.1 names; masks, repeat 0 / mask 0
no-ops, and the runtime checks at the caller's line. One binary per dtype (kernels/reduce.cpp)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.findings import Severity
from akgen_lsp.sim import SimResult, run_manifest

from .conftest import KERNELS, marker_line, needs_gxx

pytestmark = needs_gxx

SRC = KERNELS / "reduce.cpp"
N = 4096
DTYPES = ["float32", "float16"]
CTYPE = {"float32": "float", "float16": "half"}
BITS = (0xF0F00000F00F00FF, 0x0123456789ABCDEF)


def inputs(dtype: str) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(11)
    a = rng.uniform(-3, 3, N).astype(dtype)
    b = np.full(N, -7.0, dtype)  # the prefill of dst
    return a, b


def run(write_manifest, tmp_path: Path, dtype: str, mode: int, cnt: int = N,
        checks: str = "npu") -> tuple[SimResult, np.ndarray]:
    a, b = inputs(dtype)
    m = write_manifest(SRC, "reduce", [
        {"name": "a", "input": a},
        {"name": "b", "input": b},
        {"name": "z", "output": "z.npy", "dtype": dtype, "shape": [N]},
        {"name": "mode", "scalar": mode, "type": "int32_t"},
        {"name": "n", "scalar": N, "type": "int32_t"},
        {"name": "cnt", "scalar": cnt, "type": "int32_t"},
    ], defines={"DTYPE_X": CTYPE[dtype]}, checks=checks)
    res = run_manifest(m, tmp_path / "out", confine=False)
    return res, (np.load(res.outputs["z"]) if res.status == "ok" else np.zeros(0, dtype))


def ok(res: SimResult) -> None:
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    assert not [f for f in res.findings if f.severity is not Severity.INFO], [f.message for f in res.findings]


# ------------------------------------------------------------------------------------------- the numpy model
def add(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    return (x.astype(np.float32) + y.astype(np.float32)).astype(x.dtype)


def tree(v: np.ndarray) -> np.generic:
    while v.size > 1:
        v = add(v[0::2], v[1::2])
    return v[0]


def per_of(dtype: str) -> int:
    return 256 // np.dtype(dtype).itemsize


def bit_mask(per: int) -> np.ndarray:
    e = np.arange(per)
    lo, hi = BITS if per == 128 else (BITS[0], 0)
    return np.array([((lo >> int(i)) & 1) if i < 64 else ((hi >> int(i - 64)) & 1) for i in e], bool)


def cont_mask(per: int, k: int) -> np.ndarray:
    return np.arange(per) < k


def reps(a: np.ndarray, per: int) -> np.ndarray:
    return a.reshape(-1, per)


def whole(a: np.ndarray, per: int, on: np.ndarray, kind: str) -> tuple[np.ndarray, np.ndarray]:
    vals, idx = [], []
    for row in reps(a, per):
        if kind == "sum":
            vals.append(tree(np.where(on, row, np.zeros_like(row))))
            idx.append(0)
        else:
            cand = np.where(on, row, -np.inf if kind == "max" else np.inf).astype(np.float64)
            i = int(np.argmax(cand) if kind == "max" else np.argmin(cand))
            vals.append(row[i])
            idx.append(i)
    return np.array(vals, a.dtype), np.array(idx)


def idx_view(x: np.ndarray) -> np.ndarray:
    return x.view(np.uint16 if x.dtype == np.float16 else np.uint32)


# ------------------------------------------------------------------------------------------- tests
@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("cnt", [N, N - 5, 37])
def test_count_forms(write_manifest, tmp_path: Path, dtype: str, cnt: int) -> None:
    a, b = inputs(dtype)
    per, blk = per_of(dtype), 32 // a.itemsize
    res, z = run(write_manifest, tmp_path, dtype, 0, cnt)
    ok(res)
    padded = np.zeros(-(-cnt // per) * per, dtype)
    padded[:cnt] = a[:cnt]
    parts = [tree(r) for r in reps(padded, per)]
    acc = parts[0]
    for p in parts[1:]:
        acc = add(np.array([acc]), np.array([p]))[0]
    assert z[0] == acc
    assert z[blk] == a[:cnt].max() and idx_view(z[blk:blk + 2])[1] == int(np.argmax(a[:cnt]))
    assert z[2 * blk] == a[:cnt].min() and idx_view(z[2 * blk:2 * blk + 2])[1] == int(np.argmin(a[:cnt]))
    assert z[3 * blk] == a[:cnt].max() and z[3 * blk + 1] == b[0]  # no index asked: only the value is written


@pytest.mark.parametrize("dtype", DTYPES)
def test_repeat_forms(write_manifest, tmp_path: Path, dtype: str) -> None:
    a, _ = inputs(dtype)
    per, blk = per_of(dtype), 32 // a.itemsize
    res, z = run(write_manifest, tmp_path, dtype, 1)
    ok(res)

    def sum2(on: np.ndarray) -> np.generic:
        parts, _ = whole(a, per, on, "sum")
        while parts.size > 1:
            pad = np.zeros(-(-parts.size // per) * per, a.dtype)
            pad[:parts.size] = parts
            parts = np.array([tree(r) for r in reps(pad, per)], a.dtype)
        return parts[0]

    assert z[0] == sum2(np.ones(per, bool))
    assert z[3 * blk] == sum2(bit_mask(per))
    on = np.tile(bit_mask(per), N // per)
    assert z[blk] == a[on].max() and idx_view(z[blk:blk + 2])[1] == int(np.argmax(np.where(on, a, -np.inf)))
    on = np.tile(cont_mask(per, per // 2), N // per)
    assert z[2 * blk] == a[on].min() and idx_view(z[2 * blk:2 * blk + 2])[1] == int(np.argmin(np.where(on, a, np.inf)))


@pytest.mark.parametrize("dtype", DTYPES)
def test_whole_reduce_orders(write_manifest, tmp_path: Path, dtype: str) -> None:
    a, b = inputs(dtype)
    per = per_of(dtype)
    r = N // per
    res, z = run(write_manifest, tmp_path, dtype, 2)
    ok(res)
    s, _ = whole(a, per, cont_mask(per, per - 3), "sum")
    np.testing.assert_array_equal(z[:r], s)
    assert z[r] == b[0]
    v, i = whole(a, per, np.ones(per, bool), "max")
    pairs = z[256:256 + 2 * r]
    np.testing.assert_array_equal(pairs[0::2], v)
    np.testing.assert_array_equal(idx_view(pairs.copy())[1::2], i)
    v, i = whole(a, per, bit_mask(per), "min")
    pairs = z[512:512 + 2 * r]
    np.testing.assert_array_equal(idx_view(pairs.copy())[0::2], i)
    np.testing.assert_array_equal(pairs[1::2], v)
    v, _ = whole(a, per, np.ones(per, bool), "max")
    np.testing.assert_array_equal(z[768:768 + r], v)
    _, i = whole(a, per, np.ones(per, bool), "min")
    words = 4 // a.itemsize
    np.testing.assert_array_equal(z[1024:1024 + r * words].copy().view(np.uint32), i)  # ORDER_ONLY_INDEX: uint32
    s, _ = whole(a, per, np.ones(per, bool), "sum")
    np.testing.assert_array_equal(z[1280:1280 + r:2], s[0::2][: r // 2])
    np.testing.assert_array_equal(z[1281:1280 + r:2], b[: r // 2])


@pytest.mark.parametrize("dtype", DTYPES)
def test_block_reduce_keeps_disabled_blocks(write_manifest, tmp_path: Path, dtype: str) -> None:
    a, b = inputs(dtype)
    per, blk = per_of(dtype), 32 // a.itemsize
    r = N // per
    res, z = run(write_manifest, tmp_path, dtype, 3)
    ok(res)
    on = bit_mask(per).reshape(8, blk)
    exp_sum, exp_min = [], []
    for row in reps(a, per):
        blocks = row.reshape(8, blk)
        for k in range(8):
            if not on[k].any():
                exp_sum.append(b[0])
                exp_min.append(b[0])
                continue
            exp_sum.append(tree(np.where(on[k], blocks[k], np.zeros_like(blocks[k]))))
            exp_min.append(blocks[k][on[k]].min())
    assert not on.any(axis=1).all()  # the mask really leaves a block out
    np.testing.assert_array_equal(z[: 8 * r], np.array(exp_sum, a.dtype))
    np.testing.assert_array_equal(z[1024:1024 + 8 * r], a.reshape(-1, blk).max(axis=1))
    np.testing.assert_array_equal(z[2048:2048 + 8 * r], np.array(exp_min, a.dtype))


@pytest.mark.parametrize("dtype", DTYPES)
def test_pair_sums_and_91_names(write_manifest, tmp_path: Path, dtype: str) -> None:
    a, b = inputs(dtype)
    per, blk = per_of(dtype), 32 // a.itemsize
    r = N // per
    res, z = run(write_manifest, tmp_path, dtype, 4)
    ok(res)
    np.testing.assert_array_equal(z[: N // 2], add(a[0::2], a[1::2]))
    s, _ = whole(a, per, np.ones(per, bool), "sum")
    np.testing.assert_array_equal(z[2048:2048 + r], s)
    v, i = whole(a, per, bit_mask(per), "max")
    np.testing.assert_array_equal(z[2304:2304 + 2 * r:2], v)
    np.testing.assert_array_equal(idx_view(z[2304:2304 + 2 * r].copy())[1::2], i)
    on = bit_mask(per).reshape(8, blk)
    exp = [tree(np.where(on[k], bl[k], np.zeros_like(bl[k]))) if on[k].any() else b[0]
           for bl in (row.reshape(8, blk) for row in reps(a, per)) for k in range(8)]
    np.testing.assert_array_equal(z[2560:2560 + 8 * r], np.array(exp, a.dtype))
    pair_on = bit_mask(per).reshape(-1, 2)
    got = z[N // 2 + 1024: N // 2 + 1024 + (r // 4) * per // 2]
    exp = []
    for row in reps(a, per)[: r // 4]:
        p = row.reshape(-1, 2)
        for k in range(per // 2):
            if not pair_on[k].any():
                exp.append(b[0])
            else:
                exp.append(add(np.array([p[k][0] if pair_on[k][0] else 0], a.dtype),
                               np.array([p[k][1] if pair_on[k][1] else 0], a.dtype))[0])
    np.testing.assert_array_equal(got, np.array(exp, a.dtype))


def test_repeat_zero_mask_zero_count_zero_are_no_ops(write_manifest, tmp_path: Path) -> None:
    _, b = inputs("float32")
    res, z = run(write_manifest, tmp_path, "float32", 5)
    ok(res)
    np.testing.assert_array_equal(z, b)


@pytest.mark.parametrize("dtype", DTYPES)
def test_reduction_registers(write_manifest, tmp_path: Path, dtype: str) -> None:
    a, _ = inputs(dtype)
    res, z = run(write_manifest, tmp_path, dtype, 9, N - 5)
    ok(res)
    assert z[0] == a.max()
    assert int(idx_view(z[:2].copy())[1]) == int(np.argmax(a))  # the index's bits, in a T
    res0, z0 = run(write_manifest, tmp_path, dtype, 0, N - 5)
    ok(res0)
    assert z[2] == z0[0]  # ACC_VAL holds what the count form of ReduceSum wrote


@pytest.mark.parametrize(("mode", "code", "words"), [
    (10, "SIM-DTYPE", "half, float"),
    (6, "SIM-REPEAT", "out of range [0, 255]"),
    (7, "SIM-UB-SIZE", "sharedTmpBuffer"),
    (8, "SIM-UB-ALIGN", "byte aligned"),
])
@pytest.mark.parametrize("dtype", DTYPES)
def test_checks_at_the_callers_line(write_manifest, tmp_path: Path, dtype: str, mode: int, code: str,
                                    words: str) -> None:
    # SIM-UB-SIZE is a check of CANN's CPU debug only: it stops the block in the cpu-debug check mode
    res, _ = run(write_manifest, tmp_path, dtype, mode, N - 5, checks="cpu-debug" if code == "SIM-UB-SIZE" else "npu")
    hits = [f for f in res.findings if f.code == code]
    assert hits, [(f.code, f.message) for f in res.findings]
    assert hits[0].span.path == str(SRC) and hits[0].span.line == marker_line(SRC, code)
    assert hits[0].severity is Severity.ERROR and words in hits[0].message
    assert res.status == "runtime_error"
