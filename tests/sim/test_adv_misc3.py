"""Pad and UnPad (akgen_sim/adv_pad_quant_transpose.h) against the A2/A3 library's behaviour (pad_base_impl.h, pad_v220_impl.h):
the aligned Pad overwrites columns srcOriWidth .. srcOriWidth + rightPad - 1 with padValue, the unaligned Pad widens
packed rows by leftPad / rightPad columns of padValue, UnPad packs the first width - rightPad columns of each row;
bad parameters are reported at the call. Host side: GetPadMaxMinTmpSize / PadTilingFunc / GetUnPadMaxMinTmpSize /
UnPadTilingFunc with the library's numbers (pad_tiling_impl.cpp)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.sim import SimResult, run_manifest

from .conftest import KERNELS, assert_finding_at, build_host_program, needs_gxx, run_host_program

pytestmark = needs_gxx

SRC = KERNELS / "adv_misc3.cpp"

HOST = r"""
#include <cstdio>
#include <cstdlib>
#include "tiling/tiling_api.h"
int main(int argc, char** argv) {
    if (argc == 1) {  // the size helpers and the UnPad tiling
        uint32_t mx = 0, mn = 0;
        AscendC::GetPadMaxMinTmpSize(ge::Shape({16, 31}), 4, mx, mn);
        std::printf("pad4 %u %u\n", mx, mn);
        AscendC::GetPadMaxMinTmpSize(ge::Shape({5, 13}), 2, mx, mn);
        std::printf("pad2 %u %u\n", mx, mn);
        auto* plat = platform_ascendc::PlatformAscendCManager::GetInstance();
        mx = mn = 9;
        AscendC::GetUnPadMaxMinTmpSize(*plat, ge::Shape({8, 8}), 4, mx, mn);
        std::printf("unpad %u %u\n", mx, mn);
        optiling::UnPadTiling u;
        AscendC::UnPadTilingFunc(ge::Shape({8, 200}), 4096, 4, u);
        std::printf("unpadtiling %u %u %u %u %u %u\n", u.srcHeight, u.srcWidth, u.tmpBuffer1BlockNum, u.widthTiling,
                    u.widthFractal, u.widthFractalTail);
        mx = mn = 7;
        AscendC::GetPadMaxMinTmpSize(ge::Shape({16, 31}), 8, mx, mn);
        std::printf("bad %u %u\n", mx, mn);
        return 0;
    }
    const int64_t h = std::atoll(argv[1]), w = std::atoll(argv[2]), ori = std::atoll(argv[3]);
    const uint32_t ts = std::atoi(argv[4]), stack = std::atoi(argv[5]);
    optiling::PadTiling t;
    AscendC::PadTilingFunc(ge::Shape({h, w}), ge::Shape({h, ori}), stack, ts, t);
    const uint32_t* words = reinterpret_cast<const uint32_t*>(&t);
    for (size_t i = 0; i < sizeof(t) / 4; ++i) std::printf("%u ", words[i]);
    std::printf("\n");
}
"""


@pytest.fixture(scope="module")
def host(tmp_path_factory: pytest.TempPathFactory) -> Path:
    d = tmp_path_factory.mktemp("padhost")
    return build_host_program(d, HOST, "h")


def pad_tiling(host: Path, h: int, w: int, ori: int, ts: int, stack: int) -> np.ndarray:
    out = subprocess.run([str(host), str(h), str(w), str(ori), str(ts), str(stack)], capture_output=True, text=True,
                         check=True)
    return np.array([int(v) for v in out.stdout.split()], dtype=np.uint32)


def test_host_sizes_and_tilings_follow_the_library(host: Path) -> None:
    out = subprocess.run([str(host)], capture_output=True, text=True, check=True)
    lines = out.stdout.splitlines()
    # max: ceil(h*w / 16) * 16 elements of one 32-byte block each, two buffers; min: 16 of them
    assert lines[0] == f"pad4 {(496 + 15) // 16 * 16 * 8 * 2 * 4} {16 * 8 * 2 * 4}"
    assert lines[1] == f"pad2 {(65 + 15) // 16 * 16 * 16 * 2 * 2} {16 * 16 * 2 * 2}"
    assert lines[2] == "unpad 0 0"
    blocks = 4096 // 4 // 128 // 2  # base block 16 x 32 bytes = 128 floats
    assert lines[3] == f"unpadtiling 8 200 {blocks} {16 * blocks} {200 // 64 + 1} {200 % 64}"
    assert lines[4] == "bad 7 7"
    assert "typeSize is 8" in out.stderr
    t = pad_tiling(host, 300, 64, 61, 4, 0)
    # srcHeight, srcWidth, srcOriWidth, widthWithoutLastBlock, blocksPerRow, heightTiling, heightFractal,
    # heightFractalTail, mainLoopOffset, tailBlockOffset
    assert list(t[:10]) == [300, 64, 61, 56, 8, 255, 1, 45, 255 * 64, 255 * 64 + 56]
    assert not t[10:].any()  # no stack: the unaligned-path fields stay 0


def run_pad(write_manifest, tmp_path: Path, host: Path, dtype: str, mode: int, h: int, w: int, ori: int, left: int,
            right: int, stack: int) -> tuple[SimResult, np.ndarray, int]:
    ts = np.dtype(dtype).itemsize
    aligned = (w * ts) % 32 == 0
    ow = w if aligned else w + left + right
    x = (np.arange(h * w) % 251 + 1).astype(dtype)
    m = write_manifest(SRC, "pad", [
        {"name": "src", "input": np.concatenate([x, np.zeros(32, dtype)])},
        {"name": "dst", "output": "dst.npy", "dtype": dtype, "shape": [(h * ow * ts + 31) // 32 * 32 // ts]},
        {"name": "tilingGm", "input": pad_tiling(host, h, w, ori, ts, stack)},
        {"name": "mode", "scalar": mode, "type": "int32_t"},
        {"name": "h", "scalar": h, "type": "int32_t"},
        {"name": "w", "scalar": w, "type": "int32_t"},
        {"name": "ow", "scalar": ow, "type": "int32_t"},
        {"name": "left", "scalar": left, "type": "int32_t"},
        {"name": "right", "scalar": right, "type": "int32_t"},
        {"name": "value", "scalar": 321, "type": "int32_t"},
        {"name": "tmp", "scalar": max(stack, 32), "type": "int32_t"},
    ], defines={"DTYPE_X": {"float32": "float", "float16": "half", "int16": "int16_t"}[dtype]})
    return run_manifest(m, tmp_path / f"pad_{dtype}_{mode}_{w}_{left}_{right}", confine=False), x.reshape(h, w), ow


@pytest.mark.parametrize(("dtype", "w", "left", "right"), [("float32", 31, 0, 1), ("float16", 13, 1, 2),
                                                          ("int16", 30, 2, 0)])
@pytest.mark.parametrize("mode", [0, 1])
def test_unaligned_pad_widens_each_row(write_manifest, tmp_path: Path, host: Path, dtype: str, w: int, left: int,
                                       right: int, mode: int) -> None:
    h = 5
    res, x, ow = run_pad(write_manifest, tmp_path, host, dtype, mode, h, w, w, left, right, 1024)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    y = np.load(res.outputs["dst"])[: h * ow].reshape(h, ow)
    want = np.full((h, ow), 321, dtype=dtype)
    want[:, left:left + w] = x
    np.testing.assert_array_equal(y, want)


def test_aligned_pad_fills_the_columns_after_the_original_width(write_manifest, tmp_path: Path, host: Path) -> None:
    h, w, ori = 4, 16, 13
    res, x, _ = run_pad(write_manifest, tmp_path, host, "float32", 0, h, w, ori, 0, 2, 1024)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    y = np.load(res.outputs["dst"])[: h * w].reshape(h, w)
    want = x.copy()
    want[:, ori:ori + 2] = 321
    np.testing.assert_array_equal(y, want)


def test_unaligned_pad_without_temporary_space_in_the_tiling_is_reported(write_manifest, tmp_path: Path,
                                                                         host: Path) -> None:
    res, _, _ = run_pad(write_manifest, tmp_path, host, "float32", 1, 4, 31, 31, 0, 1, 0)
    assert_finding_at(res, "SIM-PAD-TMP", SRC)


@pytest.mark.parametrize("mode", [0, 1])
def test_unpad_packs_the_left_columns(write_manifest, tmp_path: Path, mode: int) -> None:
    h, w, right = 6, 16, 3
    x = (np.arange(h * w) + 1).astype(np.float16)
    m = write_manifest(SRC, "unpad", [
        {"name": "src", "input": x},
        {"name": "dst", "output": "dst.npy", "dtype": "float16", "shape": [h * w]},
        {"name": "mode", "scalar": mode, "type": "int32_t"},
        {"name": "h", "scalar": h, "type": "int32_t"},
        {"name": "w", "scalar": w, "type": "int32_t"},
        {"name": "right", "scalar": right, "type": "int32_t"},
    ], defines={"DTYPE_X": "half"})
    res = run_manifest(m, tmp_path / f"unpad_{mode}", confine=False)
    if mode == 1:
        assert_finding_at(res, "SIM-UNPAD-PARAMS", SRC)
        return
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    y = np.load(res.outputs["dst"])
    np.testing.assert_array_equal(y[: h * (w - right)], x.reshape(h, w)[:, : w - right].ravel())
    assert not y[h * (w - right):].any()


def run_dequant(write_manifest, tmp_path: Path, dst: str, scale_t: str, mode: int, m: int, n: int, cal: int
                ) -> tuple[SimResult, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(5)
    x = rng.integers(-300, 300, (m, n)).astype(np.int32)
    if scale_t == "uint64":  # the low 32 bits carry the float scale, the high bits are ignored
        f = rng.uniform(-2, 2, n).astype(np.float32)
        scale = f.view(np.uint32).astype(np.uint64) | (np.uint64(0xABC) << np.uint64(32))
        fscale = f
    else:
        scale = rng.uniform(-2, 2, n).astype(np.float32)
        fscale = scale
    ts = np.dtype(dst).itemsize
    dn = (n * ts + 31) // 32 * 32 // ts
    mf = write_manifest(SRC, "dequant", [
        {"name": "src", "input": x.ravel()},
        {"name": "scale", "input": scale},
        {"name": "dst", "output": "dst.npy", "dtype": dst, "shape": [m * dn]},
        {"name": "mode", "scalar": mode, "type": "int32_t"},
        {"name": "m", "scalar": m, "type": "int32_t"},
        {"name": "n", "scalar": n, "type": "int32_t"},
        {"name": "cal", "scalar": cal, "type": "int32_t"},
        {"name": "s", "scalar": 0.75, "type": "float"},
    ], defines={"DTYPE_X": "float", "DQ_DST": {"float32": "float", "float16": "half"}[dst],
                "SCALE_T": {"float32": "float", "uint64": "uint64_t"}[scale_t]})
    res = run_manifest(mf, tmp_path / f"deq_{dst}_{mode}_{cal}", confine=False)
    return res, x, fscale


@pytest.mark.parametrize(("dst", "scale_t"), [("float32", "float32"), ("float16", "uint64")])
@pytest.mark.parametrize("mode", [0, 2])
def test_dequant_scales_the_first_calcount_columns(write_manifest, tmp_path: Path, dst: str, scale_t: str,
                                                   mode: int) -> None:
    m, n = 4, 24
    cal = 20 if mode == 0 else n
    res, x, sc = run_dequant(write_manifest, tmp_path, dst, scale_t, mode, m, n, cal)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    ts = np.dtype(dst).itemsize
    dn = (n * ts + 31) // 32 * 32 // ts
    y = np.load(res.outputs["dst"]).reshape(m, dn)
    want = x.astype(np.float32).copy()
    if mode == 2 and n % (32 // ts) != 0:
        # {1, m * n, n} stays one row unless n is a multiple of dstT's 32-byte block: only its first n are scaled
        # and dst is that one row of m * n (already 32-byte aligned), not m rows of n_dst
        flat = want.ravel()
        flat[:n] *= sc[:n]
        np.testing.assert_array_equal(y.ravel()[: m * n], flat.astype(dst))
        return
    else:
        want[:, :cal] = want[:, :cal] * sc[:cal]
    np.testing.assert_array_equal(y[:, :n], want.astype(dst))
    assert not y[:, n:].any()  # the row's padding up to 32 bytes is not written


def test_dequant_scalar_scale(write_manifest, tmp_path: Path) -> None:
    m, n = 3, 16
    res, x, _ = run_dequant(write_manifest, tmp_path, "float32", "float32", 1, m, n, 16)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    np.testing.assert_array_equal(np.load(res.outputs["dst"]).reshape(m, n), x.astype(np.float32) * np.float32(0.75))


def test_dequant_small_shared_buffer_is_reported(write_manifest, tmp_path: Path) -> None:
    res, _, _ = run_dequant(write_manifest, tmp_path, "float32", "float32", 3, 4, 24, 24)
    assert_finding_at(res, "SIM-DEQUANT-TMP", SRC)


def run_antiquant(write_manifest, tmp_path: Path, mode: int) -> tuple[SimResult, dict[str, np.ndarray]]:
    k, n = 8, 64
    rng = np.random.default_rng(9)
    d = {"x": rng.integers(-128, 128, (k, n)).astype(np.int8),
         "off": rng.uniform(-10, 10, n).astype(np.float16),
         "sc": rng.uniform(-10, 10, n).astype(np.float16)}
    mf = write_manifest(SRC, "antiquant", [
        {"name": "src", "input": d["x"].ravel()},
        {"name": "offset", "input": d["off"]},
        {"name": "scale", "input": d["sc"]},
        {"name": "dst", "output": "dst.npy", "dtype": "float16", "shape": [k * n]},
        {"name": "mode", "scalar": mode, "type": "int32_t"},
        {"name": "k", "scalar": k, "type": "int32_t"},
        {"name": "n", "scalar": n, "type": "int32_t"},
        {"name": "o", "scalar": 1.5, "type": "float"},
        {"name": "s", "scalar": -0.25, "type": "float"},
    ], defines={"DTYPE_X": "half"})
    return run_manifest(mf, tmp_path / f"aq_{mode}", confine=False), d


@pytest.mark.parametrize("mode", [0, 1, 2])
def test_antiquant_in_half_arithmetic(write_manifest, tmp_path: Path, mode: int) -> None:
    res, d = run_antiquant(write_manifest, tmp_path, mode)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    x = d["x"].astype(np.float16)
    if mode == 0:
        want = (x + d["off"]) * d["sc"]  # numpy float16 arithmetic rounds each step to half, as the library does
    elif mode == 1:
        want = x * d["sc"]
    else:
        want = (x + np.float16(1.5)) * np.float16(-0.25)
    np.testing.assert_array_equal(np.load(res.outputs["dst"]).reshape(x.shape), want)


def test_antiquant_transposed_is_reported_as_not_emulated(write_manifest, tmp_path: Path) -> None:
    res, _ = run_antiquant(write_manifest, tmp_path, 3)
    assert_finding_at(res, "SIM-NOT-EMULATED", SRC)


HOST_Q = r"""
#include <cstdio>
#include "tiling/tiling_api.h"
int main() {
    uint32_t mx = 0, mn = 0;
    AscendC::GetAscendDequantMaxMinTmpSize(ge::Shape({128, 32}), 4, mx, mn);
    std::printf("deq2 %u %u\n", mx, mn);
    AscendC::GetAscendDequantMaxMinTmpSize(ge::Shape({40}), 4, mx, mn);
    std::printf("deq1 %u %u\n", mx, mn);
    mx = mn = 3;
    AscendC::GetAscendDequantMaxMinTmpSize(ge::Shape({4, 8}), 2, mx, mn);
    std::printf("deqbad %u %u\n", mx, mn);
    AscendC::GetAscendAntiQuantMaxMinTmpSize(ge::Shape({1024}), ge::Shape({128}), false, ge::DT_INT8, ge::DT_FLOAT16,
                                             mx, mn);
    std::printf("aqh %u %u\n", mx, mn);
    AscendC::GetAscendAntiQuantMaxMinTmpSize(ge::Shape({8, 128}), ge::Shape({1, 128}), false, ge::DT_INT8,
                                             ge::DT_BF16, mx, mn);
    std::printf("aqb %u %u\n", mx, mn);
    AscendC::GetAscendAntiQuantMaxMinTmpSize(ge::Shape({8, 128}), ge::Shape({1}), false, ge::DT_INT8, ge::DT_BF16,
                                             mx, mn);
    std::printf("aqs %u %u\n", mx, mn);
}
"""


def test_host_quant_sizes_follow_the_library(tmp_path: Path) -> None:
    out = run_host_program(tmp_path, HOST_Q, "q")
    assert out.stdout.splitlines() == [
        f"deq2 {(64 + 128 * 32 + 40) * 4} {(64 + 32 + 40) * 4}",
        f"deq1 {(64 + 40 + 48) * 4} {(64 + 40 + 48) * 4}",
        "deqbad 3 3",
        "aqh 0 0",
        f"aqb {128 * 2 * 4 + 64 * 8 * 4} {128 * 2 * 4 + 64 * 8 * 4}",
        f"aqs {8 * 128 * 4} 1024",
    ]
    assert "typeSize 2" in out.stderr


HOST_T = r"""
#include <cstdio>
#include "tiling/tiling_api.h"
int main() {
    ge::Shape s({2, 3, 32, 48});
    uint32_t mx = 0, mn = 0;
    AscendC::GetTransposeMaxMinTmpSize(s, 2, 1, mx, mn);
    optiling::ConfusionTransposeTiling t;
    AscendC::GetTransposeTilingInfo(s, mn, 2, 1, t);
    std::printf("%u %u\n", mx, mn);
    const uint32_t* w = reinterpret_cast<const uint32_t*>(&t);
    for (size_t i = 0; i < sizeof(t) / 4; ++i) std::printf("%u ", w[i]);
    std::printf("\n");
    AscendC::GetTransposeMaxMinTmpSize(s, 2, 7, mx, mn);
}
"""


@pytest.mark.parametrize("mode", [0, 1, 2])
def test_confusion_transpose_0213(write_manifest, tmp_path: Path, mode: int) -> None:
    out = run_host_program(tmp_path, HOST_T, "t")
    sizes, words = out.stdout.splitlines()
    assert sizes == f"{32 * 16 * 2} {256 * 2}"
    assert "only TRANSPOSE_NZ2ND_0213" in out.stderr  # scenario 7 is not emulated and says so
    tiling = np.array([int(v) for v in words.split()], dtype=np.uint32)
    assert list(tiling[:7]) == [16, 2, 3, 48, 32, 3, 256]
    b, a1, a2, a3 = 2, 3, 32, 48
    if mode == 1:
        a1 = 16  # the NZ output needs A1 in 16-row fractals
        tiling[2] = a1
    nd = np.arange(b * a1 * a2 * a3, dtype=np.float32).reshape(b, a1, a2, a3) % 2000
    nz = nd.reshape(b, a1, a2 // 16, 16, a3 // 16, 16).transpose(0, 1, 4, 2, 3, 5).astype(np.float16)
    m = write_manifest(SRC, "confusion", [
        {"name": "src", "input": nz.ravel()},
        {"name": "dst", "output": "dst.npy", "dtype": "float16", "shape": [nz.size]},
        {"name": "tilingGm", "input": tiling},
        {"name": "mode", "scalar": mode, "type": "int32_t"},
        {"name": "n", "scalar": nz.size, "type": "int32_t"},
    ], defines={"DTYPE_X": "half"})
    res = run_manifest(m, tmp_path / f"ct_{mode}", confine=False)
    if mode == 2:
        hits = [f for f in res.findings if f.code == "SIM-NOT-EMULATED"]
        assert hits, [(f.code, f.message) for f in res.findings]
        lines = SRC.read_text(encoding="utf-8").splitlines()
        want_line = next(i for i, t in enumerate(lines, 1) if "TRANSPOSE_ND2ND_ONLY, t);  // EXPECT" in t)
        assert hits[0].span.line == want_line
        return
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    want = nd.transpose(0, 2, 1, 3)  # [B, A2, A1, A3]
    if mode == 1:
        want = want.reshape(b, a2, a1 // 16, 16, a3 // 16, 16).transpose(0, 1, 4, 2, 3, 5)
    np.testing.assert_array_equal(np.load(res.outputs["dst"]), want.astype(np.float16).ravel())
