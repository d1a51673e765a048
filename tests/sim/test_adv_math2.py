"""The Ascend-950-only math adv APIs (akgen_sim/adv_math_950.h): BitwiseAnd, Clamp, Fma, IsFinite, LogicalAnd, Rint and
Where are declared only with AKGEN_SIM_DECLARE_950_APIS (so a kernel's own class of the same name is not ambiguous);
then they compile with the library's signatures and, on the A2/A3 device the simulator models (where the CANN
library's body is empty and dst keeps its old values), fail with SIM-ARCH-API at the call. Their host size functions report
"Unsupported NpuArch" and leave the outputs alone, as the library's host assert does. AscendCUtils::SetOverflow: the
inf/nan mode is the simulator's own; the saturated mode is warned."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.sim import SimResult, run_manifest

from .conftest import KERNELS, needs_gxx, run_host_program

pytestmark = needs_gxx

SRC = KERNELS / "adv_math2.cpp"
APIS = ["BitwiseAnd", "Clamp", "Fma", "IsFinite", "LogicalAnd", "Rint", "Where"]


def line_of(marker: str) -> int:
    for i, line in enumerate(SRC.read_text(encoding="utf-8").splitlines(), 1):
        if line.rstrip().endswith(marker):
            return i
    raise AssertionError(marker)


def run(write_manifest, tmp_path: Path, mode: int) -> tuple[SimResult, np.ndarray]:
    x = np.linspace(-2, 2, 64, dtype=np.float32)
    m = write_manifest(SRC, "math950", [
        {"name": "src", "input": x},
        {"name": "dst", "output": "dst.npy", "dtype": "float32", "shape": [64]},
        {"name": "mode", "scalar": mode, "type": "int32_t"},
    ], defines={"AKGEN_SIM_DECLARE_950_APIS": "1"})
    return run_manifest(m, tmp_path / f"m{mode}", confine=False), x


@pytest.mark.parametrize("mode", range(len(APIS)))
def test_950_only_api_fails_at_the_call_on_a2_a3(write_manifest, tmp_path: Path, mode: int) -> None:
    res, _ = run(write_manifest, tmp_path, mode)
    hits = [f for f in res.findings if f.code == "SIM-ARCH-API"]
    assert hits, [(f.code, f.message) for f in res.findings]
    assert hits[0].span.line == line_of(f"EXPECT SIM-ARCH-API {mode}")
    assert APIS[mode] in hits[0].message and "Ascend 950" in hits[0].message
    assert res.status == "runtime_error"


def test_set_overflow_saturated_mode_is_warned_and_computation_goes_on(write_manifest, tmp_path: Path) -> None:
    res, x = run(write_manifest, tmp_path, 7)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    warned = [f for f in res.findings if f.code == "SIM-UNSUPPORTED"]
    assert len(warned) == 1 and warned[0].span.line == line_of("EXPECT SIM-UNSUPPORTED")
    np.testing.assert_array_equal(np.load(res.outputs["dst"]), x + np.float32(1))


HOST = r"""
#include <cstdio>
#include "tiling/tiling_api.h"
int main() {
    auto* plat = platform_ascendc::PlatformAscendCManager::GetInstance();
    ge::Shape s({128});
    uint32_t mx = 7, mn = 7, live = 7, extra = 7;
    AscendC::GetRintMaxMinTmpSize(*plat, s, 4, false, mx, mn);
    AscendC::GetFmaTmpBufferFactorSize(*plat, 4, live, extra);
    std::printf("a2 %u %u %u %u\n", mx, mn, live, extra);
    platform_ascendc::platform_profile().soc = platform_ascendc::SocVersion::ASCEND950;
    AscendC::GetWhereMaxMinTmpSize(*plat, s, 4, false, mx, mn);
    AscendC::GetLogicalAndTmpBufferFactorSize(*plat, 4, live, extra);
    std::printf("950 %u %u %u %u\n", mx, mn, live, extra);
}
"""


def test_host_sizes_report_the_unsupported_arch(tmp_path: Path) -> None:
    out = run_host_program(tmp_path, HOST, "h")
    assert out.stdout.splitlines() == ["a2 7 7 7 7", "950 0 0 0 0"]
    assert "[GetRintMaxMinTmpSize] Unsupported NpuArch of Rint API" in out.stderr
    assert "[GetFmaTmpBufferFactorSize] Unsupported NpuArch of Fma API" in out.stderr


OWN_CLASS = r"""
#include "kernel_operator.h"
using namespace AscendC;
namespace MyNs {
template <typename T> class IsFinite {
public:
    __aicore__ inline void Process(GM_ADDR dst) {
        GlobalTensor<T> g;
        g.SetGlobalBuffer((__gm__ T*)dst, 8);
        for (int i = 0; i < 8; ++i) g.SetValue(i, static_cast<T>(i));
    }
};
}  // namespace MyNs
using namespace MyNs;
extern "C" __global__ __aicore__ void own_is_finite(GM_ADDR dst)
{
    IsFinite<float> op;
    op.Process(dst);
}
"""


def test_a_kernels_own_class_named_like_a_950_api_compiles(write_manifest, tmp_path: Path) -> None:
    src = tmp_path / "own.cpp"
    src.write_text(OWN_CLASS, encoding="utf-8")
    m = write_manifest(src, "own_is_finite", [{"name": "dst", "output": "dst.npy", "dtype": "float32", "shape": [8]}])
    res = run_manifest(m, tmp_path / "own", confine=False)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    np.testing.assert_array_equal(np.load(res.outputs["dst"]), np.arange(8, dtype=np.float32))
