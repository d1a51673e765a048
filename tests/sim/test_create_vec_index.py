"""CreateVecIndex against numpy in every dtype A2/A3 take (half, float, int16_t, int32_t): the count form is
np.arange(first, first + count); the mask + repeat forms put first + r * (elements per repeat) + e at element e of
repeat r (continuous mask and mask bits, block and repeat strides); count / repeatTime 0 write nothing; half values
past 2048 round per Adds as the hardware builds them; int16 wraps. Plus its two checks at the caller's line."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.findings import Severity
from akgen_lsp.sim import SimResult, run_manifest

from .conftest import KERNELS, marker_line, needs_gxx

pytestmark = needs_gxx

SRC = KERNELS / "create_vec_index.cpp"
N = 2048
C_TYPES = {"float16": "half", "float32": "float", "int16": "int16_t", "int32": "int32_t"}
DTYPES = list(C_TYPES)
SENTINEL = -7


def run(write_manifest, tmp_path: Path, dtype: str, mode: int, first: int = 0, count: int = 0, mask: int = 0,
        mask_hi: int = 0, repeat: int = 0, blk: int = 1, rep: int = 8) -> tuple[SimResult, np.ndarray | None]:
    m = write_manifest(SRC, "create_vec_index", [
        {"name": "z", "output": "z.npy", "dtype": dtype, "shape": [N]},
        {"name": "mode", "scalar": mode, "type": "int32_t"},
        {"name": "first", "scalar": first, "type": "int64_t"},
        {"name": "count", "scalar": count, "type": "uint32_t"},
        {"name": "maskLo", "scalar": mask, "type": "uint64_t"},
        {"name": "maskHi", "scalar": mask_hi, "type": "uint64_t"},
        {"name": "repeat", "scalar": repeat, "type": "int32_t"},
        {"name": "blkStride", "scalar": blk, "type": "int32_t"},
        {"name": "repStride", "scalar": rep, "type": "int32_t"},
    ], defines={"DTYPE_Z": C_TYPES[dtype]})
    res = run_manifest(m, tmp_path / f"o{mode}_{first}_{count}_{mask}_{repeat}", confine=False)
    return res, (np.load(res.outputs["z"]) if res.status == "ok" else None)


def clean(res: SimResult) -> None:
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    assert not [f for f in res.findings if f.severity is not Severity.INFO], [f.message for f in res.findings]


def repeat_expected(dtype: str, first: int, enabled: list[int], repeat: int, blk_stride: int,
                    rep_stride: int) -> np.ndarray:
    size = np.dtype(dtype).itemsize
    blk, per = 32 // size, 256 // size
    z = np.full(N, SENTINEL, dtype=dtype)
    for r in range(repeat):
        for e in enabled:
            z[r * rep_stride * blk + (e // blk) * blk_stride * blk + e % blk] = first + r * per + e
    return z


@pytest.mark.parametrize("dtype", DTYPES)
def test_count_form_is_arange(write_manifest, tmp_path: Path, dtype: str) -> None:
    res, z = run(write_manifest, tmp_path, dtype, 0, first=-300, count=1000)  # blocks, repeats and a tail
    clean(res)
    want = np.full(N, SENTINEL, dtype=dtype)
    want[:1000] = np.arange(-300, 700, dtype=dtype)
    np.testing.assert_array_equal(z, want)
    res, z = run(write_manifest, tmp_path, dtype, 0, first=5, count=3)  # less than one block
    clean(res)
    assert list(z[:4]) == [5, 6, 7, SENTINEL]
    res, z = run(write_manifest, tmp_path, dtype, 0, first=5, count=0)  # a NOP
    clean(res)
    assert (z == SENTINEL).all()


@pytest.mark.parametrize("dtype", DTYPES)
def test_continuous_mask_with_strides(write_manifest, tmp_path: Path, dtype: str) -> None:
    per = 256 // np.dtype(dtype).itemsize
    mask = per - 3  # the last block has a tail
    res, z = run(write_manifest, tmp_path, dtype, 1, first=10, mask=mask, repeat=3, blk=2, rep=20)
    clean(res)
    np.testing.assert_array_equal(z, repeat_expected(dtype, 10, list(range(mask)), 3, 2, 20))
    res, z = run(write_manifest, tmp_path, dtype, 1, first=10, mask=mask, repeat=0)  # a NOP
    clean(res)
    assert (z == SENTINEL).all()


@pytest.mark.parametrize("dtype", DTYPES)
def test_mask_bits(write_manifest, tmp_path: Path, dtype: str) -> None:
    lo, hi = 0xF0F0_0000_FFFF_1234, 0x8000_0000_0000_0003
    per = 256 // np.dtype(dtype).itemsize
    if per == 64:
        hi = 0  # 32-bit types: one repeat is 64 elements, mask[1] must be 0
    enabled = [e for e in range(per) if ((lo | (hi << 64)) >> e) & 1]
    res, z = run(write_manifest, tmp_path, dtype, 2, first=-20, mask=lo, mask_hi=hi, repeat=2, blk=1, rep=8)
    clean(res)
    np.testing.assert_array_equal(z, repeat_expected(dtype, -20, enabled, 2, 1, 8))


def test_half_rounds_per_add_and_int16_wraps(write_manifest, tmp_path: Path) -> None:
    # half: block 0 is first + i rounded once; each later block adds 16, each later repeat 128, rounding every time
    res, z = run(write_manifest, tmp_path, "float16", 0, first=8001, count=1000)  # spacing 8: rounding drifts
    clean(res)
    want = np.full(N, SENTINEL, dtype=np.float16)
    first = np.float32(np.float16(8001))  # firstValue is a half: 8000
    want[:16] = (first + np.arange(16, dtype=np.float32)).astype(np.float16)
    for i in range(16, 1000):
        step, back = (16, 16) if i < 128 else (128, 128)
        want[i] = np.float16(np.float32(want[i - back]) + np.float32(step))
    np.testing.assert_array_equal(z, want)
    assert not np.array_equal(want[:1000], np.arange(first, first + 1000, dtype=np.float32).astype(np.float16))
    res, z = run(write_manifest, tmp_path, "int16", 0, first=32700, count=200)
    clean(res)
    np.testing.assert_array_equal(z[:200], (np.arange(32700, 32900) + 32768) % 65536 - 32768)
    assert z[67] == 32767 and z[68] == -32768 and z[200] == SENTINEL


@pytest.mark.parametrize(("mode", "code", "words"), [
    (3, "SIM-CVI-MASK", "less than one 32-byte block"),
    (4, "SIM-CVI-COUNTER", "counter mask mode"),
])
def test_checks_at_the_callers_line(write_manifest, tmp_path: Path, mode: int, code: str, words: str) -> None:
    res, _ = run(write_manifest, tmp_path, "float32", mode, first=0, mask=4, repeat=1)
    hits = [f for f in res.findings if f.code == code]
    assert hits, [(f.code, f.message) for f in res.findings]
    assert hits[0].span.path == str(SRC) and hits[0].span.line == marker_line(SRC, code)
    assert hits[0].severity is Severity.ERROR and words in hits[0].message
    assert res.status == "runtime_error"
