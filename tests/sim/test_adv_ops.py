"""The element-wise adv APIs (akgen_sim/adv_elementwise.h: Fmod, ClampMin/ClampMax, Swish, GeGLU, Arange, Xor)
against numpy following the A2/A3 library's step order, in half and float, an operand-size check at the caller's line
(kernels/adv_ops.cpp), and the host Get<Op>MaxMinTmpSize helpers (akgen_sim/host/adv_host_tmpsize.h) against the
library's formulas."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.findings import Severity
from akgen_lsp.sim import SimResult, run_manifest

from .conftest import KERNELS, marker_line, needs_gxx, run_host_program

pytestmark = needs_gxx

SRC = KERNELS / "adv_ops.cpp"
N = 208  # whole 32-byte blocks in half and float; more than one 256-byte repeat, not a multiple of either
CT = {"float16": "half", "float32": "float", "int16": "int16_t", "uint16": "uint16_t"}


def inputs(dtype: str) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(5)
    if dtype.startswith(("int", "uint")):
        info = np.iinfo(dtype)
        return (rng.integers(info.min, info.max, N, endpoint=True).astype(dtype),
                rng.integers(info.min, info.max, N, endpoint=True).astype(dtype))
    a = rng.uniform(-6, 6, N).astype(dtype)
    b = rng.choice([-2.5, -0.75, 0.5, 1.25, 3.0], N).astype(dtype)
    return a, b


def run(write_manifest, tmp_path: Path, dtype: str, mode: int,
        b_bytes: np.ndarray | None = None) -> tuple[SimResult, np.ndarray | None]:
    a, b = inputs(dtype)
    if b_bytes is not None:  # b's buffer carries other data (a mask, halves): same byte length
        b = np.frombuffer(b_bytes.tobytes(), dtype=dtype).copy()
    m = write_manifest(SRC, "adv_ops", [
        {"name": "a", "input": a},
        {"name": "b", "input": b},
        {"name": "y", "output": "y.npy", "dtype": dtype, "shape": [N]},
        {"name": "mode", "scalar": mode, "type": "int32_t"},
        {"name": "n", "scalar": N, "type": "int32_t"},
    ], defines={"DTYPE_X": CT[dtype]})
    res = run_manifest(m, tmp_path / "out", confine=False)
    return res, (np.load(res.outputs["y"]) if res.status == "ok" else None)


def ok(res: SimResult) -> None:
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    assert not [f for f in res.findings if f.severity is not Severity.INFO], [f.message for f in res.findings]


def f32(x: np.ndarray) -> np.ndarray:
    return x.astype(np.float32)


def fmod_ref(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    a, b = f32(a), f32(b)
    q = np.trunc(a / b).astype(np.float32)
    return (a - (q * b).astype(np.float32)).astype(np.float32)


def geglu_ref(x0: np.ndarray, x1: np.ndarray) -> np.ndarray:
    x0, x1 = f32(x0), f32(x1)
    c0, c1 = np.float32(-0.0713548162726), np.float32(2.2363860002236e1)
    t = np.exp((x1 * x1 + c1) * x1 * c0)
    return x0 * (x1 / (t + np.float32(1)))


@pytest.mark.parametrize("dtype", ["float32", "float16"])
@pytest.mark.parametrize("mode", [0, 7])
def test_fmod_truncates_the_float_quotient(write_manifest, tmp_path: Path, dtype: str, mode: int) -> None:
    a, b = inputs(dtype)
    res, y = run(write_manifest, tmp_path, dtype, mode)
    ok(res)
    np.testing.assert_array_equal(y, fmod_ref(a, b).astype(dtype))
    np.testing.assert_allclose(f32(y), np.fmod(f32(a), f32(b)), atol=2e-3 if dtype == "float16" else 2e-6)


@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_clamp_min_and_max(write_manifest, tmp_path: Path, dtype: str) -> None:
    a, _ = inputs(dtype)
    res, y = run(write_manifest, tmp_path, dtype, 1)
    ok(res)
    np.testing.assert_array_equal(y, np.maximum(a, np.asarray(0.5, dtype)))
    res, y = run(write_manifest, tmp_path / "max", dtype, 2)
    ok(res)
    np.testing.assert_array_equal(y, np.minimum(a, np.asarray(-0.25, dtype)))


@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_swish_rounds_each_step_to_the_type(write_manifest, tmp_path: Path, dtype: str) -> None:
    a, _ = inputs(dtype)
    res, y = run(write_manifest, tmp_path, dtype, 3)
    ok(res)
    t = (f32(a) * np.float32(-1.5)).astype(dtype)
    t = np.exp(f32(t)).astype(dtype)
    t = (f32(t) + np.float32(1)).astype(dtype)
    want = (f32(a) / f32(t)).astype(dtype)
    np.testing.assert_allclose(f32(y), f32(want), rtol=1e-3 if dtype == "float16" else 1e-6)
    np.testing.assert_allclose(f32(y), f32(a) / (1 + np.exp(-1.5 * f32(a))), rtol=1e-2 if dtype == "float16" else 1e-5,
                               atol=1e-3)


@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_geglu_is_x0_times_the_tanh_gelu_of_x1(write_manifest, tmp_path: Path, dtype: str) -> None:
    a, b = inputs(dtype)
    res, y = run(write_manifest, tmp_path, dtype, 4)
    ok(res)
    np.testing.assert_allclose(f32(y), geglu_ref(a, b).astype(dtype).astype(np.float32), rtol=1e-3, atol=1e-3)
    x1 = f32(b)
    gelu = 0.5 * x1 * (1 + np.tanh(np.sqrt(2 / np.pi) * (x1 + 0.044715 * x1 ** 3)))
    np.testing.assert_allclose(f32(y), f32(a) * gelu, rtol=1e-2, atol=1e-2)


@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_arange_steps_by_block_then_repeat_and_fills_the_tail_block(write_manifest, tmp_path: Path,
                                                                   dtype: str) -> None:
    res, y = run(write_manifest, tmp_path, dtype, 5)
    ok(res)
    count = N - 21
    blk, rep = 32 // np.dtype(dtype).itemsize, 256 // np.dtype(dtype).itemsize
    end = count // rep * rep + -(-(count % rep) // blk) * blk
    want = np.zeros(end, dtype)
    want[:blk] = (np.float32(1.5) + np.float32(0.25) * np.arange(blk, dtype=np.float32)).astype(dtype)
    for i in range(blk, min(rep, end)):
        want[i] = (f32(want[i - blk]) + np.float32(0.25 * blk)).astype(dtype)
    for i in range(rep, end):
        want[i] = (f32(want[i - rep]) + np.float32(0.25 * rep)).astype(dtype)
    np.testing.assert_array_equal(y[:end], want)
    np.testing.assert_array_equal(y[end:], 0)  # past the tail block: untouched
    np.testing.assert_allclose(f32(y[:count]), 1.5 + 0.25 * np.arange(count), rtol=1e-3)


@pytest.mark.parametrize("dtype", ["int16", "uint16"])
def test_xor(write_manifest, tmp_path: Path, dtype: str) -> None:
    a, b = inputs(dtype)
    res, y = run(write_manifest, tmp_path, dtype, 6)
    ok(res)
    np.testing.assert_array_equal(y, a ^ b)


@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_swiglu_in_float(write_manifest, tmp_path: Path, dtype: str) -> None:
    a, b = inputs(dtype)
    res, y = run(write_manifest, tmp_path, dtype, 9)
    ok(res)
    x0, x1 = f32(a), f32(b)
    t = (np.exp(x1 * np.float32(-0.75)) + np.float32(1)).astype(np.float32)
    want = (x0 * (x1 / t)).astype(dtype)
    np.testing.assert_allclose(f32(y), f32(want), rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(f32(y), x0 * x1 / (1 + np.exp(-0.75 * x1)), rtol=2e-3, atol=2e-3)


def test_axpy_half_source_into_float(write_manifest, tmp_path: Path) -> None:
    a, _ = inputs("float32")
    h = np.random.default_rng(8).uniform(-4, 4, 2 * N).astype(np.float16)
    res, y = run(write_manifest, tmp_path, "float32", 10, b_bytes=h)
    ok(res)
    want = (a + (h[:N].astype(np.float32) * np.float32(1.5))).astype(np.float32)
    np.testing.assert_array_equal(y, want)


@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_dropout_byte_mask_rows_with_padding(write_manifest, tmp_path: Path, dtype: str) -> None:
    a, _ = inputs(dtype)
    nbytes = N * np.dtype(dtype).itemsize
    mask = np.random.default_rng(3).integers(0, 2, nbytes).astype(np.uint8)
    res, y = run(write_manifest, tmp_path, dtype, 11, b_bytes=mask)
    ok(res)
    keep = mask[:4 * 64].reshape(4, 64)[:, :48] != 0
    src = a[:192].reshape(4, 48)
    div = np.asarray(1 / np.float32(0.8), dtype)
    want = (f32(np.where(keep, src, 0).astype(dtype)) * f32(div)).astype(dtype)
    np.testing.assert_array_equal(y[:192].reshape(4, 48), want)
    np.testing.assert_array_equal(y[192:], 0)


@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_dropout_bit_mask_lsb_first(write_manifest, tmp_path: Path, dtype: str) -> None:
    a, _ = inputs(dtype)
    nbytes = N * np.dtype(dtype).itemsize
    mask = np.random.default_rng(4).integers(0, 256, nbytes).astype(np.uint8)
    res, y = run(write_manifest, tmp_path, dtype, 12, b_bytes=mask)
    ok(res)
    keep = np.unpackbits(mask[:24], bitorder="little").reshape(4, 48) != 0
    src = a[:192].reshape(4, 48)
    want = (f32(np.where(keep, src, 0).astype(dtype)) * np.float32(4)).astype(dtype)
    np.testing.assert_array_equal(y[:192].reshape(4, 48), want)


def test_dropout_rejects_keep_prob_one(write_manifest, tmp_path: Path) -> None:
    res, _ = run(write_manifest, tmp_path, "float32", 13)
    hits = [f for f in res.findings if f.code == "SIM-DROPOUT-ARGS"]
    assert hits and hits[0].span.line == marker_line(SRC, "SIM-DROPOUT-ARGS"), [f.message for f in res.findings]
    assert "keepProb" in hits[0].message


def test_operand_past_the_end_is_reported_at_the_call(write_manifest, tmp_path: Path) -> None:
    res, _ = run(write_manifest, tmp_path, "float32", 8)
    hits = [f for f in res.findings if f.code == "SIM-UB-SIZE"]
    assert hits and hits[0].span.line == marker_line(SRC, "SIM-UB-SIZE"), [(f.code, f.message) for f in res.findings]


HOST = r"""
#include <cstdio>
#include "tiling/tiling_api.h"
int main() {
    for (int n : {10, 100, 1000}) {
        ge::Shape s({n}), one({1});
        for (uint32_t ts : {2u, 4u}) {
            uint32_t mx = 0, mn = 0;
#define P(NAME, ...) mx = mn = 0; AscendC::NAME(__VA_ARGS__, mx, mn); std::printf(#NAME " %d %u %u %u\n", n, ts, mx, mn);
            P(GetExpMaxMinTmpSize, s, ts, false)
            P(GetCeilMaxMinTmpSize, s, ts, false)
            P(GetFracMaxMinTmpSize, s, ts, false)
            P(GetAcoshMaxMinTmpSize, s, ts, false)
            P(GetFmodMaxMinTmpSize, s, ts, false)
            P(GetGeGLUMaxMinTmpSize, s, ts, false)
            P(GetXorMaxMinTmpSize, s, ts, false)
            P(GetClampMaxMinTmpSize, s, ts, false)
            P(GetPowerMaxMinTmpSize, s, s, false, ts, false)
            P(GetPowerMaxMinTmpSize, s, one, false, ts, false)
            P(GetGeluMaxMinTmpSize, s, ts)
            P(GetSwiGLUMaxMinTmpSize, s, ts)
            P(GetAxpyMaxMinTmpSize, s, ts, false)
            P(GetDropOutMaxMinTmpSize, s, ts, false)
            P(GetAscendQuantMaxMinTmpSize, s, ts)
            ge::Shape s2({7, n});
            ge::Shape s3({7, n * 32 / ts});  // rows of whole 32-byte blocks
            P(GetCumSumMaxMinTmpSize, s3, ts, true, false)
            P(GetReduceMaxMaxMinTmpSize, s2, ts == 4 ? ge::DT_FLOAT : ge::DT_FLOAT16, AscendC::ReducePattern::AR,
              true, false)
            P(GetReduceMinMaxMinTmpSize, s2, ts == 4 ? ge::DT_FLOAT : ge::DT_FLOAT16, AscendC::ReducePattern::RA,
              true, false)
        }
    }
    ge::Shape empty({0});
    uint32_t mx = 7, mn = 7;
    AscendC::GetCeilMaxMinTmpSize(empty, 4, false, mx, mn);
    std::printf("empty %u %u\n", mx, mn);
}
"""


def expected_host(name: str, n: int, ts: int, scalar_exp: bool = False) -> tuple[int, int]:
    """The A2/A3 library's formulas (impl/adv_api/tiling/**), written out independently of the header."""
    r = 256
    def fac(f4: int, f2: int) -> tuple[int, int]:
        f = f4 if ts == 4 else f2
        return f * max(n * ts, r), f * r
    if name == "GetExpMaxMinTmpSize":
        k = 3 if ts == 4 else 4
        return k * max(n * 4, r), k * r
    if name == "GetCeilMaxMinTmpSize":
        return fac(1, 2)
    if name in ("GetFracMaxMinTmpSize", "GetGeGLUMaxMinTmpSize"):
        return fac(0, 4)
    if name == "GetFmodMaxMinTmpSize":
        return fac(1, 2 + 6)
    if name == "GetAcoshMaxMinTmpSize":
        c = 1 if ts == 4 else 2
        return max(c * n, r) * ts, c * r
    if name == "GetXorMaxMinTmpSize":
        return max(n * ts, r), r
    if name == "GetClampMaxMinTmpSize":
        m = 64 if ts == 4 else 128
        return max(n, m), m
    if name == "GetGeluMaxMinTmpSize":
        return max(3 * n * 4, 3 * r), 3 * r
    if name == "GetDropOutMaxMinTmpSize":
        return max(2 * n * 4, 2 * r), 2 * r
    if name == "GetSwiGLUMaxMinTmpSize":
        return fac(0, 6)
    if name == "GetAxpyMaxMinTmpSize":
        return (0, 0) if ts == 4 else (4 * n * ts if n * ts > r else 4 * r, 4 * r)
    if name == "GetReduceMaxMaxMinTmpSize":  # AR over 7 rows of n
        return (0, 0) if n <= 32 // ts else ((7 * 32, 7 * 32) if n < 256 // ts else (7 * 256, 7 * 256))
    if name == "GetReduceMinMaxMinTmpSize":  # RA: 7 rows -> 4 of them, each n padded to 32 bytes
        return (4 * (-(-n * ts // 32) * 32),) * 2
    if name == "GetCumSumMaxMinTmpSize":  # last axis of [7, n * 32 / ts]: 7 rows round up to 16
        inner = n * 32 // ts
        cast_min, cast_max = (inner * 16 * 2, inner * 16 * 2) if ts == 2 else (0, 0)
        return cast_max + 16 * inner * ts * 2, cast_min + 16 * inner * ts * 2
    if name == "GetAscendQuantMaxMinTmpSize":
        return -(-max(2 * n, 2 * r) // 32) * 32, 2 * r
    nodes = (5 if scalar_exp else 4) if ts == 4 else 14
    calc = max(n * ts, r) if ts == 4 else max(n * ts, r // 2)
    return calc * nodes + r, (r * nodes + r) if ts == 4 else (r * nodes // 2 + r)


def test_host_tmp_sizes_follow_the_library(tmp_path: Path) -> None:
    run_h = run_host_program(tmp_path, HOST, "h")
    lines = run_h.stdout.splitlines()
    assert "[GetCeilMaxMinTmpSize]" in run_h.stderr  # the empty shape is reported
    seen_power = 0
    for line in lines[:-1]:
        name, n, ts, mx, mn = line.split()
        scalar = False
        if name == "GetPowerMaxMinTmpSize":
            scalar = seen_power % 2 == 1
            seen_power += 1
        assert (int(mx), int(mn)) == expected_host(name, int(n), int(ts), scalar), line
    assert lines[-1] == "empty 7 7"  # a bad shape leaves the outputs alone


@pytest.mark.parametrize(("mode", "fill"), [(0, 7.0), (1, 3.0)])
def test_set_pad_value_fills_data_copy_pad_when_is_pad_is_false(write_manifest, tmp_path: Path, mode: int,
                                                                 fill: float) -> None:
    rows, cols = 3, 20
    x = np.random.default_rng(2).uniform(-1, 1, (rows, cols)).astype(np.float16)
    m = write_manifest(KERNELS / "adv_ops_pad.cpp", "adv_ops_pad", [
        {"name": "x", "input": x},
        {"name": "y", "output": "y.npy", "dtype": "float16", "shape": [rows, 32]},
        {"name": "mode", "scalar": mode, "type": "int32_t"},
        {"name": "rows", "scalar": rows, "type": "int32_t"},
        {"name": "cols", "scalar": cols, "type": "int32_t"},
    ])
    res = run_manifest(m, tmp_path / "out", confine=False)
    ok(res)
    y = np.load(res.outputs["y"])
    np.testing.assert_array_equal(y[:, :cols], x)
    np.testing.assert_array_equal(y[:, cols:], np.float16(fill))


@pytest.mark.parametrize("dtype", ["float32", "float16"])
@pytest.mark.parametrize("mode", [0, 1])
def test_ascend_quant_per_tensor_in_half_round_even_saturated(write_manifest, tmp_path: Path, dtype: str,
                                                              mode: int) -> None:
    n = 256
    x = np.random.default_rng(6).uniform(-80, 80, n).astype(dtype)
    x[:4] = [0.0, 0.2, -0.6, 1.0]  # 0.5, 1.0, -1.0, 3.0 after scale and offset: ties go to even
    m = write_manifest(KERNELS / "adv_ops_quant.cpp", "adv_ops_quant", [
        {"name": "x", "input": x},
        {"name": "y", "output": "y.npy", "dtype": "int8", "shape": [n]},
        {"name": "mode", "scalar": mode, "type": "int32_t"},
        {"name": "n", "scalar": n, "type": "int32_t"},
    ], defines={"DTYPE_X": CT[dtype]})
    res = run_manifest(m, tmp_path / "out", confine=False)
    ok(res)
    y = np.load(res.outputs["y"])
    h = x.astype(np.float16)
    h = (h.astype(np.float32) * np.float32(2.5)).astype(np.float16)
    h = (h.astype(np.float32) + np.float32(0.5)).astype(np.float16)
    want = np.clip(np.rint(h.astype(np.float32)), -128, 127).astype(np.int8)
    np.testing.assert_array_equal(y, want)
    assert (y == 127).any() and (y == -128).any()


def run_reduce(write_manifest, tmp_path: Path, dtype: str, mode: int) -> tuple[SimResult, np.ndarray, np.ndarray]:
    rows, valid = 6, 21
    cols = -(-valid * np.dtype(dtype).itemsize // 32) * 32 // np.dtype(dtype).itemsize
    x = np.random.default_rng(7).uniform(-50, 50, (rows, cols)).astype(dtype)
    m = write_manifest(KERNELS / "adv_ops_reduce.cpp", "adv_ops_reduce", [
        {"name": "x", "input": x},
        {"name": "y", "output": "y.npy", "dtype": dtype, "shape": [1024 // np.dtype(dtype).itemsize]},
        {"name": "mode", "scalar": mode, "type": "int32_t"},
        {"name": "rows", "scalar": rows, "type": "int32_t"},
        {"name": "cols", "scalar": cols, "type": "int32_t"},
        {"name": "valid", "scalar": valid, "type": "int32_t"},
    ], defines={"DTYPE_X": CT[dtype]})
    res = run_manifest(m, tmp_path / "out", confine=False)
    return res, x[:, :valid], (np.load(res.outputs["y"]) if res.status == "ok" else np.zeros(0))


@pytest.mark.parametrize("dtype", ["float32", "float16"])
@pytest.mark.parametrize(("mode", "axis", "fn"), [(0, 1, np.max), (1, 1, np.min), (2, 0, np.max), (3, 0, np.min)])
def test_reduce_max_min_patterns_skip_the_row_padding(write_manifest, tmp_path: Path, dtype: str, mode: int,
                                                      axis: int, fn) -> None:
    res, x, y = run_reduce(write_manifest, tmp_path, dtype, mode)
    ok(res)
    want = fn(x, axis=axis)
    np.testing.assert_array_equal(y[:want.size], want)
    np.testing.assert_array_equal(y[want.size:], 0)


def test_reduce_pattern_needs_inner_pad_on_a2(write_manifest, tmp_path: Path) -> None:
    res, _, _ = run_reduce(write_manifest, tmp_path, "float32", 4)
    hits = [f for f in res.findings if f.code == "SIM-REDUCE-PAD"]
    assert hits and hits[0].span.line == marker_line(KERNELS / "adv_ops_reduce.cpp", "SIM-REDUCE-PAD")


def run_basic(write_manifest, tmp_path: Path, mode: int) -> tuple[SimResult, np.ndarray, np.ndarray, np.ndarray]:
    n = 512
    x = np.random.default_rng(9).uniform(-10, 10, n).astype(np.float16)
    off = (np.random.default_rng(1).permutation(n * 2 // 32)[:16] * 32).astype(np.uint32)
    m = write_manifest(KERNELS / "adv_ops_basic.cpp", "adv_ops_basic", [
        {"name": "x", "input": x},
        {"name": "off", "input": off},
        {"name": "y", "output": "y.npy", "dtype": "float16", "shape": [n]},
        {"name": "mode", "scalar": mode, "type": "int32_t"},
        {"name": "n", "scalar": n, "type": "int32_t"},
    ])
    res = run_manifest(m, tmp_path / "out", confine=False)
    return res, x, off, (np.load(res.outputs["y"]) if res.status == "ok" else np.zeros(0))


def test_transpose_16x16_block(write_manifest, tmp_path: Path) -> None:
    res, x, _, y = run_basic(write_manifest, tmp_path, 0)
    ok(res)
    np.testing.assert_array_equal(y[:256].reshape(16, 16), x[:256].reshape(16, 16).T)
    np.testing.assert_array_equal(y[256:], 0)


@pytest.mark.parametrize(("mode", "src_shape", "axes"), [(1, (2, 3, 4, 8), (0, 2, 3, 1)), (2, (2, 4, 8, 3), (0, 3, 1, 2))])
def test_transpose_nchw_nhwc(write_manifest, tmp_path: Path, mode: int, src_shape: tuple, axes: tuple) -> None:
    res, x, _, y = run_basic(write_manifest, tmp_path, mode)
    ok(res)
    k = int(np.prod(src_shape))
    np.testing.assert_array_equal(y[:k], np.transpose(x[:k].reshape(src_shape), axes).ravel())


def test_gatherb_copies_blocks_by_byte_offset(write_manifest, tmp_path: Path) -> None:
    res, x, off, y = run_basic(write_manifest, tmp_path, 3)
    ok(res)
    xb, yb = x.view(np.uint16).reshape(-1, 16), y.view(np.uint16).reshape(-1, 16)
    want = np.zeros_like(yb)
    for r in range(2):
        for j in range(8):
            want[r * 16 + j * 2] = xb[off[r * 8 + j] // 32]
    np.testing.assert_array_equal(yb, want)


def test_gatherb_rejects_an_unaligned_offset(write_manifest, tmp_path: Path) -> None:
    res, _, _, _ = run_basic(write_manifest, tmp_path, 4)
    hits = [f for f in res.findings if f.code == "SIM-GATHERB-OFFSET"]
    assert hits and hits[0].span.line == marker_line(KERNELS / "adv_ops_basic.cpp", "SIM-GATHERB-OFFSET")


@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_adjust_softmax_res_rewrites_rows_whose_max_matches(write_manifest, tmp_path: Path, dtype: str) -> None:
    a, _ = inputs(dtype)
    per_blk = 32 // np.dtype(dtype).itemsize
    mx = np.zeros(N, dtype)
    rows = np.array([1, 4, 5, 12])
    mx[rows * per_blk] = 1.0  # the row's block starts with the max
    mx[2 * per_blk + 1] = 1.0  # not the first element of its block: no match
    res, y = run(write_manifest, tmp_path, dtype, 14, b_bytes=mx)
    ok(res)
    want = a.copy()
    want[:208].reshape(13, 16)[rows] = -2
    np.testing.assert_array_equal(y[:-1], want[:-1])
    assert y[-1] == 1  # returned true


SOFTMAX_HOST = r"""
#include <cstdio>
#include "tiling/tiling_api.h"
int main() {
    ge::Shape s({2, 40, 64});  // 80 rows of 64
    std::printf("%u %u %u %u\n", AscendC::GetSoftMaxMinTmpSize(s, 4, false), AscendC::GetSoftMaxMaxTmpSize(s, 2, false),
                AscendC::GetSoftMaxGradMinTmpSize(s, 2, false, false),
                AscendC::GetSoftMaxGradMaxTmpSize(s, 4, true, false));
    for (uint32_t work : {5000u, 20000u, 100000u}) {
        SoftMaxTiling t;
        AscendC::SoftMaxTilingFunc(s, 4, work, t);
        std::printf("%u %u %u %u %u %u\n", t.srcM, t.srcK, t.splitM, t.rangeM, t.tailM, t.reduceSize);
    }
    SoftMaxTiling g;
    AscendC::SoftMaxGradTilingFunc(s, 2, 30000, g, false);
    std::printf("%u %u %u %d\n", g.splitM, g.rangeM, g.tailM, AscendC::IsBasicBlockInSoftMax(g, 2));
}
"""


def test_softmax_host_tiling_follows_the_library(tmp_path: Path) -> None:
    out = run_host_program(tmp_path, SOFTMAX_HOST, "s").stdout.splitlines()
    m, k = 80, 64
    assert out[0].split() == [str(v) for v in ((8 + k + 64) * 4, m * (16 + k + 64) * 4, (32 + 3 * k + 64) * 4,
                                                m * (8 + k + 64) * 4)]

    def base_m(work: int, per_row: int) -> int:
        b = min(work // 4 // per_row, m)
        if b < m and b > 8:
            b = b // 8 * 8
        if b > 8 and m % 8 == 0 and k % 64 == 0:  # the basic block: a divisor of m, under 255 repeats
            b = b // 8 * 8
            while m % b:
                b -= 8
            while b * k >= 64 * 256:
                b //= 2
        return b

    for line, work in zip(out[1:4], (5000, 20000, 100000), strict=True):
        b = base_m(work, 8 + k + 64)
        assert line.split() == [str(v) for v in (m, k, b, m // b, m % b, b * 8)], (line, work)
    gb = base_m(30000, 32 + 3 * k + 64)
    assert out[4].split() == [str(gb), str(m // gb), str(m % gb), "0"]  # srcK 64 < 256 / 2: not a basic block


@pytest.mark.parametrize("dtype", ["float32", "float16"])
@pytest.mark.parametrize(("mode", "axis"), [(0, 1), (1, 0)])
def test_cumsum_accumulates_in_float(write_manifest, tmp_path: Path, dtype: str, mode: int, axis: int) -> None:
    rows, cols = 5, 48
    x = np.random.default_rng(11).uniform(-2, 2, (rows, cols)).astype(dtype)
    m = write_manifest(KERNELS / "adv_ops_cumsum.cpp", "adv_ops_cumsum", [
        {"name": "x", "input": x},
        {"name": "y", "output": "y.npy", "dtype": dtype, "shape": [rows, cols]},
        {"name": "last", "output": "last.npy", "dtype": dtype, "shape": [cols]},
        {"name": "mode", "scalar": mode, "type": "int32_t"},
        {"name": "rows", "scalar": rows, "type": "int32_t"},
        {"name": "cols", "scalar": cols, "type": "int32_t"},
    ], defines={"DTYPE_X": CT[dtype]})
    res = run_manifest(m, tmp_path / "out", confine=False)
    ok(res)
    y, last = np.load(res.outputs["y"]), np.load(res.outputs["last"])
    want = np.cumsum(x.astype(np.float32), axis=axis, dtype=np.float32).astype(dtype)
    np.testing.assert_array_equal(y, want)
    np.testing.assert_array_equal(last, want[-1] if mode == 0 else np.zeros(cols, dtype))
