"""Brcb against numpy in every dtype A2/A3 take (int16, uint16, half, bfloat16, int32, uint32, float): element
i * 8 + j of src fills block j of repeat i of dst (block and repeat strides in 32-byte blocks), nothing else is
written, repeatTime 0 writes nothing, dstBlkStride 0 acts as 1 (with a warning), Brcb resets the vector mask, and
src == dst is reported at the caller's line."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.findings import Severity
from akgen_lsp.sim import SimResult, run_manifest

from .conftest import KERNELS, marker_line, needs_gxx

pytestmark = needs_gxx

SRC = KERNELS / "brcb.cpp"
N = 2048
DTYPES = ["int16", "uint16", "float16", "bfloat16", "int32", "uint32", "float32"]
STORE = {"bfloat16": np.uint16}  # bfloat16 travels as its bit patterns


def values(dtype: str) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(11)
    if dtype == "bfloat16":
        f = rng.uniform(-100, 100, 64 + N).astype(np.float32)
        bits = (f.view(np.uint32) >> 16).astype(np.uint16)
        return bits[:64], bits[64:]
    if np.dtype(dtype).kind == "f":
        a = rng.uniform(-100, 100, 64 + N).astype(dtype)
    else:
        info = np.iinfo(dtype)
        a = rng.integers(info.min, info.max, 64 + N, endpoint=True).astype(dtype)
    return a[:64], a[64:]


def run(write_manifest, tmp_path: Path, dtype: str, mode: int, repeat: int, blk: int = 1,
        rep: int = 8) -> tuple[SimResult, np.ndarray, np.ndarray, np.ndarray | None]:
    x, init = values(dtype)
    m = write_manifest(SRC, "brcb", [
        {"name": "x", "input": x},
        {"name": "init", "input": init},
        {"name": "z", "output": "z.npy", "dtype": dtype, "shape": [N]},
        {"name": "mode", "scalar": mode, "type": "int32_t"},
        {"name": "repeat", "scalar": repeat, "type": "int32_t"},
        {"name": "blkStride", "scalar": blk, "type": "int32_t"},
        {"name": "repStride", "scalar": rep, "type": "int32_t"},
    ], defines={"DTYPE_X": {"int16": "int16_t", "uint16": "uint16_t", "float16": "half", "bfloat16": "bfloat16_t",
                            "int32": "int32_t", "uint32": "uint32_t", "float32": "float"}[dtype]})
    res = run_manifest(m, tmp_path / f"o{mode}_{repeat}_{blk}_{rep}", confine=False)
    return res, x, init, (np.load(res.outputs["z"]) if res.status == "ok" else None)


def expected(x: np.ndarray, init: np.ndarray, repeat: int, blk: int, rep: int) -> np.ndarray:
    per_blk = 32 // x.dtype.itemsize
    z = init.copy()
    for i in range(repeat):
        for j in range(8):
            start = (i * rep + j * blk) * per_blk
            z[start:start + per_blk] = x[i * 8 + j]
    return z


def clean(res: SimResult) -> None:
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    assert not [f for f in res.findings if f.severity is not Severity.INFO], [f.message for f in res.findings]


@pytest.mark.parametrize("dtype", DTYPES)
def test_broadcasts_each_element_to_a_block(write_manifest, tmp_path: Path, dtype: str) -> None:
    res, x, init, z = run(write_manifest, tmp_path, dtype, 0, repeat=3, blk=2, rep=20)
    clean(res)
    assert z is not None and z.dtype == np.dtype(STORE.get(dtype, dtype))
    np.testing.assert_array_equal(z, expected(x, init, 3, 2, 20))
    res, x, init, z = run(write_manifest, tmp_path, dtype, 0, repeat=8)  # contiguous: 64 blocks back to back
    clean(res)
    np.testing.assert_array_equal(z, expected(x, init, 8, 1, 8))
    res, x, init, z = run(write_manifest, tmp_path, dtype, 0, repeat=0)  # a NOP
    clean(res)
    np.testing.assert_array_equal(z, init)


def test_resets_the_mask_and_zero_block_stride_is_one(write_manifest, tmp_path: Path) -> None:
    res, x, init, z = run(write_manifest, tmp_path, "float32", 2, repeat=2)
    clean(res)
    want = expected(x, init, 2, 1, 8)
    want[1024:1024 + 64] = 5.0  # the whole repeat: SetVectorMask(0, 0xF) was undone by Brcb's ResetMask
    np.testing.assert_array_equal(z, want)
    res, x, init, z = run(write_manifest, tmp_path, "float32", 3, repeat=2, rep=10)
    assert res.status == "ok"
    hits = [f for f in res.findings if f.code == "SIM-BRCB-BLKSTRIDE"]
    assert hits and hits[0].severity is Severity.WARNING and hits[0].span.line == marker_line(SRC, "SIM-BRCB-BLKSTRIDE")
    np.testing.assert_array_equal(z, expected(x, init, 2, 1, 10))


def test_same_tensor_is_reported_at_the_callers_line(write_manifest, tmp_path: Path) -> None:
    res, *_ = run(write_manifest, tmp_path, "float16", 1, repeat=1)
    hits = [f for f in res.findings if f.code == "SIM-BRCB-SAME"]
    assert hits, [(f.code, f.message) for f in res.findings]
    assert hits[0].span.path == str(SRC) and hits[0].span.line == marker_line(SRC, "SIM-BRCB-SAME")
    assert hits[0].severity is Severity.ERROR and "same addr" in hits[0].message
    assert res.status == "runtime_error"
