"""Host headers a kernel UT reaches after the kernel's own (tikicpulib.h first, as a UT that runs its operator's
TilingFunc compiles: ops-math stft, histogram_v2, non_finite_check): DT_* macros of the kernel side or of the UT's
tiling header do not break the host gert types, and include/opbase has metadef's names (graph/ge_error_codes.h, exe_graph/runtime/*.h) and
CANN 9's NpuArch."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

from .conftest import INCLUDE, needs_gxx

pytestmark = needs_gxx

SOURCE = """// a UT tiling header's own dtype names, given first with -include (ops-math stft_tiling.h)
#define DT_BF16 bfloat16_t
#include "tikicpulib.h"
#include "graph/ge_error_codes.h"
#include "platform/platform_ascendc.h"
#include "exe_graph/runtime/tensor.h"
#include "exe_graph/runtime/storage_shape.h"
#include "op_tiling_context_builder.h"
int main() {
    NpuArch arch = NpuArch::DAV_2201;
    gert::Tensor t(gert::StorageShape({4}, {4}), gert::StorageFormat(ge::FORMAT_ND, ge::FORMAT_ND), gert::kOnHost,
                   ge::DataType(27), nullptr);  // bf16
    return arch == NpuArch::DAV_2201 && gert::dtype_bytes(t.GetDataType()) == 2 && ge::GRAPH_SUCCESS == 0 ? 0 : 1;
}
"""


def test_host_headers_after_the_kernels_compile(tmp_path: Path) -> None:
    gxx = shutil.which("g++")
    assert gxx
    (tmp_path / "ut.cpp").write_text(SOURCE, encoding="utf-8")
    res = subprocess.run([gxx, "-std=c++20", "-fsyntax-only", "-DASCENDC_CPU_DEBUG", "-D__CCE_KT_TEST__=1",
                          "-D__NPU_ARCH__=2201", "-I", str(INCLUDE), "-I", str(INCLUDE.parent / "launcher"),
                          "-I", str(INCLUDE / "opbase"), "ut.cpp"], cwd=tmp_path, capture_output=True, text=True)
    assert res.returncode == 0, res.stderr[-3000:]
