"""include/opbase's op_host/util/fp16.h: Ops::Base::fp16_t, the half that host tiling code of ops-math reads a
float16 const input as (lin_space, real, addr_v2), agrees with IEEE 754 half (numpy's float16) both ways."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from .conftest import needs_gxx, run_host_program

pytestmark = needs_gxx

VALUES = [0.0, 1.0, -2.5, 65504.0, 1e-7, 6.1e-5, 3.14159, 70000.0, 0.1, -0.0, 2049.0, 1.0009765625]

SOURCE = """#include <cstdio>
#include "opbase/op_host/util/fp16.h"
int main() {
    const float vals[] = {%s};
    for (float v : vals) {
        Ops::Base::fp16_t h(v);
        std::printf("%%u %%.9g\\n", static_cast<unsigned>(h.val), static_cast<float>(h));
    }
    Ops::Base::fp16_t a(1.5f), b(2.0f);
    std::printf("%%.9g %%d\\n", static_cast<float>(a * b), a < b ? 1 : 0);
}
"""


def test_fp16_t_rounds_and_reads_back_as_ieee_half(tmp_path: Path) -> None:
    src = SOURCE % ", ".join(f"{v!r}f" if "e" in repr(v) or "." in repr(v) else f"{v}.0f" for v in VALUES)
    out = run_host_program(tmp_path, src).stdout.split("\n")
    with np.errstate(over="ignore"):
        want = [np.float16(v) for v in VALUES]
    for line, w in zip(out, want, strict=False):
        bits, back = line.split()
        assert int(bits) == int(w.view(np.uint16)), (line, w)
        assert np.float32(back) == np.float32(w) or (np.isinf(w) and np.isinf(float(back)))
    assert out[len(VALUES)] == "3 1"
