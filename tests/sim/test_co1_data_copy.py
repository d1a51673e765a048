"""DataCopy out of L0C with DataCopyCO12DstParams (akgen_sim/cube_co1_copy.h), the older form of Fixpipe that ops-nn's
conv3d backprop kernels call: a half matmul's float result in L0C moved to GM as ND float, ND half with ReLU
(F322F16), NZ half, and NZ float with channelSplit (8-column blocks), each against NumPy."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.sim import run_manifest

from .conftest import needs_gxx

pytestmark = needs_gxx

M, N, K = 32, 32, 32

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void co1(GM_ADDR a, GM_ADDR bt, GM_ADDR c, GM_ADDR ch, GM_ADDR cz, GM_ADDR czh,
                                          int32_t mode)
{
    constexpr int32_t M = 32, N = 32, K = 32, Mb = 2, Nb = 2, Kb = 2, FE = 256;
    TPipe pipe;
    TBuf<TPosition::A1> bufA1;
    TBuf<TPosition::B1> bufB1;
    TBuf<TPosition::A2> bufA2;
    TBuf<TPosition::B2> bufB2;
    TBuf<TPosition::CO1> bufC;
    pipe.InitBuffer(bufA1, Mb * Kb * 512);
    pipe.InitBuffer(bufB1, Nb * Kb * 512);
    pipe.InitBuffer(bufA2, Mb * Kb * 512);
    pipe.InitBuffer(bufB2, Nb * Kb * 512);
    pipe.InitBuffer(bufC, Mb * Nb * 256 * sizeof(float));
    LocalTensor<half> a1 = bufA1.Get<half>(), b1 = bufB1.Get<half>(), a2 = bufA2.Get<half>(), b2 = bufB2.Get<half>();
    LocalTensor<float> c1 = bufC.Get<float>();
    GlobalTensor<half> aGm, btGm, chGm, czhGm;
    GlobalTensor<float> cGm, czGm;
    aGm.SetGlobalBuffer((__gm__ half*)a, M * K);
    btGm.SetGlobalBuffer((__gm__ half*)bt, N * K);
    cGm.SetGlobalBuffer((__gm__ float*)c, M * N);
    chGm.SetGlobalBuffer((__gm__ half*)ch, M * N);
    czGm.SetGlobalBuffer((__gm__ float*)cz, M * N);
    czhGm.SetGlobalBuffer((__gm__ half*)czh, M * N);
    DataCopy(a1, aGm, Nd2NzParams(1, M, K, 0, K, M, 1, 0));
    for (int32_t i = 0; i < Mb; ++i) {
        LoadData(a2[i * Kb * FE], a1, LoadData2DParams(i, Kb, Mb, 0, 0, false, 0));
    }
    DataCopy(b1, btGm, Nd2NzParams(1, N, K, 0, K, N, 1, 0));
    LoadData(b2, b1, LoadData2DParams(0, Kb * Nb, 1, 0, 0, false, 0));
    PipeBarrier<PIPE_ALL>();
    MmadParams mp;
    mp.m = M;
    mp.n = N;
    mp.k = K;
    Mmad(c1, a2, b2, mp);
    PipeBarrier<PIPE_ALL>();
    if (mode == 0) {  // ND float: dstStride is a row's elements
        DataCopy(cGm, c1, DataCopyCO12DstParams(N, M, N, M, QuantMode_t::NoQuant, 0, false, true));
    } else if (mode == 1) {  // ND half through F322F16, with ReLU
        DataCopy(chGm, c1, DataCopyCO12DstParams(N, M, N, M, QuantMode_t::F322F16, 1, false, true));
    } else if (mode == 2) {  // NZ float with channelSplit: 8-column blocks of M rows, M 32-byte blocks apart
        DataCopyCO12DstParams p(N, M, M, M, QuantMode_t::NoQuant, 0, true, false);
        DataCopy(czGm, c1, p);
    } else {  // NZ half: 16-column blocks of M rows (M 32-byte blocks apart)
        DataCopy(czhGm, c1, DataCopyCO12DstParams(N, M, M, M, QuantMode_t::F322F16, 0, false, false));
    }
}
"""


def _ab() -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(5)
    return rng.integers(-4, 5, (M, K)).astype(np.float16), rng.integers(-4, 5, (K, N)).astype(np.float16)


@pytest.mark.parametrize("mode", [0, 1, 2, 3])
def test_co1_data_copy_matches_numpy(write_manifest, tmp_path: Path, mode: int) -> None:
    src = tmp_path / "co1.cpp"
    src.write_text(KERNEL, encoding="utf-8")
    a, b = _ab()
    m = write_manifest(src, "co1", [
        {"name": "a", "input": a}, {"name": "bt", "input": np.ascontiguousarray(b.T)},
        {"name": "c", "output": "c.npy", "dtype": "float32", "shape": [M, N], "compared": False},
        {"name": "ch", "output": "ch.npy", "dtype": "float16", "shape": [M, N], "compared": False},
        {"name": "cz", "output": "cz.npy", "dtype": "float32", "shape": [N // 8, M, 8], "compared": False},
        {"name": "czh", "output": "czh.npy", "dtype": "float16", "shape": [N // 16, M, 16], "compared": False},
        {"name": "mode", "scalar": mode, "type": "int32_t"}])
    res = run_manifest(m, tmp_path / "out")
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    c = a.astype(np.float32) @ b.astype(np.float32)
    out = {k: np.load(v) for k, v in res.outputs.items()}
    if mode == 0:
        np.testing.assert_array_equal(out["c"], c)
    elif mode == 1:
        np.testing.assert_array_equal(out["ch"], np.maximum(c, 0).astype(np.float16))
    elif mode == 2:
        for j in range(N // 8):  # block j: columns 8j..8j+7 of every row
            np.testing.assert_array_equal(out["cz"][j], c[:, 8 * j:8 * j + 8])
    else:
        for j in range(N // 16):
            np.testing.assert_array_equal(out["czh"][j], c[:, 16 * j:16 * j + 16].astype(np.float16))
