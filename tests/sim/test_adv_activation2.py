"""LogSoftMax (akgen_sim/adv_logsoftmax_flashv3.h) against the A2/A3 library's formula (logsoftmax_common_impl.h): per row
over the valid columns, max, e = exp(x - max), sum, dst = ln(e / sum) * log10(e) (the library's LogSoftMax is log10
of the softmax), sum/max in one 32-byte block per row; the shape from SoftMaxShapeInfo or the tensor's ShapeInfo;
an unaligned last axis reported at the call. Host side: GetLogSoftMaxMin/MaxTmpSize and LogSoftMaxTilingFunc with the
library's sizes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.sim import SimResult, run_manifest

from .conftest import KERNELS, assert_finding_at, marker_line, needs_gxx, run_host_program

pytestmark = needs_gxx

SRC = KERNELS / "adv_activation2.cpp"
M = 5


def run(write_manifest, tmp_path: Path, dtype: str, mode: int, k: int, valid: int
        ) -> tuple[SimResult, np.ndarray]:
    rng = np.random.default_rng(7)
    x = rng.uniform(-3, 3, (M, k)).astype(dtype)
    blk = 32 // np.dtype(dtype).itemsize
    m = write_manifest(SRC, "logsoftmax", [
        {"name": "src", "input": x.ravel()},
        {"name": "dst", "output": "dst.npy", "dtype": dtype, "shape": [M * k]},
        {"name": "sum", "output": "sum.npy", "dtype": dtype, "shape": [M * blk]},
        {"name": "max", "output": "max.npy", "dtype": dtype, "shape": [M * blk]},
        {"name": "mode", "scalar": mode, "type": "int32_t"},
        {"name": "m", "scalar": M, "type": "int32_t"},
        {"name": "k", "scalar": k, "type": "int32_t"},
        {"name": "valid", "scalar": valid, "type": "int32_t"},
    ], defines={"DTYPE_X": {"float32": "float", "float16": "half"}[dtype]})
    return run_manifest(m, tmp_path / f"{dtype}_{mode}_{k}_{valid}", confine=False), x


def reference(x: np.ndarray, valid: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    v = x[:, :valid].astype(np.float64)
    mx = v.max(-1, keepdims=True)
    e = np.exp(v - mx)
    s = e.sum(-1, keepdims=True)
    return np.log10(e / s), s, mx


@pytest.mark.parametrize("dtype", ["float32", "float16"])
@pytest.mark.parametrize("mode", [0, 1])
def test_log10_of_the_softmax_over_the_valid_columns(write_manifest, tmp_path: Path, dtype: str, mode: int) -> None:
    k = 64 if dtype == "float32" else 48
    valid = k - 8
    res, x = run(write_manifest, tmp_path, dtype, mode, k, valid)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    blk = 32 // np.dtype(dtype).itemsize
    dst = np.load(res.outputs["dst"]).reshape(M, k).astype(np.float64)
    sums = np.load(res.outputs["sum"]).reshape(M, blk).astype(np.float64)
    maxs = np.load(res.outputs["max"]).reshape(M, blk).astype(np.float64)
    want, s, mx = reference(x, valid)
    tol = 1e-5 if dtype == "float32" else 2e-3
    np.testing.assert_allclose(dst[:, :valid], want, rtol=tol, atol=tol)
    np.testing.assert_array_equal(dst[:, valid:], x[:, valid:].astype(np.float64))  # padding is not written
    np.testing.assert_allclose(sums, np.repeat(s, blk, axis=1), rtol=tol)
    np.testing.assert_array_equal(maxs, np.repeat(mx, blk, axis=1))


def test_unaligned_last_axis_is_reported(write_manifest, tmp_path: Path) -> None:
    res, _ = run(write_manifest, tmp_path, "float32", 2, 16, 16)
    assert_finding_at(res, "SIM-SOFTMAX-SHAPE", SRC)
    assert res.status == "runtime_error"


HOST = r"""
#include <cstdio>
#include "tiling/tiling_api.h"
int main() {
    for (uint32_t ts : {2u, 4u}) {
        for (int64_t m : {1, 13, 128, 1000}) {
            ge::Shape s({m, 128});
            const uint32_t mn = AscendC::GetLogSoftMaxMinTmpSize(s, ts, false);
            const uint32_t mx = AscendC::GetLogSoftMaxMaxTmpSize(s, ts, false);
            optiling::LogSoftMaxTiling t;
            AscendC::LogSoftMaxTilingFunc(s, ts, 3000, t);
            std::printf("%u %lld %u %u %u %u %u\n", ts, static_cast<long long>(m), mn, mx, t.splitM, t.rangeM,
                        t.tailM);
        }
    }
    ge::Shape empty({0});
    std::printf("empty %u\n", AscendC::GetLogSoftMaxMinTmpSize(empty, 4, false));
}
"""


def expected_host(ts: int, m: int) -> tuple[int, int, int, int, int]:
    blk = 32 // ts
    mn = (blk + 128 + 64) * 4
    mx = m * (blk + 128 + 64) * 4
    base = min(3000 // 4 // (blk + 128 + 64), m)
    if base < m and base > 8:
        base = base // 8 * 8
    if base > 8 and m % 8 == 0:  # the basic block (128 columns are a multiple of 64)
        base = base // 8 * 8
        while m % base:
            base -= 8
        while base * 128 >= 64 * 256:
            base //= 2
    return mn, mx, base, m // base, m % base


def test_host_sizes_and_tiling_follow_the_library(tmp_path: Path) -> None:
    out = run_host_program(tmp_path, HOST, "h")
    lines = out.stdout.splitlines()
    for line in lines[:-1]:
        ts, m, *got = (int(v) for v in line.split())
        assert tuple(got) == expected_host(ts, m), line
    assert lines[-1] == "empty 0"
    assert "[GetLogSoftMaxMinTmpSize]" in out.stderr  # the empty shape is reported


def tree(v: np.ndarray) -> np.float32:
    v = v.astype(np.float32)
    while len(v) > 1:
        v = (v[0::2] + v[1::2]).astype(np.float32)
    return np.float32(v[0])


def nd_row_sum(p: np.ndarray) -> np.float32:
    """The library's ReduceSumLastNDImpl order: 64-column chunks block-reduced (trees of 8), the block sums added in
    chunk order, a tree of the 8 totals, then the tail's 64-lane tree added last."""
    chunks, tail = divmod(len(p), 64)
    acc = np.zeros(8, np.float32)
    for c in range(chunks):
        bs = np.array([tree(p[c * 64 + b * 8: c * 64 + b * 8 + 8]) for b in range(8)], np.float32)
        acc = bs if c == 0 else (acc + bs).astype(np.float32)
    total = tree(acc) if chunks else np.float32(0)
    if tail:
        lanes = np.zeros(64, np.float32)
        lanes[:tail] = p[chunks * 64:]
        t = tree(lanes)
        total = np.float32(total + t) if chunks else t
    return total


def test_softmax_grad_front_sums_rows_in_the_library_order(write_manifest, tmp_path: Path) -> None:
    """SoftmaxGradFront's row sum (adv_softmax_grad.h nd_row_sum), bit for bit, over 3 chunks of 64 and a tail."""
    m, k, valid = 4, 208, 200
    rng = np.random.default_rng(11)
    grad = (rng.uniform(-1, 1, (m, k)) * 10.0 ** rng.integers(-3, 4, (m, k))).astype(np.float32)
    src = rng.uniform(-1, 1, (m, k)).astype(np.float32)
    man = write_manifest(KERNELS / "softmax_grad.cpp", "softmax_grad", [
        {"name": "grad", "input": grad.ravel()},
        {"name": "src", "input": src.ravel()},
        {"name": "dst", "output": "dst.npy", "dtype": "float32", "shape": [m * k]},
        {"name": "mode", "scalar": 3, "type": "int32_t"},
        {"name": "m", "scalar": m, "type": "int32_t"},
        {"name": "k", "scalar": k, "type": "int32_t"},
        {"name": "valid", "scalar": valid, "type": "int32_t"},
    ], defines={"DTYPE_X": "float"})
    res = run_manifest(man, tmp_path / "grad_order", confine=False)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    got = np.load(res.outputs["dst"])[: m * 8].reshape(m, 8)
    want = np.array([nd_row_sum((grad[r, :valid] * src[r, :valid]).astype(np.float32)) for r in range(m)])
    np.testing.assert_array_equal(got, np.repeat(want[:, None], 8, axis=1))
    seq = np.array([np.float32(sum(np.float32(v) for v in (grad[r, :valid] * src[r, :valid]))) for r in range(m)])
    assert not np.array_equal(want, seq)  # the data tells the two orders apart


FLASH3 = KERNELS / "adv_activation2_flash3.cpp"


def tree32(v: np.ndarray, axis: int = -1) -> np.ndarray:
    """Adjacent-pair sums along the last axis (a power of two long), in float32."""
    v = np.moveaxis(v.astype(np.float32), axis, -1)
    while v.shape[-1] > 1:
        v = (v[..., 0::2] + v[..., 1::2]).astype(np.float32)
    return v[..., 0]


def flash3_reference(x: np.ndarray, stats: np.ndarray, update: bool, loop: int, aliased: bool
                     ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """SoftmaxFlashV3's documented steps (SoftmaxFlashV3.md pseudo-code, library order) in float32."""
    m, k = x.shape
    f = np.float32
    s = f(0.9375) / (f(1) - f(0.9375))
    base = k // 8
    x = x.astype(np.float32)
    lanes = tree32(x[:, :512].reshape(m, 64, 8))
    for rep in range(8, k // 64):
        lanes = (x[:, rep * 64:(rep + 1) * 64] + lanes).astype(np.float32)
    local = (tree32(lanes.reshape(m, 8, 8)) * f(1.0 / base)).astype(np.float32)
    gmean = (tree32(local) * f(1.0 / 8)).astype(np.float32)[:, None]
    shift = ((gmean - local) * s).astype(np.float32)
    x = (x - np.repeat(shift, base, axis=1)).astype(np.float32)
    row_max = x.max(-1, keepdims=True)
    in_mean, in_sum, in_max = (stats[i].reshape(m, 8)[:, :1] for i in range(3))
    if update:
        mean = ((in_mean * f(loop - 1)).astype(np.float32) + gmean).astype(np.float32) * f(1.0 / loop)
        mean = mean.astype(np.float32)
    else:
        mean = gmean
    shift_curr = ((gmean - mean) * s).astype(np.float32)
    mx = (row_max + shift_curr).astype(np.float32)
    em = np.zeros_like(mx)
    if update:
        prev_mean = mean if aliased else in_mean
        prev_max = mx if aliased else in_max
        shift_prev = ((prev_mean - mean) * s).astype(np.float32)
        mx = np.maximum(mx, (prev_max + shift_prev).astype(np.float32))
        prev_max = mx if aliased else in_max
        em = np.exp((prev_max - mx + shift_prev).astype(np.float32)).astype(np.float32)
    e = np.exp((x - (mx - shift_curr)).astype(np.float32)).astype(np.float32)
    total = np.array([[np.float32(np.sum(e[r], dtype=np.float64))] for r in range(m)], np.float32)
    sm = (em * in_sum + total).astype(np.float32) if update else total
    return e.astype(np.float16), mean, sm, mx, em.astype(np.float16)


@pytest.mark.parametrize("mode", [0, 1, 2])
def test_softmax_flash_v3_follows_the_library_steps(write_manifest, tmp_path: Path, mode: int) -> None:
    m, k, loop = 3, 640, 3
    rng = np.random.default_rng(5)
    x = rng.uniform(-2, 2, (m, k)).astype(np.float16)
    row = lambda lo, hi: np.repeat(rng.uniform(lo, hi, (m, 1)), 8, axis=1).astype(np.float32)  # noqa: E731
    stats = np.stack([row(-0.1, 0.1), row(100, 200), row(0, 2)]).reshape(3, m * 8)
    man = write_manifest(FLASH3, "flash3", [
        {"name": "src", "input": x.ravel()},
        {"name": "stats", "input": stats.ravel()},
        {"name": "dst", "output": "dst.npy", "dtype": "float16", "shape": [m * k]},
        {"name": "outStats", "output": "out.npy", "dtype": "float32", "shape": [3 * m * 8]},
        {"name": "expMaxOut", "output": "em.npy", "dtype": "float16", "shape": [m * 16]},
        {"name": "mode", "scalar": mode, "type": "int32_t"},
        {"name": "m", "scalar": m, "type": "int32_t"},
        {"name": "k", "scalar": k, "type": "int32_t"},
        {"name": "loopCnt", "scalar": loop, "type": "int32_t"},
    ])
    res = run_manifest(man, tmp_path / f"flash3_{mode}", confine=False)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    dst, mean, sm, mx, em = flash3_reference(x, stats, mode > 0, loop, mode == 2)
    out = np.load(res.outputs["outStats"]).reshape(3, m, 8)
    np.testing.assert_allclose(np.load(res.outputs["dst"]).reshape(m, k).astype(np.float32), dst.astype(np.float32),
                               rtol=1e-3, atol=1e-3)
    np.testing.assert_allclose(out[0], np.repeat(mean, 8, axis=1), rtol=1e-6, atol=1e-7)
    np.testing.assert_allclose(out[1], np.repeat(sm, 8, axis=1), rtol=1e-5)
    np.testing.assert_allclose(out[2], np.repeat(mx, 8, axis=1), rtol=1e-6, atol=1e-6)
    if mode > 0:
        np.testing.assert_allclose(np.load(res.outputs["expMaxOut"]).reshape(m, 16).astype(np.float32),
                                   np.repeat(em.astype(np.float32), 16, axis=1), rtol=1e-3)


def test_softmax_flash_v3_needs_512_columns(write_manifest, tmp_path: Path) -> None:
    m, k = 2, 640
    man = write_manifest(FLASH3, "flash3", [
        {"name": "src", "input": np.zeros(m * k, np.float16)},
        {"name": "stats", "input": np.zeros(3 * m * 8, np.float32)},
        {"name": "dst", "output": "dst.npy", "dtype": "float16", "shape": [m * k]},
        {"name": "outStats", "output": "out.npy", "dtype": "float32", "shape": [3 * m * 8]},
        {"name": "expMaxOut", "output": "em.npy", "dtype": "float16", "shape": [m * 16]},
        {"name": "mode", "scalar": 3, "type": "int32_t"},
        {"name": "m", "scalar": m, "type": "int32_t"},
        {"name": "k", "scalar": k, "type": "int32_t"},
        {"name": "loopCnt", "scalar": 1, "type": "int32_t"},
    ])
    res = run_manifest(man, tmp_path / "flash3_bad", confine=False)
    hits = [f for f in res.findings if f.code == "SIM-SOFTMAX-SHAPE"]
    assert hits and hits[0].span.line == marker_line(FLASH3, "SIM-SOFTMAX-SHAPE"), [(f.code, f.message)
                                                                                     for f in res.findings]


FLASH3_HOST = r"""
#include <cstdio>
#include "tiling/tiling_api.h"
int main() {
    for (int64_t m : {1, 8, 20, 100}) {
        ge::Shape s({m, 1024});
        uint32_t mx = 0, mn = 0;
        AscendC::GetSoftMaxFlashV3MaxMinTmpSize(s, 2, 4, mx, mn, true);
        optiling::SoftMaxTiling t;
        AscendC::SoftMaxFlashV3TilingFunc(s, 2, 4, 40000, t, true);
        std::printf("%lld %u %u %u %u %u %u\n", static_cast<long long>(m), mn, mx, t.splitM, t.rangeM, t.tailM,
                    t.reduceSize);
    }
    uint32_t mx = 9, mn = 9;
    AscendC::GetSoftMaxFlashV3MaxMinTmpSize(ge::Shape({8, 1024}), 4, 4, mx, mn, false);
    std::printf("float %u %u\n", mx, mn);
}
"""


def test_softmax_flash_v3_host_sizes_and_tiling(tmp_path: Path) -> None:
    out = run_host_program(tmp_path, FLASH3_HOST, "h")
    lines = out.stdout.splitlines()
    row = (8 * 5 + 2 * 1024 + 64) * 4  # 5 statistics blocks, 2 float rows, 64 floats
    for line in lines[:-1]:
        m, mn, mx, split_m, range_m, tail_m, reduce_size = (int(v) for v in line.split())
        base = min(40000 // row, m)
        if 8 < base < m:
            base = base // 8 * 8
        assert (mn, mx, split_m, range_m, tail_m, reduce_size) == (row, m * row, base, m // base, m % base, base * 8)
    assert lines[-1] == "float 9 9"  # half data only: the outputs are left alone
    assert "[GetSoftMaxFlashV3MaxMinTmpSize]" in out.stderr
