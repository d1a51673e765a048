"""GET_TPL_TILING_KEY on the kernel side of a kernel UT (CANN's CPU debug, __CCE_KT_TEST__): a test that includes the
kernel first still encodes tiling keys from the kernel's ASCENDC_TPL_ARGS_DECL, as on the host (16 ops-nn kernel UTs
call `ICPU_SET_TILING_KEY(GET_TPL_TILING_KEY(...))` so); a kernel build without it keeps the declarations empty."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from akgen_lsp.sim import run_manifest

from .conftest import needs_gxx

pytestmark = needs_gxx

KERNEL = """
#include "kernel_operator.h"
#include "ascendc/host_api/tiling/template_argument.h"
namespace KeyNs {
ASCENDC_TPL_ARGS_DECL(KeyOp,
    ASCENDC_TPL_DTYPE_DECL(D_T_X, C_DT_FLOAT, C_DT_FLOAT16),
    ASCENDC_TPL_UINT_DECL(MODE, ASCENDC_TPL_4_BW, ASCENDC_TPL_UI_LIST, 1, 3, 5),
    ASCENDC_TPL_BOOL_DECL(FLAG, 0, 1), );
}
using namespace KeyNs;
using namespace AscendC;
extern "C" __global__ __aicore__ void tplkey(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GlobalTensor<int64_t> yGm;
    yGm.SetGlobalBuffer((__gm__ int64_t*)y, 2);
#ifdef __CCE_KT_TEST__
    yGm.SetValue(0, static_cast<int64_t>(GET_TPL_TILING_KEY(C_DT_FLOAT16, 3, 1)));
    yGm.SetValue(1, static_cast<int64_t>(GET_TPL_TILING_KEY(C_DT_FLOAT, 5, 0)));
#else
    yGm.SetValue(0, -1);
    yGm.SetValue(1, -1);
#endif
}
"""


def _run(write_manifest, tmp_path: Path, defines: dict[str, str]) -> np.ndarray:
    src = tmp_path / "tplkey.cpp"
    src.write_text(KERNEL, encoding="utf-8")
    m = write_manifest(src, "tplkey", [
        {"name": "y", "output": "y.npy", "dtype": "int64", "shape": [2]},
        {"name": "workspace", "workspace_bytes": 0}, {"name": "tiling", "tiling": {"fields": {}}}], defines=defines)
    res = run_manifest(m, tmp_path / "out")
    assert res.status == "ok", [f.message for f in res.findings]
    return np.load(res.outputs["y"])


def test_a_kernel_ut_encodes_template_keys(write_manifest, tmp_path: Path) -> None:
    y = _run(write_manifest, tmp_path, {"__CCE_KT_TEST__": "1"})
    # codes side by side from bit 0: the dtype's value (8 bits), MODE's index in its list (4 bits), FLAG (1 bit)
    c_dt_float16, c_dt_float = 1, 0
    assert list(y) == [c_dt_float16 | 1 << 8 | 1 << 12, c_dt_float | 2 << 8]


def test_a_kernel_build_keeps_the_declarations_empty(write_manifest, tmp_path: Path) -> None:
    assert list(_run(write_manifest, tmp_path, {})) == [-1, -1]
