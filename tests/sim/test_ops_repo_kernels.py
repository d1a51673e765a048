"""Kernels written as CANN's operator repositories (ops-math, ops-nn) write them compile and run unchanged: the tiling
struct registered in the kernel (REGISTER_TILING_DEFAULT), the tiling-key templates (template_argument.h,
graph/c_types.h, ASCENDC_TPL_*) with a template kernel entry that the manifest names with its arguments
(`scale_tpl<1>`), and a bad kernel name stays a SIM-MANIFEST error naming the field. The fixtures are our own small
kernels in the repositories' layout (op_kernel/<op>.cpp, <op>_tiling_data.h, <op>_tiling_key.h)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.sim import run_manifest

from .conftest import build_host_program, needs_gxx

TILING_DATA = """#pragma once
#include <cstdint>
struct ScaleTplTilingData {
    uint32_t n;
    float factor;
};
"""

TILING_KEY = """#pragma once
#include "ascendc/host_api/tiling/template_argument.h"
#define SCALE_TPL_MODE_0 0
#define SCALE_TPL_MODE_1 1
ASCENDC_TPL_ARGS_DECL(ScaleTpl,
    ASCENDC_TPL_UINT_DECL(mode, ASCENDC_TPL_1_BW, ASCENDC_TPL_UI_LIST, SCALE_TPL_MODE_0, SCALE_TPL_MODE_1),
    ASCENDC_TPL_DATATYPE_DECL(D_T_X, C_DT_FLOAT, C_DT_FLOAT16, ASCENDC_TPL_INPUT(0)));
ASCENDC_TPL_SEL(ASCENDC_TPL_ARGS_SEL(
    ASCENDC_TPL_KERNEL_TYPE_SEL(ASCENDC_TPL_AIV_ONLY),
    ASCENDC_TPL_UINT_SEL(mode, ASCENDC_TPL_UI_LIST, SCALE_TPL_MODE_0, SCALE_TPL_MODE_1),
    ASCENDC_TPL_DATATYPE_SEL(D_T_X, C_DT_FLOAT)));
"""

KERNEL = """
#include "kernel_operator.h"
#include "scale_tpl_tiling_data.h"
#include "scale_tpl_tiling_key.h"
using namespace AscendC;

template <uint32_t mode, int dt>
__global__ __aicore__ void scale_tpl(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(ScaleTplTilingData);
    GET_TILING_DATA(t, tiling);
    using T = typename TypeFromId<dt>::type;
    GlobalTensor<T> xGm, yGm;
    xGm.SetGlobalBuffer((__gm__ T*)x, t.n);
    yGm.SetGlobalBuffer((__gm__ T*)y, t.n);
    for (uint32_t i = 0; i < t.n; ++i) {
        T v = xGm.GetValue(i);
        yGm.SetValue(i, mode == SCALE_TPL_MODE_1 ? static_cast<T>(v * t.factor) : v);
    }
}
"""


def _case(tmp: Path, kernel: str, source: str = KERNEL) -> Path:
    op = tmp / "math" / "scale_tpl" / "op_kernel"
    op.mkdir(parents=True)
    (op / "scale_tpl.cpp").write_text(source, encoding="utf-8")
    (op / "scale_tpl_tiling_data.h").write_text(TILING_DATA, encoding="utf-8")
    (op / "scale_tpl_tiling_key.h").write_text(TILING_KEY, encoding="utf-8")
    case = tmp
    np.save(case / "x.npy", np.arange(16, dtype=np.float32))
    manifest = {
        "sources": ["math/scale_tpl/op_kernel/scale_tpl.cpp"], "kernel": kernel, "block_dim": 1,
        "args": [{"name": "x", "input": "x.npy"},
                 {"name": "y", "output": "y.npy", "dtype": "float32", "shape": [16]},
                 {"name": "workspace", "workspace_bytes": 0},
                 {"name": "tiling", "tiling": {"struct": "ScaleTplTilingData",
                                               "fields": {"n": 16, "factor": 2.5}}}],
    }
    (case / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    return case / "manifest.json"


@needs_gxx
def test_a_template_entry_with_a_registered_tiling_struct_runs(tmp_path: Path) -> None:
    res = run_manifest(_case(tmp_path, "scale_tpl<SCALE_TPL_MODE_1, C_DT_FLOAT>"), tmp_path / "out")
    assert res.status == "ok", [f.message for f in res.findings]
    y = np.load(res.outputs["y"])
    np.testing.assert_array_equal(y, np.arange(16, dtype=np.float32) * 2.5)


@needs_gxx
def test_get_tiling_data_without_a_known_struct_says_what_to_do(tmp_path: Path) -> None:
    source = KERNEL.replace("    REGISTER_TILING_DEFAULT(ScaleTplTilingData);\n", "")
    path = _case(tmp_path, "scale_tpl<0, C_DT_FLOAT>", source)
    data = json.loads(path.read_text())
    data["args"][3]["tiling"] = {"fields": {}}
    path.write_text(json.dumps(data))
    res = run_manifest(path, tmp_path / "out")
    assert res.status == "compile_error"
    assert any("REGISTER_TILING_DEFAULT" in f.message for f in res.findings), [f.message for f in res.findings]


@pytest.mark.parametrize("name", ["acos<float", "k>", "k; system", "k<float>>", "a b"])
def test_a_bad_kernel_name_is_a_manifest_error_naming_the_field(tmp_path: Path, name: str) -> None:
    res = run_manifest(_case(tmp_path, name), tmp_path / "out")
    assert res.findings[0].code == "SIM-MANIFEST"
    assert "manifest.kernel" in res.findings[0].message


@needs_gxx
def test_the_host_encodes_the_tiling_key_as_documented(tmp_path: Path) -> None:
    (tmp_path / "scale_tpl_tiling_key.h").write_text(TILING_KEY, encoding="utf-8")
    source = """#include <cstdio>
#include "scale_tpl_tiling_key.h"
ASCENDC_TPL_ARGS_DECL(Other);
int main() {
    // mode: the index of its value among {0, 1} in 1 bit; D_T_X: the data type's number in the next 8 bits
    std::printf("%llu %llu\\n", (unsigned long long)GET_TPL_TILING_KEY(SCALE_TPL_MODE_1, C_DT_FLOAT16),
                (unsigned long long)GET_TPL_TILING_KEY(SCALE_TPL_MODE_0, C_DT_FLOAT));
    return 0;
}
""".replace("ASCENDC_TPL_ARGS_DECL(Other);\n", "")
    exe = build_host_program(tmp_path, source)
    import subprocess
    out = subprocess.run([str(exe)], capture_output=True, text=True, check=True).stdout.split()
    assert out == [str(1 | (1 << 1)), "0"]


HOST_TILING_H = """#pragma once
#include "register/tilingdata_base.h"
#include "log/not_in_the_kernel_build.h"
#include "util/neither.h"
namespace optiling {
constexpr uint32_t SCALE_LANES = 16;
BEGIN_TILING_DATA_DEF(ScaleHostTilingData)
TILING_DATA_FIELD_DEF(uint32_t, n);
TILING_DATA_FIELD_DEF(float, factor);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(ScaleTpl, ScaleHostTilingData)
inline bool HostOnlyHelper() { return NotDeclaredInTheKernelBuild(); }
}  // namespace optiling
"""


@needs_gxx
def test_an_op_host_header_the_kernel_build_cannot_compile_gives_its_tiling_data(tmp_path: Path) -> None:
    source = KERNEL.replace("    REGISTER_TILING_DEFAULT(ScaleTplTilingData);\n", "").replace(
        '#include "scale_tpl_tiling_data.h"\n', "")
    path = _case(tmp_path, "scale_tpl<SCALE_TPL_MODE_1, C_DT_FLOAT>", source)
    host = tmp_path / "math" / "scale_tpl" / "op_host"
    host.mkdir()
    (host / "scale_tpl_tiling.h").write_text(HOST_TILING_H, encoding="utf-8")
    data = json.loads(path.read_text())
    data["args"][3]["tiling"] = {"header": "math/scale_tpl/op_host/scale_tpl_tiling.h",
                                 "fields": {"n": 16, "factor": 0.5}}
    path.write_text(json.dumps(data))
    res = run_manifest(path, tmp_path / "out")
    assert res.status == "ok", [f.message for f in res.findings]
    np.testing.assert_array_equal(np.load(res.outputs["y"]), np.arange(16, dtype=np.float32) * 0.5)


INIT_KERNEL = """
#include "kernel_operator_intf.h"
#include "basic_api/kernel_common.h"
#include "utils/init_global_memory.h"
#include "kernel_type.h"
#include "kernel_tpipe.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void init_gm(GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    GlobalTensor<float> yGm;
    yGm.SetGlobalBuffer((__gm__ float*)y, 16);
    InitGlobalMemory(yGm, 16, 0.0f);
    InitGlobalMemory(yGm, 8, static_cast<float>(3));
}
"""


@needs_gxx
def test_basic_api_include_names_and_init_global_memory(tmp_path: Path) -> None:
    (tmp_path / "init_gm.cpp").write_text(INIT_KERNEL, encoding="utf-8")
    manifest = {"sources": ["init_gm.cpp"], "kernel": "init_gm",
                "args": [{"name": "y", "output": "y.npy", "dtype": "float32", "shape": [16]},
                         {"name": "workspace", "workspace_bytes": 0}, {"name": "tiling", "tiling": {"fields": {}}}]}
    (tmp_path / "manifest.json").write_text(json.dumps(manifest), encoding="utf-8")
    res = run_manifest(tmp_path / "manifest.json", tmp_path / "out")
    assert res.status == "ok", [f.message for f in res.findings]
    assert np.load(res.outputs["y"]).tolist() == [3.0] * 8 + [0.0] * 8
