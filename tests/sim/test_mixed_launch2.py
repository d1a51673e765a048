"""Kernels with the high-level Matmul object (REGIST_MATMUL_OBJ) are MIX kernels in CANN (KERNEL_TYPE_MIX_AIC_1_2
unless ASCENDC_CUBE_ONLY or another kernel type is declared): each block is an AI Core whose AIC runs the matmul server
and returns at REGIST_MATMUL_OBJ, while its two AIVs run the kernel's code with GetBlockIdx() = 2 * block +
GetSubBlockIdx() (FlashAttentionScoreWithLargeHeadDim's host sets 9 blocks for 18 vector cores). The sim builds such a
kernel split and launches one AIC and two AIV fibers per block."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.findings import Severity
from akgen_lsp.sim import run_manifest
from akgen_lsp.sim.split import can_split, infer_core_type

from .conftest import needs_gxx

pytestmark = needs_gxx

BLOCKS = 2
ROWS = 8  # rows of C per vector core
M, N, K = 2 * BLOCKS * ROWS, 16, 32

KERNEL = """
#include "kernel_operator.h"
#include "lib/matmul_intf.h"
using namespace AscendC;
using AT = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using BT = MatmulType<TPosition::GM, CubeFormat::ND, half>;
using CT = MatmulType<TPosition::GM, CubeFormat::ND, float>;

extern "C" __global__ __aicore__ void mixed_mm(GM_ADDR a, GM_ADDR b, GM_ADDR c, GM_ADDR z, GM_ADDR workspace)
{
    TPipe pipe;
    TCubeTiling tiling;
    tiling.usedCoreNum = 2 * GetBlockNum();
    tiling.M = @M@;
    tiling.N = @N@;
    tiling.Ka = @K@;
    tiling.Kb = @K@;
    tiling.singleCoreM = @ROWS@;
    tiling.singleCoreN = @N@;
    tiling.singleCoreK = @K@;
    tiling.baseM = @ROWS@;
    tiling.baseN = @N@;
    tiling.baseK = 16;
    matmul::Matmul<AT, BT, CT> mm;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
    GlobalTensor<half> aGm, bGm;
    GlobalTensor<float> cGm;
    GlobalTensor<int32_t> zGm;
    aGm.SetGlobalBuffer((__gm__ half*)a, @M@ * @K@);
    bGm.SetGlobalBuffer((__gm__ half*)b, @K@ * @N@);
    cGm.SetGlobalBuffer((__gm__ float*)c, @M@ * @N@);
    zGm.SetGlobalBuffer((__gm__ int32_t*)z, 64);
    const int32_t idx = GetBlockIdx();
    zGm.SetValue(idx * 4 + 0, idx);
    zGm.SetValue(idx * 4 + 1, static_cast<int32_t>(GetSubBlockIdx()));
    zGm.SetValue(idx * 4 + 2, ASCEND_IS_AIV ? 1 : 0);
    zGm.SetValue(idx * 4 + 3, static_cast<int32_t>(GetTaskRation()));
    mm.SetTensorA(aGm[idx * @ROWS@ * @K@]);
    mm.SetTensorB(bGm);
    mm.IterateAll(cGm[idx * @ROWS@ * @N@]);
    mm.End();
}
""".replace("@M@", str(M)).replace("@N@", str(N)).replace("@K@", str(K)).replace(
    "@ROWS@", str(ROWS))


def test_a_matmul_object_kernel_is_built_mixed() -> None:
    assert infer_core_type([KERNEL], split=True) == "mix"
    assert infer_core_type([KERNEL], split=False) == "aiv"
    assert infer_core_type(["#define ASCENDC_CUBE_ONLY\n" + KERNEL], split=True) == "aiv"
    one_one = KERNEL.replace("TPipe pipe;", "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);\n    TPipe pipe;")
    assert infer_core_type([one_one], split=True) == "aiv"
    one_two = KERNEL.replace("TPipe pipe;", "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);\n    TPipe pipe;")
    assert infer_core_type([one_two], split=True) == "mix"


# FlashAttentionScoreWithLargeHeadDim's shape: the kernel file has header-style include guards around its classes and
# includes a system header with quotes; the split build still includes it once per core type.
GUARDED = KERNEL.replace('#include "kernel_operator.h"', '#ifndef MIXED_MM_H\n#define MIXED_MM_H\n'
                         '#include "kernel_operator.h"\n#include "stdarg.h"', 1).replace(
    'extern "C"', '#endif  // MIXED_MM_H\nextern "C"', 1)


def _own_header_kernel(tmp_path: Path) -> Path:
    """KERNEL split as InplaceFusedMatmulSoftmaxGrad is: the includes and types in a guarded header of its own (which
    includes a second one), the kernel in the .cpp."""
    head, body = KERNEL.split('extern "C"', 1)
    (tmp_path / "mixed_types.h").write_text("#ifndef MIXED_TYPES_H\n#define MIXED_TYPES_H\n" + head + "#endif\n",
                                            encoding="utf-8")
    (tmp_path / "mixed_base.h").write_text('#ifndef MIXED_BASE_H\n#define MIXED_BASE_H\n#include "mixed_types.h"\n'
                                           "constexpr int32_t kTaskRatio = 2;\n#endif\n", encoding="utf-8")
    src = tmp_path / "mixed_mm.cpp"
    src.write_text('#include "mixed_base.h"\n#include "mixed_types.h"\nextern "C"' + body, encoding="utf-8")
    return src


def test_sources_with_include_guards_and_system_headers_can_be_split(tmp_path: Path) -> None:
    src = tmp_path / "guarded.cpp"
    src.write_text(GUARDED, encoding="utf-8")
    assert can_split([src])
    once = tmp_path / "once.cpp"
    once.write_text("#pragma once\n" + KERNEL, encoding="utf-8")
    assert not can_split([once])
    assert can_split([_own_header_kernel(tmp_path)])
    (tmp_path / "mixed_types.h").write_text("#pragma once\n" + KERNEL.split('extern "C"', 1)[0], encoding="utf-8")
    assert not can_split([tmp_path / "mixed_mm.cpp"])  # a header included once only cannot be included again


@pytest.mark.parametrize("layout", ["plain", "guarded", "own_headers"])
def test_each_block_runs_two_vector_cores_with_their_own_block_index(write_manifest, tmp_path: Path,
                                                                     layout: str) -> None:
    if layout == "own_headers":
        src = _own_header_kernel(tmp_path)
    else:
        src = tmp_path / "mixed_mm.cpp"
        src.write_text(GUARDED if layout == "guarded" else KERNEL, encoding="utf-8")
    rng = np.random.default_rng(3)
    a = rng.integers(-3, 4, (M, K)).astype(np.float16)
    b = rng.integers(-3, 4, (K, N)).astype(np.float16)
    m = write_manifest(src, "mixed_mm", [
        {"name": "a", "input": a},
        {"name": "b", "input": b},
        {"name": "c", "output": "c.npy", "dtype": "float32", "shape": [M, N]},
        {"name": "z", "output": "z.npy", "dtype": "int32", "shape": [64]},
        {"name": "workspace", "workspace_bytes": 0},
    ], block_dim=BLOCKS)
    res = run_manifest(m, tmp_path / "out", confine=False)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings if f.severity is Severity.ERROR]
    c = np.load(res.outputs["c"])
    np.testing.assert_array_equal(c, a.astype(np.float32) @ b.astype(np.float32))
    z = np.load(res.outputs["z"]).reshape(16, 4)
    cores = 2 * BLOCKS
    assert z[:cores, 0].tolist() == list(range(cores))
    assert z[:cores, 1].tolist() == [i % 2 for i in range(cores)]
    assert z[:cores, 2].tolist() == [1] * cores  # only vector cores get past REGIST_MATMUL_OBJ
    assert z[:cores, 3].tolist() == [2] * cores
    assert not z[cores:].any()
