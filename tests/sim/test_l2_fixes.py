"""Host tiling of an absent optional input (akgen_lsp/sim/launcher/host_main.cpp, `absent NAME` spec lines): as CANN
builds the node, the optional IR input has no instance, so GetOptionalInputShape/Desc(ir) return nullptr and the
instance indices of GetInputShape(i) skip it (metadef's GetDynamicInputPointer: instance num 0). Uses
kernels/optional_op (inputs x, bias OPTIONAL, z)."""

from __future__ import annotations

import struct

from akgen_lsp.ascendc.arch import load_arch
from akgen_lsp.sim.host import run_host_tiling

from .conftest import KERNELS, needs_gxx

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
