"""cxx_text.active_text: the #if branches the compile's -D macros rule out are blanked before the build reads the
kernels' kinds (asc-devkit's matmul_ibshareB defines ASCENDC_CUBE_ONLY only under `#if SCENARIO_NUM == 2`; read
undecided, its scenario-1 MIX kernel ran as one cube-only pass and left half of C unwritten)."""

from __future__ import annotations

from pathlib import Path

from akgen_lsp.sim.cxx_text import active_text
from akgen_lsp.sim.program import flag_defines, shadow_program
from akgen_lsp.sim.program_units import KIND_AIC, KIND_MIX, kernel_kinds

SRC = """\
#if SCENARIO_NUM == 2
#define ASCENDC_CUBE_ONLY
#endif
#if defined(__NPU_ARCH__) && (__NPU_ARCH__ == 3510)
a3510
#elif defined(__NPU_ARCH__) && __NPU_ARCH__ == 2201 && !(SCENARIO_NUM > 1)
a2201
#else
other
#endif
#ifdef FROM_SOURCE
kept1
#else
kept2
#endif
#if UNKNOWN_MACRO || 1
kept3
#endif
"""


def test_branches_decided_by_the_given_macros_are_blanked() -> None:
    out = active_text(SRC, {"SCENARIO_NUM": "1", "__NPU_ARCH__": "2201"})
    assert out.count("\n") == SRC.count("\n")  # lines kept
    assert "ASCENDC_CUBE_ONLY" not in out and "a3510" not in out and "other" not in out and "a2201" in out
    # a macro not given may be defined by the source: every branch of its condition stays
    assert "kept1" in out and "kept2" in out and "kept3" in out
    out2 = active_text(SRC, {"SCENARIO_NUM": "2", "__NPU_ARCH__": "3510"})
    assert "ASCENDC_CUBE_ONLY" in out2 and "a3510" in out2 and "a2201" not in out2


def test_flag_defines_and_the_kernel_kind_of_a_scenario() -> None:
    assert flag_defines(["-DA", "-DB=2", "-O2", "-DC="]) == {"A": "1", "B": "2", "C": ""}
    kernel = """\
#if SCENARIO_NUM == 2
#define ASCENDC_CUBE_ONLY
#endif
#include "lib/matmul_intf.h"
extern "C" __global__ __aicore__ void k(GM_ADDR a) {
    AscendC::TPipe pipe;
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
}
int main() { return 0; }
"""
    mix = shadow_program(Path("k.asc"), kernel, macros={"SCENARIO_NUM": "1"})[0]
    cube_only = shadow_program(Path("k.asc"), kernel, macros={"SCENARIO_NUM": "2"})[0]
    assert "CoreTypeVar g_coreType" in mix  # a MIX kernel: the running fiber's core type
    assert "CoreTypeVar g_coreType" not in cube_only


def test_a_kernel_body_after_preprocessor_lines_is_a_definition() -> None:
    text = """\
#if SCENARIO_NUM == 2
extern "C" __global__ __cube__ void k(GM_ADDR a)
#else
extern "C" __global__ __aicore__ void k(GM_ADDR a)
#endif
{
    REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tiling);
}
"""
    assert kernel_kinds(active_text(text, {"SCENARIO_NUM": "1"})) == {"k": KIND_MIX}
    assert kernel_kinds(active_text(text, {"SCENARIO_NUM": "2"})) == {"k": KIND_AIC}
