"""Level-2 fidelity fixes. Host tiling of an absent optional input (akgen_lsp/sim/launcher/host_main.cpp, `absent NAME` spec lines): as CANN
builds the node, the optional IR input has no instance, so GetOptionalInputShape/Desc(ir) return nullptr and the
instance indices of GetInputShape(i) skip it (metadef's GetDynamicInputPointer: instance num 0). Uses
kernels/optional_op (inputs x, bias OPTIONAL, z). Kernels compile for the NPU's code path (no __CCE_KT_TEST__, host
launch wrappers made plain calls) and the math APIs report a dst that overlaps src (kernels/l2_fixes.cpp)."""

from __future__ import annotations

import struct
from pathlib import Path

import numpy as np

from akgen_lsp.ascendc.arch import load_arch
from akgen_lsp.findings import Severity
from akgen_lsp.sim import SimResult, run_manifest
from akgen_lsp.sim.host import run_host_tiling
from akgen_lsp.sim.shadow import blank_host_launches

from .conftest import KERNELS, marker_line, needs_gxx

pytestmark = needs_gxx

HOST = KERNELS / "optional_op" / "op_host" / "optional_op.cpp"


def tiling(absent: set[str]) -> tuple[int, tuple[int, int, int]]:
    ins = [("x", "float32", (16,)), ("bias", "float32", (8,)), ("z", "float32", (4,))]
    res = run_host_tiling(HOST, ins, [("y", "float32", (16,))], {}, load_arch("Ascend910B2"), op="OptionalOp",
                          absent=absent)
    assert res.ok, [f.message for f in res.findings]
    return res.tiling_key, struct.unpack_from("<3I", res.tiling, 0)


def test_present_optional_input_is_seen() -> None:
    key, (second, z, has_desc) = tiling(set())
    assert key == 2
    assert (second, z, has_desc) == (8, 4, 1)


def test_absent_optional_input_is_nullptr_and_shifts_instances() -> None:
    key, (second, z, has_desc) = tiling({"bias"})
    assert key == 1
    assert has_desc == 0
    assert second == 4  # instance 1 is z: the absent input has no instance
    assert z == 4  # the IR index still finds z


# ------------------------------------------------------------------- NPU code path (no __CCE_KT_TEST__), overlap

SRC = KERNELS / "l2_fixes.cpp"
N = 256


def run_kernel(write_manifest, tmp_path: Path, mode: int) -> tuple[SimResult, np.ndarray | None]:
    x = np.random.default_rng(3).uniform(-2, 2, N).astype(np.float16)
    m = write_manifest(SRC, "l2_fixes", [
        {"name": "x", "input": x},
        {"name": "y", "output": "y.npy", "dtype": "float16", "shape": [N]},
        {"name": "n", "scalar": N, "type": "int32_t"},
        {"name": "mode", "scalar": mode, "type": "int32_t"},
    ])
    res = run_manifest(m, tmp_path / "out", confine=False)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    return res, (np.load(res.outputs["y"]) if "y" in res.outputs else None)


def test_blank_host_launches_keeps_lines_and_comments() -> None:
    text = "void f(uint8_t* x) {\n    k<<<8, nullptr,\n stream>>>(x);  // a<<<1>>>(b)\n}\n"
    out = blank_host_launches(text)
    assert out is not None
    assert out.count("\n") == text.count("\n") and len(out) == len(text)
    assert "<<<" not in out.split("//")[0] and "k" in out and "(x);" in out
    assert "// a<<<1>>>(b)" in out  # a comment is left alone
    assert blank_host_launches("int a = b << 3;") is None


def test_kernel_runs_the_npu_code_path_and_the_host_wrapper_compiles(write_manifest, tmp_path: Path) -> None:
    res, y = run_kernel(write_manifest, tmp_path, mode=0)
    assert y is not None
    x = np.random.default_rng(3).uniform(-2, 2, N).astype(np.float16)
    want = (1.0 / (1.0 + np.exp(-x.astype(np.float32)))).astype(np.float16)
    np.testing.assert_allclose(y.astype(np.float32), want.astype(np.float32), atol=2e-3)  # the guarded DataCopy ran
    assert not [f for f in res.findings if f.code == "SIM-OVERLAP"]


def test_overlapping_sigmoid_is_reported(write_manifest, tmp_path: Path) -> None:
    res, _ = run_kernel(write_manifest, tmp_path, mode=1)
    hits = [f for f in res.findings if f.code == "SIM-OVERLAP"]
    assert hits and hits[0].severity is Severity.WARNING
    assert hits[0].span.line == marker_line(SRC, "SIM-OVERLAP")
    assert "128 elements after src" in hits[0].message
