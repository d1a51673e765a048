"""The emulated Matmul (lib/matmul_intf.h) sums each C element over k in order in float, one product and one add at a
time (then bias, then one conversion to C's type), also now that its loops are blocked and vectorised: a problem
whose sums round differently in another order (uniform fp16 values, K past the 256-wide k tiles, N past the 256-wide
column tiles, M not a multiple of the four-row pass) must match a numpy loop that adds the products in k order."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from akgen_lsp.findings import Severity
from akgen_lsp.sim import run_manifest

from .conftest import needs_gxx

pytestmark = needs_gxx

M, N, K = 7, 272, 300

KERNEL = """
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;
using AT = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using BT = MatmulType<TPosition::GM, CubeFormat::ND, half, true>;
using CT = MatmulType<TPosition::GM, CubeFormat::ND, float>;
using BiasT = MatmulType<TPosition::GM, CubeFormat::ND, float>;

extern "C" __global__ __aicore__ void mm_order(GM_ADDR a, GM_ADDR b, GM_ADDR bias, GM_ADDR c, int32_t m, int32_t n,
                                               int32_t k)
{
    TPipe pipe;
    TCubeTiling tiling;
    tiling.usedCoreNum = 1;
    tiling.M = m;
    tiling.N = n;
    tiling.Ka = k;
    tiling.Kb = k;
    tiling.singleCoreM = m;
    tiling.singleCoreN = n;
    tiling.singleCoreK = k;
    tiling.baseM = 16;
    tiling.baseN = n;
    tiling.baseK = 16;
    tiling.isBias = 1;
    matmul::Matmul<AT, BT, CT, BiasT> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
    if (GetBlockIdx() != 0) return;
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> biasGm, cGm;
    aGm.SetGlobalBuffer((__gm__ half*)a, m * k);
    bGm.SetGlobalBuffer((__gm__ half*)b, n * k);
    biasGm.SetGlobalBuffer((__gm__ float*)bias, n);
    cGm.SetGlobalBuffer((__gm__ float*)c, m * n);
    mm.SetTensorA(aGm);
    mm.SetTensorB(bGm, true);
    mm.SetBias(biasGm);
    mm.IterateAll(cGm);
    mm.End();
}
"""


def test_each_element_is_summed_over_k_in_order(write_manifest, tmp_path: Path) -> None:
    rng = np.random.default_rng(11)
    a = rng.uniform(-1, 1, (M, K)).astype(np.float16)
    bt = rng.uniform(-1, 1, (N, K)).astype(np.float16)  # B transposed: N x K in GM
    bias = rng.uniform(-1, 1, N).astype(np.float32)
    src = tmp_path / "mm_order.cpp"
    src.write_text(KERNEL, encoding="utf-8")
    m = write_manifest(src, "mm_order", [
        {"name": "a", "input": a},
        {"name": "b", "input": bt},
        {"name": "bias", "input": bias},
        {"name": "c", "output": "c.npy", "dtype": "float32", "shape": [M, N]},
        {"name": "m", "scalar": M, "type": "int32_t"},
        {"name": "n", "scalar": N, "type": "int32_t"},
        {"name": "k", "scalar": K, "type": "int32_t"},
    ])
    res = run_manifest(m, tmp_path / "out", confine=False)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings if f.severity is Severity.ERROR]
    c = np.load(res.outputs["c"])
    af, bf = a.astype(np.float32), bt.astype(np.float32).T
    acc = np.zeros((M, N), np.float32)
    for k in range(K):  # float32 products added one k at a time
        acc = (acc + np.outer(af[:, k], bf[k, :]).astype(np.float32)).astype(np.float32)
    np.testing.assert_array_equal(c, acc + bias)
    # the order matters for these values: the same float32 loop over k in reverse differs somewhere (computed here,
    # not with numpy's matmul, whose summation order is the BLAS kernel's that the machine picks)
    rev = np.zeros((M, N), np.float32)
    for k in reversed(range(K)):
        rev = (rev + np.outer(af[:, k], bf[k, :]).astype(np.float32)).astype(np.float32)
    assert not np.array_equal(rev + bias, acc + bias)
