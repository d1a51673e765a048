"""Binding of outputs the task's pybind does not return (akgen_lsp/bench/pipeline.py `_scratch`,
`_size_by_infershape`) and of a returned vector that an if/else on a bool parameter fills (signature.py
`PybindCall.branches`): AddLayerNorm's `if (additionalOut) result = {xOut, yOut}; else result = {yOut};`, its mean
and rstd sized by the op's own InferShape, (rows, 1)."""

from __future__ import annotations

import shutil
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from akgen_lsp.bench.compare import Tolerance
from akgen_lsp.bench.pipeline import _bind, _Prepared, _size_by_infershape
from akgen_lsp.bench.reference import CaseData, Tensor
from akgen_lsp.bench.signature import parse_pybind
from akgen_lsp.bench.tasks import Case

PYBIND = """
std::vector<at::Tensor> custom_pybind_api(at::Tensor x1, at::Tensor x2, at::Tensor gamma, float epsilon,
                                          bool additionalOut)
{
    std::vector<int64_t> meanOutShape(x1.sizes().begin(), x1.sizes().end());
    meanOutShape[meanOutShape.size() - 1] = 1;
    auto meanOut = torch::empty(meanOutShape, torch::TensorOptions().dtype(torch::kFloat));
    at::Tensor yOut = torch::empty_like(x1);
    at::Tensor xOut = torch::empty_like(x1);
    EXEC_NPU_CMD(aclnnRowStats, x1, x2, gamma, epsilon, additionalOut, yOut, meanOut, xOut);
    std::vector<at::Tensor> result;
    if (%sadditionalOut) {
        result = {xOut, yOut};
    } else {
        result = {yOut};
    }
    return result;
}
"""
PARAMS = ["x1", "x2", "gamma", "y", "mean", "x", "workspace", "tiling"]


def case(flag: bool) -> CaseData:
    x = np.ones((4, 8), np.float32)
    outs = [Tensor("out0", np.full((4, 8), 2.0, np.float32), "float32")]
    if flag:
        outs.insert(0, Tensor("out0", np.full((4, 8), 3.0, np.float32), "float32"))
    return CaseData(Case({"case_id": 0}), [Tensor("in0", x, "float32", index=0), Tensor("in1", x.copy(), "float32",
                                                                                           index=1),
                                           Tensor("in2", np.ones(8, np.float32), "float32", index=2)],
                    {"in3": 1e-5, "in4": flag}, outs, Tolerance(), n_raw=5)


def test_the_if_else_branches_are_parsed() -> None:
    call = parse_pybind(PYBIND % "")
    assert call is not None
    assert call.branches == (("additionalOut", ("xOut", "yOut"), ("yOut",)),)
    assert call.returned_for({"additionalOut": True}) == ("xOut", "yOut")
    assert call.returned_for({"additionalOut": False}) == ("yOut",)
    assert call.returned_for({}) == call.returned == ("xOut", "yOut")
    negated = parse_pybind(PYBIND % "!")
    assert negated is not None and negated.returned_for({"additionalOut": True}) == ("yOut",)


@pytest.mark.parametrize("flag", [False, True])
def test_returned_outputs_map_to_their_op_outputs(flag: bool) -> None:
    call = parse_pybind(PYBIND % "")
    prep = _Prepared(Path("k.cpp"), None, "row_stats", PARAMS, Path("."))
    data = case(flag)
    binding, err = _bind(prep, data, None, call)
    assert err is None
    got = {n: (k, None if t is None else float(np.asarray(t.array).reshape(-1)[0])) for k, n, t in binding}
    assert got["y"] == ("out", 2.0)  # yOut is the reference's y whether or not x comes first
    assert got["x"] == (("out", 3.0) if flag else ("scratch", 0.0))
    assert got["mean"][0] == "scratch"
    mean = next(t for k, n, t in binding if n == "mean")
    assert getattr(mean, "guessed_shape", False)  # nothing in the call sizes it: InferShape will
    x = next(t for k, n, t in binding if n == "x")
    assert not getattr(x, "guessed_shape", False)  # empty_like(x1)


class _FakeManifest(SimpleNamespace):
    def host_io(self) -> tuple[list, list]:
        return self.ins, self.outs

    def host_values(self) -> dict[str, bytes]:
        return {}

    def absent_inputs(self) -> set[str]:
        return set()


def test_without_an_infershape_nothing_changes() -> None:
    call = parse_pybind(PYBIND % "")
    prep = _Prepared(Path("k.cpp"), None, "row_stats", PARAMS, Path("."))
    binding, _ = _bind(prep, case(False), None, call)
    assert not _size_by_infershape(binding, _FakeManifest(tiling=None))
    mean = next(t for k, n, t in binding if n == "mean")
    assert mean.array.shape == (4, 8)


@pytest.mark.skipif(shutil.which("g++") is None, reason="g++ is not installed")
def test_unsized_scratch_outputs_take_the_infershape_shape(tmp_path: Path) -> None:
    from tests.sim.test_infershape import one_file

    host = one_file(tmp_path)  # RowStats: y like x, mean (rows..., 1) in float32
    call = parse_pybind(PYBIND % "")
    prep = _Prepared(Path("k.cpp"), host, "row_stats", PARAMS, Path("."))
    binding, _ = _bind(prep, case(False), None, call)
    mean = next(t for k, n, t in binding if n == "mean")
    manifest = _FakeManifest(tiling=SimpleNamespace(host=host, attrs={}, op="RowStats"),
                             ins=[("x1", "float32", (4, 8)), ("gamma", "float32", (8,))],
                             outs=[("y", "float32", (4, 8)), ("mean", "float32", (4, 8))])
    assert _size_by_infershape(binding, manifest)
    assert mean.array.shape == (4, 1)
    assert not _size_by_infershape(binding, manifest)  # sized once
