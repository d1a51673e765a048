"""The scalar computation APIs (basic_api/kernel_operator_scalar_intf.h) and system values that A2/A3 kernels of CANN's
operator repositories call: GetBitCount, CountLeadingZero, CountBitsCntSameAsSignBit, GetSFFValue and their Scalar*
names, the scalar Cast / ScalarCast with a RoundMode, Cast(float) -> bfloat16_t, ToFloat(float),
GetDataBlockSizeInBytes, AscendCUtils::GetRsvdCnt after a GatherMask, and Trap (akgen_sim/scalar_api.h). Expected
values follow the API pages' definitions and examples."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from akgen_lsp.sim import run_manifest

from .conftest import needs_gxx

pytestmark = needs_gxx

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void scal(GM_ADDR bits, GM_ADDR vals, GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling)
{
    GlobalTensor<uint64_t> bGm;
    GlobalTensor<float> vGm;
    GlobalTensor<int64_t> oGm;
    bGm.SetGlobalBuffer((__gm__ uint64_t*)bits, 8);
    vGm.SetGlobalBuffer((__gm__ float*)vals, 8);
    oGm.SetGlobalBuffer((__gm__ int64_t*)out, 128);
    for (int i = 0; i < 8; ++i) {
        uint64_t b = bGm.GetValue(i);
        oGm.SetValue(i * 6 + 0, GetBitCount<1>(b));
        oGm.SetValue(i * 6 + 1, ScalarGetCountOfValue<0>(b));
        oGm.SetValue(i * 6 + 2, ScalarCountLeadingZero(b));
        oGm.SetValue(i * 6 + 3, CountBitsCntSameAsSignBit(static_cast<int64_t>(b)));
        oGm.SetValue(i * 6 + 4, GetSFFValue<1>(b));
        oGm.SetValue(i * 6 + 5, ScalarGetSFFValue<0>(b));
    }
    for (int i = 0; i < 8; ++i) {
        float v = vGm.GetValue(i);
        oGm.SetValue(48 + i * 6 + 0, ScalarCast<float, int32_t, RoundMode::CAST_ROUND>(v));
        oGm.SetValue(48 + i * 6 + 1, Cast<float, int32_t, RoundMode::CAST_FLOOR>(v));
        oGm.SetValue(48 + i * 6 + 2, Cast<float, int32_t, RoundMode::CAST_CEIL>(v));
        oGm.SetValue(48 + i * 6 + 3, Cast<float, int32_t, RoundMode::CAST_RINT>(v));
        bfloat16_t bf = Cast(v);
        oGm.SetValue(48 + i * 6 + 4, static_cast<int64_t>(bf.bits));
        float back = ToFloat(v);
        uint32_t ub;
        __builtin_memcpy(&ub, &back, 4);
        oGm.SetValue(48 + i * 6 + 5, static_cast<int64_t>(ub));
    }
    constexpr int16_t blk = GetDataBlockSizeInBytes();
    oGm.SetValue(96, blk);
    // GetRsvdCnt: what the last GatherMask kept (pattern 1: the even elements of 64 floats)
    TPipe pipe;
    TBuf<TPosition::VECCALC> tsrc, tdst;
    pipe.InitBuffer(tsrc, 64 * sizeof(float));
    pipe.InitBuffer(tdst, 64 * sizeof(float));
    LocalTensor<float> src = tsrc.Get<float>(), dst = tdst.Get<float>();
    Duplicate(src, 1.0f, 64);
    uint64_t kept = 0;
    GatherMask(dst, src, static_cast<uint8_t>(1), false, 0, {1, 1, 8, 0}, kept);
    oGm.SetValue(97, AscendCUtils::GetRsvdCnt());
    oGm.SetValue(98, static_cast<int64_t>(kept));
}
"""

TRAP = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void trapk(GM_ADDR x, GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling)
{
    GlobalTensor<int32_t> xGm, oGm;
    xGm.SetGlobalBuffer((__gm__ int32_t*)x, 8);
    oGm.SetGlobalBuffer((__gm__ int32_t*)out, 8);
    if (xGm.GetValue(0) < 0) {
        Trap();
    }
    oGm.SetValue(0, xGm.GetValue(0));
}
"""


def _clz(b: int) -> int:
    return 64 - b.bit_length()


def _same_as_sign(b: int) -> int:
    sign = b >> 63
    n = 0
    for bit in range(62, -1, -1):
        if (b >> bit) & 1 != sign:
            break
        n += 1
    return n


def _sff(b: int, v: int) -> int:
    for bit in range(64):
        if (b >> bit) & 1 == v:
            return bit
    return -1


def _bf16_bits(v: np.float32) -> int:
    u = int(np.float32(v).view(np.uint32))
    return ((u + 0x7FFF + ((u >> 16) & 1)) >> 16) & 0xFFFF  # nearest even (finite values)


def test_scalar_apis_compute_as_documented(write_manifest, tmp_path: Path) -> None:
    src = tmp_path / "scal.cpp"
    src.write_text(KERNEL, encoding="utf-8")
    words = [0x1000000000000100, 0x0100000000000020, 0, 0xFFFFFFFFFFFFFFFF, 1, 0x8000000000000000,
             0xF0F0F0F0F0F0F0F0, 0xFFFF0000FFFF0000]
    bits = np.array(words, dtype=np.uint64)
    vals = np.array([2.5, -2.5, 3.7, -3.2, 0.5, 1.5, 1.00390625 + 2 ** -12, 123456.789], dtype=np.float32)
    m = write_manifest(src, "scal", [
        {"name": "bits", "input": bits}, {"name": "vals", "input": vals},
        {"name": "out", "output": "out.npy", "dtype": "int64", "shape": [128]},
        {"name": "workspace", "workspace_bytes": 0}, {"name": "tiling", "tiling": {"fields": {}}}])
    res = run_manifest(m, tmp_path / "out")
    assert res.status == "ok", [f.message for f in res.findings]
    o = np.load(res.outputs["out"]).astype(np.int64)
    # the pages' own examples
    assert o[4] == 8  # GetSFFValue<1>(0x1000000000000100) == 8
    assert o[6 + 2] == 7 and o[6 + 3] == 6  # CountLeadingZero / CountBitsCntSameAsSignBit of 0x0100000000000020
    for i, b in enumerate(words):
        ones = bin(b).count("1")
        assert list(o[i * 6:i * 6 + 6]) == [ones, 64 - ones, _clz(b), _same_as_sign(b), _sff(b, 1), _sff(b, 0)], hex(b)
    for i, v in enumerate(vals):
        x = float(v)
        away = int(np.sign(x) * np.floor(abs(x) + 0.5))  # CAST_ROUND: half away from zero
        want = [away, int(np.floor(x)), int(np.ceil(x)), int(np.rint(x)), _bf16_bits(v)]
        assert list(o[48 + i * 6:48 + i * 6 + 5]) == want, x
        back = np.uint32(_bf16_bits(v) << 16).view(np.float32)  # ToFloat(float): through bfloat16_t
        assert int(o[48 + i * 6 + 5]) == int(np.float32(back).view(np.uint32)), x
    assert o[96] == 32
    assert o[97] == 32 and o[98] == 32


def test_trap_stops_the_kernel_at_its_line(write_manifest, tmp_path: Path) -> None:
    src = tmp_path / "trapk.cpp"
    src.write_text(TRAP, encoding="utf-8")
    args = [{"name": "out", "output": "out.npy", "dtype": "int32", "shape": [8]},
            {"name": "workspace", "workspace_bytes": 0}, {"name": "tiling", "tiling": {"fields": {}}}]
    ok = run_manifest(write_manifest(src, "trapk", [{"name": "x", "input": np.arange(8, dtype=np.int32)}, *args]),
                      tmp_path / "ok")
    assert ok.status == "ok", [f.message for f in ok.findings]
    bad = run_manifest(write_manifest(src, "trapk", [{"name": "x", "input": -np.arange(1, 9, dtype=np.int32)},
                                                     *args]), tmp_path / "bad")
    trap = [f for f in bad.findings if f.code == "SIM-TRAP"]
    assert bad.status != "ok" and trap, [f.code for f in bad.findings]
    assert trap[0].span is not None and trap[0].span.line == TRAP.splitlines().index("        Trap();") + 1
