"""SoftmaxFlashV2 (adv_softmax_flash.h) against numpy's FlashAttention-2 online-softmax recurrence, its kernel-side
tiling, and the host tiling helpers (GetSoftMaxFlashV2Min/MaxTmpSize, SoftMaxFlashV2TilingFunc)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.sim import run_manifest

from .conftest import KERNELS, marker_line, needs_gxx, run_host_program

pytestmark = needs_gxx

SRC = KERNELS / "softmax_flash.cpp"


def _online_softmax(x0: np.ndarray, x1: np.ndarray) -> dict[str, np.ndarray]:
    """SoftmaxFlashV2.md's Python: the first block without update, the second with it (float64)."""
    a, b = x0.astype(np.float64), x1.astype(np.float64)
    m0 = a.max(axis=1, keepdims=True)
    d0 = np.exp(a - m0)
    s0 = d0.sum(axis=1, keepdims=True)
    m1 = np.maximum(m0, b.max(axis=1, keepdims=True))
    d1 = np.exp(b - m1)
    em = np.exp(m0 - m1)
    s1 = em * s0 + d1.sum(axis=1, keepdims=True)
    return {"d0": d0, "d1": d1, "s": s1, "mx": m1, "em": em}


@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_two_blocks_follow_the_online_softmax(write_manifest, tmp_path: Path, dtype: str) -> None:
    m, k = 16, 64
    rng = np.random.default_rng(7)
    x0 = rng.uniform(-4, 4, (m, k)).astype(dtype)
    x1 = rng.uniform(-4, 4, (m, k)).astype(dtype)
    x1[::3] += 3  # some rows get a larger max in the second block: expMax < 1 there
    per = 32 // np.dtype(dtype).itemsize
    args = [{"name": "x0", "input": x0}, {"name": "x1", "input": x1},
            {"name": "d0", "output": "d0.npy", "dtype": dtype, "shape": [m, k]},
            {"name": "d1", "output": "d1.npy", "dtype": dtype, "shape": [m, k]},
            {"name": "s", "output": "s.npy", "dtype": "float32", "shape": [m, 8]},
            {"name": "mx", "output": "mx.npy", "dtype": "float32", "shape": [m, 8]},
            {"name": "em", "output": "em.npy", "dtype": dtype, "shape": [m, per]},
            {"name": "m", "scalar": m, "type": "uint32_t"}, {"name": "k", "scalar": k, "type": "uint32_t"}]
    kernel = "flash_float" if dtype == "float32" else "flash_half"
    res = run_manifest(write_manifest(SRC, kernel, args), tmp_path, confine=False)
    assert res.status == "ok", [f.message for f in res.findings]
    ref = _online_softmax(x0, x1)
    tol = 1e-5 if dtype == "float32" else 2e-3
    for name in ("d0", "d1", "s", "mx", "em"):
        got = np.load(res.outputs[name]).astype(np.float64)
        want = np.broadcast_to(ref[name], got.shape)
        assert np.allclose(got, want, rtol=tol, atol=tol), name
    # the recurrence's point: rescaled blocks over the final sum are the softmax of the whole row
    full = np.concatenate([x0, x1], axis=1).astype(np.float64)
    soft = np.exp(full - full.max(axis=1, keepdims=True))
    soft /= soft.sum(axis=1, keepdims=True)
    d0, d1 = np.load(res.outputs["d0"]).astype(np.float64), np.load(res.outputs["d1"]).astype(np.float64)
    em, s = np.load(res.outputs["em"])[:, :1].astype(np.float64), np.load(res.outputs["s"])[:, :1]
    assert np.allclose(np.concatenate([d0 * em, d1], axis=1) / s, soft, rtol=tol * 10, atol=tol)


def test_padded_columns_stay_out_of_max_and_sum(write_manifest, tmp_path: Path) -> None:
    m, k, valid = 8, 64, 37
    x = np.random.default_rng(9).uniform(-2, 2, (m, k)).astype(np.float32)
    x[:, valid:] = 50.0  # padding larger than any valid value: it must not become the max
    args = [{"name": "x", "input": x}, {"name": "d", "output": "d.npy", "dtype": "float32", "shape": [m, k]},
            {"name": "s", "output": "s.npy", "dtype": "float32", "shape": [m, 8]},
            {"name": "mx", "output": "mx.npy", "dtype": "float32", "shape": [m, 8]},
            {"name": "m", "scalar": m, "type": "uint32_t"}, {"name": "k", "scalar": k, "type": "uint32_t"},
            {"name": "valid", "scalar": valid, "type": "uint32_t"}]
    res = run_manifest(write_manifest(SRC, "flash_padded", args), tmp_path, confine=False)
    assert res.status == "ok", [f.message for f in res.findings]
    mx = x[:, :valid].max(axis=1, keepdims=True)
    d = np.exp(x.astype(np.float64) - mx)  # every column is written, the padding too
    assert np.allclose(np.load(res.outputs["mx"]), np.broadcast_to(mx, (m, 8)))
    assert np.allclose(np.load(res.outputs["d"]), d, rtol=1e-5)
    assert np.allclose(np.load(res.outputs["s"]), np.broadcast_to(d[:, :valid].sum(axis=1, keepdims=True), (m, 8)),
                       rtol=1e-5)


def test_too_small_sum_tensor_is_reported(write_manifest, tmp_path: Path) -> None:
    x = np.zeros((16, 64), dtype=np.float32)
    args = [{"name": "x", "input": x}, {"name": "d", "output": "d.npy", "dtype": "float32", "shape": [16, 64]}]
    res = run_manifest(write_manifest(SRC, "flash_small_sum", args, checks="cpu-debug"), tmp_path, confine=False)
    bad = [f for f in res.findings if f.code == "SIM-UB-SIZE"]
    assert bad and "expSumTensor" in bad[0].message, [f.message for f in res.findings]
    assert bad[0].span.line == marker_line(SRC, "SIM-UB-SIZE")


FLASH_HOST = r"""
#include <cstdio>
#include "tiling/tiling_api.h"
int main() {
    ge::Shape s({4, 16, 128});  // 64 rows of 128
    std::printf("%u %u %u %u\n", AscendC::GetSoftMaxFlashV2MinTmpSize(s, 4, 4, true, false),
                AscendC::GetSoftMaxFlashV2MaxTmpSize(s, 2, 4, true, false),
                AscendC::GetSoftMaxFlashV2MinTmpSize(s, 2, 4, true, true),
                AscendC::GetSoftMaxFlashV2MaxTmpSize(s, 4, 4, true, true));
    for (uint32_t work : {3000u, 20000u, 200000u}) {
        SoftMaxTiling t;
        AscendC::SoftMaxFlashV2TilingFunc(s, 4, 4, work, t, true, true);
        std::printf("%u %u %u %u %u %u\n", t.srcM, t.srcK, t.splitM, t.rangeM, t.tailM, t.reduceSize);
    }
}
"""


def test_flash_v2_host_tiling_follows_the_library(tmp_path: Path) -> None:
    out = run_host_program(tmp_path, FLASH_HOST, "s").stdout.splitlines()
    m, k = 64, 128
    # min: one row (8 floats of sum block + 64) for float data; 8 rows of (8 + k + 64) for half in a basic block
    # max: every row; float data in a basic block: 8 + 64 per row
    assert out[0].split() == [str(v) for v in ((8 + 64) * 4, m * (16 + k + 64) * 4, 8 * (8 + k + 64) * 4,
                                                m * (8 + 64) * 4)]
    for line, work in zip(out[1:4], (3000, 20000, 200000), strict=True):
        b = min(work // 4 // (8 + 64), m)  # float data, basic block: rows of 8 + 64 floats
        if b > 8:
            b = b // 8 * 8
            while m % b:
                b -= 8
            while b * k >= 64 * 256:
                b //= 2
        assert line.split() == [str(v) for v in (m, k, b, m // b, m % b, b * 8)], (line, work)


@pytest.mark.parametrize("work", [700, 3000, 20000])
def test_kernel_side_tiling(write_manifest, tmp_path: Path, work: int) -> None:
    m, k = 64, 128
    args = [{"name": "out", "output": "out.npy", "dtype": "uint32", "shape": [8]},
            {"name": "m", "scalar": m, "type": "uint32_t"}, {"name": "k", "scalar": k, "type": "uint32_t"},
            {"name": "work", "scalar": work, "type": "uint32_t"}]
    res = run_manifest(write_manifest(SRC, "flash_tiling", args), tmp_path, confine=False)
    assert res.status == "ok", [f.message for f in res.findings]
    # basic block, float data: rows of 8 + 64 floats, a divisor of m, under 255 repeats
    b = min(work // (8 + 64), m)
    if b > 8:
        b = b // 8 * 8
        while m % b:
            b -= 8
        while b * k >= 64 * 256:
            b //= 2
    # not a basic block, half data with float sums: rows of 2 x 8 + k + 64 floats, rounded down to 8 rows
    p = work // (2 * 8 + k + 64)
    if p < m and p > 8:
        p = p // 8 * 8
    p = min(p, m)
    want = [b, m // b, m % b, b * 8, p, m // p, m % p, p * 8]
    assert list(np.load(res.outputs["out"])) == want
