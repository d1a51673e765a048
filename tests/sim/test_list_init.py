"""A ref tensor list (an OpDef dynamic output named like a dynamic input: ScatterList's var): its elements start with
the input list's values (manifest list element "init") and, as CANN's aclnn passes one tensor list for both, the
kernel gets the input list's buffers again for the output (launcher ``arg ref``): what it writes through either
parameter is read back as the output; the rest of each element keeps its input values."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.findings import Severity
from akgen_lsp.sim import run_manifest
from akgen_lsp.sim.manifest import Arg
from akgen_lsp.sim.runner import ref_targets

from .conftest import KERNELS, needs_gxx

SRC = KERNELS / "ref_list.cpp"
N = 3


def _args(tmp_path: Path, through: int, init: bool = True) -> tuple[list[dict], list[np.ndarray], np.ndarray]:
    rng = np.random.default_rng(3)
    var = [rng.standard_normal((4, 16)).astype(np.float32) for _ in range(N)]
    upd = np.arange(8, dtype=np.float32) + 100
    elems, outs = [], []
    for k, v in enumerate(var):
        np.save(tmp_path / f"var.{k}.npy", v)
        elems.append({"input": f"var.{k}.npy", "dtype": "float32"})
        o = {"output": f"varOut.{k}.npy", "dtype": "float32", "shape": [4, 16]}
        if init:
            o["init"] = str(tmp_path / f"var.{k}.npy")
        outs.append(o)
    args = [{"name": "var", "list": elems}, {"name": "upd", "input": upd}, {"name": "varOut", "list": outs},
            {"name": "through", "scalar": through, "type": "int32_t"}]
    return args, var, upd


def _want(var: list[np.ndarray], upd: np.ndarray) -> list[np.ndarray]:
    out = []
    for k, v in enumerate(var):
        w = v.copy().reshape(-1)
        w[8 * (k + 1):8 * (k + 2)] = upd
        out.append(w.reshape(v.shape))
    return out


@needs_gxx
@pytest.mark.parametrize("through", [0, 1], ids=["writes-through-var", "writes-through-varOut"])
def test_a_ref_list_is_read_back_with_its_input_values_where_not_written(write_manifest, tmp_path: Path,
                                                                         through: int) -> None:
    args, var, upd = _args(tmp_path, through)
    res = run_manifest(write_manifest(SRC, "ref_list", args), tmp_path / "out", confine=False)
    assert res.status == "ok", [f.message for f in res.findings if f.severity is Severity.ERROR]
    for k, want in enumerate(_want(var, upd)):
        np.testing.assert_array_equal(np.load(res.outputs[f"varOut[{k}]"]), want)
        np.testing.assert_array_equal(np.load(tmp_path / f"var.{k}.npy"), var[k])  # the input file stays as it was
    assert not any(n.startswith("var[") for n in res.outputs)  # only the output list is read back


@needs_gxx
def test_without_init_the_output_list_has_buffers_of_its_own(write_manifest, tmp_path: Path) -> None:
    # no "init": not a ref; the kernel writing through var leaves the (zeroed) output list untouched
    args, _var, _ = _args(tmp_path, 0, init=False)
    res = run_manifest(write_manifest(SRC, "ref_list", args), tmp_path / "out", confine=False)
    assert res.status == "ok", [f.message for f in res.findings if f.severity is Severity.ERROR]
    for k in range(N):
        np.testing.assert_array_equal(np.load(res.outputs[f"varOut[{k}]"]), np.zeros((4, 16), np.float32))


def _gm(name: str, kind: str, value: str | None = None, init: str | None = None, nbytes: int = 64) -> Arg:
    return Arg(name=name, kind=kind, value=Path(value) if value else None, init=Path(init) if init else None,
               nbytes=nbytes, dtype="float32")


def test_ref_targets_pairs_an_output_with_the_earlier_input_of_its_init(tmp_path: Path) -> None:
    a, b = str(tmp_path / "a.npy"), str(tmp_path / "b.npy")
    args = [_gm("a", "gm_in", a), _gm("b", "gm_in", b), _gm("y", "gm_out", init=b), _gm("z", "gm_out")]
    assert ref_targets(args) == {"y": "b"}
    # another size, or an init that is no earlier input: a buffer of its own
    assert ref_targets([_gm("b", "gm_in", b, nbytes=32), _gm("y", "gm_out", init=b)]) == {}
    assert ref_targets([_gm("y", "gm_out", init=b), _gm("b", "gm_in", b)]) == {}


def test_ref_targets_pairs_lists_element_by_element(tmp_path: Path) -> None:
    p = [str(tmp_path / f"v{k}.npy") for k in range(2)]
    ins = Arg(name="var", kind="gm_list", items=tuple(_gm(f"var[{k}]", "gm_in", p[k]) for k in range(2)))
    outs = Arg(name="varOut", kind="gm_list", items=tuple(_gm(f"varOut[{k}]", "gm_out", init=p[k]) for k in range(2)))
    assert ref_targets([ins, outs]) == {"varOut": "var"}
    swapped = Arg(name="varOut", kind="gm_list", items=tuple(_gm(f"varOut[{k}]", "gm_out", init=p[1 - k])
                                                              for k in range(2)))
    assert ref_targets([ins, swapped]) == {}
