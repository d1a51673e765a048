"""int4b_t (kernels/int4.cpp): the device library's 4-bit integer type exists, so a kernel whose other scenario's
branch names it builds and runs (asc-devkit's cast and mmad examples); making a tensor of it fails with
SIM-UNSUPPORTED at the line instead of computing on the wrong bytes (two elements per byte are not emulated yet)."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from akgen_lsp.sim import run_manifest

from .conftest import KERNELS, marker_line, needs_gxx

pytestmark = needs_gxx

SRC = KERNELS / "int4.cpp"


def run(write_manifest, tmp_path: Path, mode: int):
    m = write_manifest(SRC, "int4", [{"name": "y", "output": "y.npy", "dtype": "float32", "shape": [8]},
                                     {"name": "mode", "scalar": mode, "type": "int32_t"}])
    return run_manifest(m, tmp_path / f"out{mode}", confine=False)


def test_int4b_t_values_sign_extend_their_low_four_bits(write_manifest, tmp_path: Path) -> None:
    res = run(write_manifest, tmp_path, 0)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    np.testing.assert_array_equal(np.load(res.outputs["y"])[:4], [7, -7, -1, 1])


def test_a_tensor_of_int4b_t_is_unsupported_at_its_line(write_manifest, tmp_path: Path) -> None:
    res = run(write_manifest, tmp_path, 1)
    assert res.status == "runtime_error"
    f = next(f for f in res.findings if f.code == "SIM-UNSUPPORTED")
    assert "int4b_t" in f.message and f.span.line == marker_line(SRC, "SIM-UNSUPPORTED"), (f.span.line, f.message)
