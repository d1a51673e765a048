"""Tensor lists on the simulator: each element its own GM buffer, one descriptor argument in CANN's layout, list
outputs written back per element, malformed lists rejected with the field named, bounds checks per element."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.sim import run_manifest
from akgen_lsp.sim.manifest import ManifestError, parse_manifest
from akgen_lsp.sim.tensorlist import descriptor_words

from .conftest import KERNELS, marker_line, needs_gxx

KERNEL = KERNELS / "tensor_list.cpp"
SHAPES = [(5, 1), (3, 7), (2, 12)]  # ListTensorDesc assumes one rank for the whole list


def _manifest(tmp_path: Path, mode: int, shapes: list[tuple[int, ...]] = SHAPES) -> Path:
    rng = np.random.default_rng(7)
    xs = []
    for k, shape in enumerate(shapes):
        arr = rng.standard_normal(shape).astype(np.float32)
        np.save(tmp_path / f"x{k}.npy", arr)
        xs.append({"input": f"x{k}.npy"})
    ys = [{"output": f"y{k}.npy", "dtype": "float32", "shape": list(s)} for k, s in enumerate(shapes)]
    data = {"sources": [str(KERNEL)], "kernel": "tensor_list", "block_dim": 1, "args": [
        {"name": "x", "list": xs},
        {"name": "y", "list": ys},
        {"name": "shapes", "output": "shapes.npy", "dtype": "int64", "shape": [16]},
        {"name": "mode", "scalar": mode, "type": "int32_t"},
    ]}
    path = tmp_path / "manifest.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


@needs_gxx
def test_list_kernel_matches_numpy(tmp_path: Path) -> None:
    res = run_manifest(_manifest(tmp_path, 0), tmp_path / "out", confine=False)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    for k, shape in enumerate(SHAPES):
        x = np.load(tmp_path / f"x{k}.npy")
        y = np.load(res.outputs[f"y[{k}]"])
        assert y.shape == shape
        np.testing.assert_allclose(y, 2 * x + k, rtol=1e-6)
    shapes = np.load(res.outputs["shapes"])
    assert [int(shapes[4 * k]) for k in range(3)] == [len(s) for s in SHAPES]
    assert [int(shapes[4 * k + 1]) for k in range(3)] == [int(np.prod(s)) for s in SHAPES]


@needs_gxx
def test_out_of_bounds_read_of_one_element(tmp_path: Path) -> None:
    res = run_manifest(_manifest(tmp_path, 1), tmp_path / "out", confine=False)
    hits = [f for f in res.findings if f.code == "SIM-GM-OOB-READ"]
    assert hits, [(f.code, f.message) for f in res.findings]
    assert hits[0].span.line == marker_line(KERNEL, "SIM-GM-OOB-READ")
    assert "'x[1]'" in hits[0].message
    assert res.status == "runtime_error"


@needs_gxx
def test_mixed_ranks_warn_that_the_decoder_assumes_one_rank(tmp_path: Path) -> None:
    res = run_manifest(_manifest(tmp_path, 0, [(5,), (3, 7)]), tmp_path / "out", confine=False)
    assert any(f.code == "SIM-LIST-LAYOUT" for f in res.findings), [(f.code, f.message) for f in res.findings]


def test_descriptor_layout() -> None:
    words = descriptor_words([(4,), (2, 3)], [0x1000, 0x2000])
    # offset of the pointer array, (dim | index << 32) + dims per tensor, then the pointers
    assert words == [48, 1, 4, 2 | (1 << 32), 2, 3, 0x1000, 0x2000]


@pytest.mark.parametrize(("lst", "words"), [
    ([], "non-empty list"),
    ("x0.npy", "non-empty list"),
    ([{"scalar": 1}], "list[0]: each element of a tensor list is an input"),
    ([{"input": "x0.npy"}, {"output": "y.npy", "dtype": "float32", "shape": [2]}], "mixes inputs and outputs"),
    ([{"output": "y.npy", "dtype": "float32"}], "list[0].shape: an output needs a shape"),
    ([{"input": "x0.npy", "shap": [1]}], "unknown field 'shap'"),
])
def test_malformed_list_is_a_clear_error(tmp_path: Path, lst: object, words: str) -> None:
    np.save(tmp_path / "x0.npy", np.zeros(4, np.float32))
    src = tmp_path / "k.cpp"
    src.write_text("// empty\n", encoding="utf-8")
    data = {"sources": [str(src)], "kernel": "k", "args": [{"name": "y", "list": lst}]}
    with pytest.raises(ManifestError) as exc:
        parse_manifest(data, tmp_path)
    assert "args[0] (y)" in str(exc.value)
    assert words in str(exc.value)


def test_list_elements_in_host_io_and_flat_args(tmp_path: Path) -> None:
    for k in range(2):
        np.save(tmp_path / f"x{k}.npy", np.zeros((k + 1, 4), np.float16))
    src = tmp_path / "k.cpp"
    src.write_text("// empty\n", encoding="utf-8")
    m = parse_manifest({"sources": [str(src)], "kernel": "k", "args": [
        {"name": "x", "list": [{"input": "x0.npy"}, {"input": "x1.npy"}]},
        {"name": "y", "list": [{"output": "y0.npy", "dtype": "float16", "shape": [1, 4]}]}]}, tmp_path)
    ins, outs = m.host_io()
    assert ins == [("x", "float16", (1, 4)), ("x", "float16", (2, 4))]
    assert outs == [("y", "float16", (1, 4))]
    assert [a.name for a in m.flat_args()] == ["x[0]", "x[1]", "y[0]"]
    assert m.defines["DTYPE_X"] == "half"
    assert m.signature()[0]["kind"] == "gm_list"
