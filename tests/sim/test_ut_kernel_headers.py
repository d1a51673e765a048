"""What kernel UTs of CANN's operator repositories define that our kernel headers must leave room for: a UT build
with -DK_MAX_SHAPE_DIM=0 (ops-math accumulate_nv2, real, rsqrt: ShapeInfo's arrays are then empty), and a CPU-debug
build (__CCE_KT_TEST__) whose test defines its own scalar `min` / `max` (ops-math not_equal: CANN's CPU debug has no
such builtins, so ours are not declared there either)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from akgen_lsp.sim import run_manifest

from .conftest import needs_gxx

pytestmark = needs_gxx

KERNEL = """
#include "kernel_operator.h"
using namespace AscendC;
#ifdef __CCE_KT_TEST__
constexpr int32_t min(int32_t a, int32_t b) { return a < b ? a : b; }  // the UT's own, as ops-math not_equal's
constexpr int32_t max(int32_t a, int32_t b) { return a < b ? b : a; }
#endif
extern "C" __global__ __aicore__ void hdr(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GlobalTensor<int32_t> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ int32_t*)x, 8);
    yGm.SetGlobalBuffer((__gm__ int32_t*)y, 8);
    ShapeInfo info;
    for (int i = 0; i < 8; ++i) {
        int32_t v = xGm.GetValue(i);
        yGm.SetValue(i, max(min(v, 3), -2) + static_cast<int32_t>(sizeof(info.shape) / sizeof(uint32_t)));
    }
}
"""


def _run(write_manifest, tmp_path: Path, defines: dict[str, str]) -> np.ndarray:
    src = tmp_path / "hdr.cpp"
    src.write_text(KERNEL, encoding="utf-8")
    x = np.arange(-4, 4, dtype=np.int32)
    m = write_manifest(src, "hdr", [
        {"name": "x", "input": x}, {"name": "y", "output": "y.npy", "dtype": "int32", "shape": [8]},
        {"name": "workspace", "workspace_bytes": 0}, {"name": "tiling", "tiling": {"fields": {}}}], defines=defines)
    res = run_manifest(m, tmp_path / "out")
    assert res.status == "ok", [f.message for f in res.findings]
    return np.load(res.outputs["y"])


def test_a_ut_build_with_its_own_min_max_and_no_shape_dims(write_manifest, tmp_path: Path) -> None:
    x = np.arange(-4, 4, dtype=np.int32)
    # AKGEN_UT_OWN_MINMAX: what the UT build (toolkit_files/op_ut.cmake) defines for a UT that declares its own
    y = _run(write_manifest, tmp_path, {"__CCE_KT_TEST__": "1", "AKGEN_UT_OWN_MINMAX": "1", "K_MAX_SHAPE_DIM": "0"})
    np.testing.assert_array_equal(y, np.clip(x, -2, 3))  # no shape dims: sizeof(shape) is 0


def test_the_kernel_build_keeps_the_builtin_min_max(write_manifest, tmp_path: Path) -> None:
    x = np.arange(-4, 4, dtype=np.int32)
    y = _run(write_manifest, tmp_path, {})
    np.testing.assert_array_equal(y, np.clip(x, -2, 3) + 8)  # bisheng's min/max; K_MAX_SHAPE_DIM 8
