"""The LocalTensor comparison operators (`mask = a >= b`: the Compare page's operator forms, one bit per element of the
whole of src0), the dcci intrinsic, and <iostream> under __CCE_KT_TEST__ through kernel_operator.h."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.sim import run_manifest

from .conftest import needs_gxx

pytestmark = needs_gxx

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void cmp_ops(GM_ADDR a, GM_ADDR b, GM_ADDR out, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    TBuf<TPosition::VECCALC> ta, tb, tm;
    pipe.InitBuffer(ta, 64 * sizeof(float));
    pipe.InitBuffer(tb, 64 * sizeof(float));
    pipe.InitBuffer(tm, 6 * 32);
    GlobalTensor<float> aGm, bGm;
    GlobalTensor<uint8_t> oGm;
    aGm.SetGlobalBuffer((__gm__ float*)a, 64);
    bGm.SetGlobalBuffer((__gm__ float*)b, 64);
    oGm.SetGlobalBuffer((__gm__ uint8_t*)out, 6 * 32);
    LocalTensor<float> x = ta.Get<float>(), y = tb.Get<float>();
    LocalTensor<uint8_t> m = tm.Get<uint8_t>();
    DataCopy(x, aGm, 64);
    DataCopy(y, bGm, 64);
    PipeBarrier<PIPE_ALL>();
    LocalTensor<uint8_t> m0 = m[0], m1 = m[32], m2 = m[64], m3 = m[96], m4 = m[128], m5 = m[160];
    m0 = x < y;
    m1 = x > y;
    m2 = x <= y;
    m3 = x >= y;
    m4 = x == y;
    m5 = x != y;
    PipeBarrier<PIPE_ALL>();
    DataCopy(oGm, m, 6 * 32);
    dcci((__gm__ uint8_t*)out, cache_line_t::ENTIRE_DATA_CACHE, dcci_dst_t::CACHELINE_OUT);
#ifdef __CCE_KT_TEST__
    std::cout << "ut only" << std::endl;
#endif
}
"""


@pytest.mark.parametrize("kt_test", [False, True])
def test_comparison_operators_write_one_bit_per_element(write_manifest, tmp_path: Path, kt_test: bool) -> None:
    src = tmp_path / "cmp_ops.cpp"
    src.write_text(KERNEL, encoding="utf-8")
    rng = np.random.default_rng(3)
    a = rng.integers(-3, 3, 64).astype(np.float32)
    b = rng.integers(-3, 3, 64).astype(np.float32)
    m = write_manifest(src, "cmp_ops", [
        {"name": "a", "input": a}, {"name": "b", "input": b},
        {"name": "out", "output": "out.npy", "dtype": "uint8", "shape": [192]},
        {"name": "workspace", "workspace_bytes": 0}, {"name": "tiling", "tiling": {"fields": {}}}],
        defines={"__CCE_KT_TEST__": "1"} if kt_test else {})
    res = run_manifest(m, tmp_path / "out")
    assert res.status == "ok", [f.message for f in res.findings]
    out = np.load(res.outputs["out"]).reshape(6, 32)
    for row, want in zip(out, [a < b, a > b, a <= b, a >= b, a == b, a != b], strict=True):
        bits = np.unpackbits(row[:8], bitorder="little").astype(bool)
        np.testing.assert_array_equal(bits, want)
