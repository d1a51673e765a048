"""An integer division by zero in a kernel's scalar code (kernels/div_zero.cpp): the NPU's scalar unit does not trap
(catlass kernels divide by a zero tile count for a next block that does not exist and never use the result), so the
launcher steps over x86's faulting div/idiv with 0 and warns at the last API call, instead of reporting a crash."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from akgen_lsp.findings import Severity
from akgen_lsp.sim import run_manifest

from .conftest import KERNELS, marker_line, needs_gxx

pytestmark = needs_gxx

SRC = KERNELS / "div_zero.cpp"
N = 64


def run(write_manifest, tmp_path: Path, d: int, kernel: str = "div_zero"):
    x = np.arange(N, dtype=np.float32)
    m = write_manifest(SRC, kernel, [
        {"name": "x", "input": x},
        {"name": "y", "output": "y.npy", "dtype": "float32", "shape": [N]},
        {"name": "n", "scalar": N, "type": "uint32_t"},
        {"name": "d", "scalar": d, "type": "uint32_t"},
    ])
    return x, run_manifest(m, tmp_path / "out", confine=False)


def test_division_by_zero_goes_on_with_a_warning(write_manifest, tmp_path: Path) -> None:
    x, res = run(write_manifest, tmp_path, d=0)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    warn = [f for f in res.findings if f.code == "SIM-DIV-ZERO"]
    assert len(warn) == 1 and warn[0].severity is Severity.WARNING
    assert warn[0].span.line == marker_line(SRC, "SIM-DIV-ZERO")
    np.testing.assert_array_equal(np.load(res.outputs["y"]), x)  # quotient and remainder 0


def test_a_nonzero_divisor_is_untouched(write_manifest, tmp_path: Path) -> None:
    x, res = run(write_manifest, tmp_path, d=5)
    assert res.status == "ok"
    assert not [f for f in res.findings if f.code == "SIM-DIV-ZERO"]
    np.testing.assert_array_equal(np.load(res.outputs["y"]), x + (N // 5 + N % 5))


def test_the_warning_of_a_long_named_function_is_one_record(write_manifest, tmp_path: Path) -> None:
    """The last API call was made in a function whose name is thousands of characters long (catlass kernels): the
    record was cut at its buffer's end without its newline, the next record ran into it, and the whole run was
    untrusted (SIM-UNTRUSTED-EVENTS: NPUKernelBench's level-3 Gemm, GroupGemm, OptimizedMatmul)."""
    x, res = run(write_manifest, tmp_path, d=0, kernel="div_zero_long")
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    assert not [f for f in res.findings if f.code == "SIM-UNTRUSTED-EVENTS"]
    warn = [f for f in res.findings if f.code == "SIM-DIV-ZERO"]
    line = next(i for i, t in enumerate(SRC.read_text().splitlines(), 1) if "long-named call" in t)
    assert len(warn) == 1 and warn[0].span.line == line
    np.testing.assert_array_equal(np.load(res.outputs["y"]), x)
