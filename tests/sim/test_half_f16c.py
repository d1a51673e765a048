"""half <-> float through the F16C instructions (types.h, built with -mf16c where the CPU has them) gives the same
bits as the simulator's own bit code: every half, and floats spread over every exponent (subnormals, the rounding
boundaries, overflow, infinities, NaNs)."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from akgen_lsp.sim.compiler import HOST_FLAGS, INCLUDE_DIR

from .conftest import needs_gxx

pytestmark = needs_gxx

PROGRAM = r"""
#include "akgen_sim/types.h"
#include <cstdio>
int main() {
    for (uint32_t x = 0; x < 65536; ++x) {
        volatile uint16_t v = static_cast<uint16_t>(x);
        std::printf("%08x\n", akgen_sim::f32_bits(akgen_sim::f16_to_f32(v)));
    }
    for (uint64_t u = 0; u < (1ull << 32); u += 16411) {  // every exponent, many mantissas of each
        for (uint32_t d = 0; d < 3; ++d) {  // and the neighbours of each
            volatile float f = akgen_sim::f32_from(static_cast<uint32_t>(u + d));
            std::printf("%04x\n", akgen_sim::f32_to_f16(f));
        }
    }
}
"""


@pytest.mark.skipif("-mf16c" not in HOST_FLAGS, reason="this CPU has no F16C instructions: only the bit code runs")
def test_f16c_conversions_are_the_bit_codes(tmp_path: Path) -> None:
    src = tmp_path / "conv.cpp"
    src.write_text(PROGRAM, encoding="utf-8")
    outs = []
    for flags in ([], ["-mf16c"]):
        exe = tmp_path / f"conv{len(flags)}"
        subprocess.run(["g++", "-std=c++20", "-O1", *flags, "-I", str(INCLUDE_DIR), str(src), "-o", str(exe)],
                       check=True, timeout=120)
        outs.append(subprocess.run([str(exe)], check=True, capture_output=True, text=True, timeout=120).stdout)
    assert len(outs[0].splitlines()) > 65536 + 700_000
    assert outs[0] == outs[1]
