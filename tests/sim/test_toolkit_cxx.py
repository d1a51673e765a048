"""akgen-cxx (sim/toolkit_cxx.py), the compiler of the toolkit's CMake builds: what a compile command becomes."""

from __future__ import annotations

from pathlib import Path

from akgen_lsp.sim.compiler import OPT_FLAGS
from akgen_lsp.sim.toolkit_cxx import compile_args

KERNEL = """#include "kernel_operator.h"
extern "C" __global__ __aicore__ void k(GM_ADDR x) { (void)x; }
"""


def test_a_debug_build_compiles_with_the_simulators_optimisation_and_an_own_level_wins(tmp_path: Path) -> None:
    # CMake's Debug build (what samples' run.sh builds) passes -g alone: the kernel's C++, the simulator's inner
    # loop, would run at -O0 (the A/B-share sample's 20000 Matmul launches 2.4x slower)
    src = tmp_path / "k.cpp"
    src.write_text(KERNEL)
    args, unit = compile_args(["-g", "-fPIC", "-c", str(src), "-o", str(tmp_path / "k.o")], asc=False)
    assert unit is not None and unit.is_file()
    assert args[1:1 + len(OPT_FLAGS)] == list(OPT_FLAGS) and "-Og" in OPT_FLAGS
    # a level the sample asks for comes after ours, so g++ takes it (the last -O wins)
    args, _ = compile_args(["-O0", "-c", str(src), "-o", str(tmp_path / "k2.o")], asc=False)
    assert args.index("-O0") > args.index("-Og")
