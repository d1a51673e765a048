"""Pad and UnPad (akgen_sim/adv_misc3.h) against the A2/A3 library's behaviour (pad_base_impl.h, pad_v220_impl.h):
the aligned Pad overwrites columns srcOriWidth .. srcOriWidth + rightPad - 1 with padValue, the unaligned Pad widens
packed rows by leftPad / rightPad columns of padValue, UnPad packs the first width - rightPad columns of each row;
bad parameters are reported at the call. Host side: GetPadMaxMinTmpSize / PadTilingFunc / GetUnPadMaxMinTmpSize /
UnPadTilingFunc with the library's numbers (pad_tiling_impl.cpp)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.sim import SimResult, run_manifest

from .conftest import KERNELS, marker_line, needs_gxx

pytestmark = needs_gxx

SRC = KERNELS / "adv_misc3.cpp"
INCLUDE = Path(__file__).resolve().parents[2] / "akgen_lsp" / "sim" / "include"

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
    gxx = shutil.which("g++")
    assert gxx
    d = tmp_path_factory.mktemp("padhost")
    (d / "h.cpp").write_text(HOST, encoding="utf-8")
    subprocess.run([gxx, "-std=c++20", "-I", str(INCLUDE), "h.cpp", "-o", "h"], cwd=d, check=True,
                   capture_output=True)
    return d / "h"


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
    return run_manifest(m, tmp_path / f"pad_{dtype}_{mode}_{w}_{left}_{right}"), x.reshape(h, w), ow


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
    hits = [f for f in res.findings if f.code == "SIM-PAD-TMP"]
    assert hits, [(f.code, f.message) for f in res.findings]
    assert hits[0].span.line == marker_line(SRC, "SIM-PAD-TMP")


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
    res = run_manifest(m, tmp_path / f"unpad_{mode}")
    if mode == 1:
        hits = [f for f in res.findings if f.code == "SIM-UNPAD-PARAMS"]
        assert hits, [(f.code, f.message) for f in res.findings]
        assert hits[0].span.line == marker_line(SRC, "SIM-UNPAD-PARAMS")
        return
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    y = np.load(res.outputs["dst"])
    np.testing.assert_array_equal(y[: h * (w - right)], x.reshape(h, w)[:, : w - right].ravel())
    assert not y[h * (w - right):].any()
