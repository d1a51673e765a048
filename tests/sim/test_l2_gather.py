"""Gather and GatherMask against numpy: Gather by byte offsets (count and mask forms), GatherMask with a pattern
tensor (normal mode with a src1 repeat stride, counter mode) and the built-in patterns, the kept-element count, the
documented src == dst misuse (a warning) and an offset past UB (an error at the caller's line)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.findings import Severity
from akgen_lsp.sim import SimResult, run_manifest

from .conftest import KERNELS, marker_line, needs_gxx

pytestmark = needs_gxx

SRC = KERNELS / "l2_gather.cpp"
N = 2048
CTYPE = {"float32": "float", "float16": "half", "int32": "int32_t", "int16": "int16_t"}


def run(write_manifest, tmp_path: Path, dtype: str, mode: int, n: int = 0, rep: int = 0, stride: int = 0,
        off: np.ndarray | None = None, pat: np.ndarray | None = None
        ) -> tuple[SimResult, np.ndarray, np.ndarray | None, np.ndarray | None]:
    rng = np.random.default_rng(mode + 17 * n)
    x = (rng.uniform(-100, 100, N) if np.dtype(dtype).kind == "f" else rng.integers(-1000, 1000, N)).astype(dtype)
    off = np.zeros(N, np.uint32) if off is None else off.astype(np.uint32)
    pat = np.zeros(64, np.uint32) if pat is None else pat.astype(np.uint32)
    m = write_manifest(SRC, "l2_gather", [
        {"name": "x", "input": x}, {"name": "off", "input": off}, {"name": "pat", "input": pat},
        {"name": "z", "output": "z.npy", "dtype": dtype, "shape": [N]},
        {"name": "cnt", "output": "cnt.npy", "dtype": "int32", "shape": [8]},
        {"name": "mode", "scalar": mode, "type": "int32_t"}, {"name": "n", "scalar": n, "type": "int32_t"},
        {"name": "rep", "scalar": rep, "type": "int32_t"}, {"name": "stride", "scalar": stride, "type": "int32_t"},
    ], defines={"DTYPE_X": CTYPE[dtype]})
    res = run_manifest(m, tmp_path / f"o{mode}_{dtype}_{n}_{rep}_{stride}", confine=False)
    ok = res.status == "ok"
    return res, x, (np.load(res.outputs["z"]) if ok else None), (np.load(res.outputs["cnt"]) if ok else None)


def clean(res: SimResult) -> None:
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    assert not [f for f in res.findings if f.severity is not Severity.INFO], [f.message for f in res.findings]


def bits(pat: np.ndarray, dtype: str) -> np.ndarray:
    """The pattern words as a flat bit array, LSB first, in words of the pattern type (16 or 32 bits)."""
    word = np.uint16 if np.dtype(dtype).itemsize == 2 else np.uint32
    w = pat.astype(np.uint32).view(word)
    nb = np.dtype(word).itemsize * 8
    return ((w[:, None] >> np.arange(nb, dtype=word)) & 1).astype(bool).reshape(-1)


@pytest.mark.parametrize("dtype", ["float32", "int16"])
def test_gather_count_and_mask_forms(write_manifest, tmp_path: Path, dtype: str) -> None:
    size = np.dtype(dtype).itemsize
    idx = np.random.default_rng(1).integers(0, N, N)
    res, x, z, _ = run(write_manifest, tmp_path, dtype, 0, n=1000, off=idx * size)
    clean(res)
    assert z is not None
    np.testing.assert_array_equal(z[:1000], x[idx[:1000]])
    assert not z[1000:].any()
    per = 256 // size
    res, x, z, _ = run(write_manifest, tmp_path, dtype, 1, n=per - 5, rep=3, off=idx * size)
    clean(res)
    assert z is not None
    want = np.zeros(N, dtype)
    for r in range(3):
        for e in range(per - 5):
            want[r * per + e] = x[idx[r * per + e]]
    np.testing.assert_array_equal(z, want)


@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_gather_mask_tensor_pattern_normal_and_counter(write_manifest, tmp_path: Path, dtype: str) -> None:
    per = 256 // np.dtype(dtype).itemsize
    pat = np.random.default_rng(2).integers(0, 2**32, 64, dtype=np.uint64).astype(np.uint32)
    b = bits(pat, dtype)
    res, x, z, cnt = run(write_manifest, tmp_path, dtype, 2, rep=3, stride=1, pat=pat)
    clean(res)
    assert z is not None and cnt is not None
    kept = np.concatenate([x[r * per:(r + 1) * per][b[r * 256:r * 256 + per]] for r in range(3)])
    np.testing.assert_array_equal(z[:kept.size], kept)
    assert not z[kept.size:].any() and cnt[0] == kept.size and cnt[1] == kept.size
    res, x, z, cnt = run(write_manifest, tmp_path, dtype, 3, n=700, pat=pat)
    clean(res)
    assert z is not None and cnt is not None
    kept = x[:700][b[:700]]
    np.testing.assert_array_equal(z[:kept.size], kept)
    assert cnt[0] == kept.size


@pytest.mark.parametrize(("pattern", "pick"), [(1, lambda e: e % 2 == 0), (2, lambda e: e % 2 == 1),
                                               (4, lambda e: e % 4 == 1), (7, lambda e: e >= 0)])
def test_gather_mask_builtin_patterns(write_manifest, tmp_path: Path, pattern: int, pick) -> None:
    res, x, z, cnt = run(write_manifest, tmp_path, "float16", 4, n=pattern, rep=2)
    clean(res)
    assert z is not None and cnt is not None
    e = np.arange(256)
    kept = x[:256][pick(e % 128)]
    np.testing.assert_array_equal(z[:kept.size], kept)
    assert cnt[0] == kept.size


def test_gather_in_place_warns_and_offset_past_ub_fails(write_manifest, tmp_path: Path) -> None:
    idx = np.arange(N) // 8 * 8  # each block takes its first element, as AddRmsNorm does in place
    res, x, z, _ = run(write_manifest, tmp_path, "float32", 5, n=512, off=idx * 4)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    hits = [f for f in res.findings if f.code == "SIM-GATHER-SAME"]
    assert hits and hits[0].severity is Severity.WARNING and hits[0].span.line == marker_line(SRC, "SIM-GATHER-SAME")
    assert z is not None
    np.testing.assert_array_equal(z[:512], x[idx[:512]])
    res, _, _, _ = run(write_manifest, tmp_path, "float32", 6, n=8)
    bad = [f for f in res.findings if f.code == "SIM-UB-OOB"]
    assert bad and bad[0].span.line == marker_line(SRC, "SIM-UB-OOB")
