"""Host tiling attributes by name (akgen_lsp/sim/launcher/host_main.cpp): a name that matches no OpDef attribute
exactly matches one that differs only in case and underscores, as a task's pybind (m_list) and its OpDef (mList) often
do (aclnn passes attributes by position). Uses kernels/scale_op (attributes alpha, plus_one)."""

from __future__ import annotations

import struct

from akgen_lsp.ascendc.arch import load_arch
from akgen_lsp.sim.host import run_host_tiling

from .conftest import KERNELS, needs_gxx

pytestmark = needs_gxx

HOST = KERNELS / "scale_op" / "op_host" / "scale.cpp"
SHAPE = (8, 512)


def tiling(attrs: dict[str, object]):
    res = run_host_tiling(HOST, [("x", "float32", SHAPE)], [("y", "float32", SHAPE)], attrs,
                          load_arch("Ascend910B2"), op="Scale")
    assert res.ok, [f.message for f in res.findings]
    return res


def test_exact_names_still_bind() -> None:
    res = tiling({"alpha": 2.5, "plus_one": True})
    assert res.tiling_key == 2
    assert struct.unpack_from("<f", res.tiling, 4)[0] == 2.5


def test_names_differing_in_case_and_underscores_bind() -> None:
    res = tiling({"Alpha": 3.0, "plusOne": True})
    assert res.tiling_key == 2
    assert struct.unpack_from("<f", res.tiling, 4)[0] == 3.0


def test_unknown_names_leave_the_defaults() -> None:
    res = tiling({"beta": 9.0, "plus_two": True})
    assert res.tiling_key == 1
    assert struct.unpack_from("<f", res.tiling, 4)[0] == 1.0
