"""Binding of outputs the task's pybind does not return (akgen_lsp/bench/pipeline/binding.py `_scratch`,
pipeline/manifest.py `_size_by_infershape`) and of a returned vector that an if/else on a bool parameter fills (signature.py
`PybindCall.branches`): AddLayerNorm's `if (additionalOut) result = {xOut, yOut}; else result = {yOut};`, its mean
and rstd sized by the op's own InferShape, (rows, 1)."""

from __future__ import annotations

import shutil
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from akgen_lsp.bench.compare import Tolerance
from akgen_lsp.bench.pipeline.binding import _bind
from akgen_lsp.bench.pipeline.manifest import _size_by_infershape
from akgen_lsp.bench.pipeline.parse import _Prepared
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


INPLACE_PYBIND = """
std::vector<at::Tensor> custom_pybind_api(at::Tensor x1, at::Tensor x2, at::Tensor gamma, float epsilon,
                                          bool additionalOut)
{
    auto meanOut = torch::empty({4, 1}, torch::TensorOptions().dtype(torch::kFloat));
    auto rstdOut = torch::empty_like(meanOut);
    EXEC_NPU_CMD(aclnnInplaceRowStats, x1, x2, gamma, epsilon, additionalOut, meanOut, rstdOut);
    std::vector<at::Tensor> result;
    if (additionalOut) {
        result = {x1, meanOut, rstdOut, x2};
    } else {
        result = {x1};
    }
    return result;
}
"""
INPLACE_OPDEF = """
class InplaceRowStats : public OpDef {
public:
    explicit InplaceRowStats(const char* name) : OpDef(name) {
        this->Input("x1").ParamType(REQUIRED).DataType({ge::DT_FLOAT16});
        this->Input("x2").ParamType(REQUIRED).DataType({ge::DT_FLOAT16});
        this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT16});
        this->Output("x1").ParamType(REQUIRED).DataType({ge::DT_FLOAT16});
        this->Output("rstd").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
        this->Output("mean").ParamType(REQUIRED).DataType({ge::DT_INT32});
        this->Output("x2").ParamType(REQUIRED).DataType({ge::DT_FLOAT16});
        this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-5);
        this->Attr("additional_output").AttrType(OPTIONAL).Bool(false);
    }
};
"""


@pytest.mark.parametrize("flag", [False, True])
def test_ref_outputs_share_their_inputs_and_scratch_dtypes_follow_the_output_names(flag: bool) -> None:
    """InplaceAddLayerNorm: the OpDef's outputs x1 and x2 are its inputs' buffers (the aclnn call takes each tensor
    once, the kernel gets it twice); what the call does not return is a scratch buffer, a ref one starting with its
    input's values. The call's own outputs are the other OpDef outputs in order, whatever their names (here the
    OpDef says rstd before mean: meanOut is `rstd`), and a scratch one takes that output's dtype."""
    from akgen_lsp.bench.signature import parse_opdef

    opdef = parse_opdef(INPLACE_OPDEF)
    call = parse_pybind(INPLACE_PYBIND)
    assert opdef is not None and call is not None
    params = ["x1", "x2", "gamma", "y", "rstd", "mean", "x", "workspace", "tiling"]
    prep = _Prepared(Path("k.cpp"), None, "inplace_row_stats", params, Path("."))
    x1 = np.full((4, 8), 1.0, np.float16)
    x2 = np.full((4, 8), 5.0, np.float16)
    outs = [Tensor("out0", np.full((4, 8), 2.0, np.float16), "float16")]
    if flag:
        outs += [Tensor("out1", np.zeros((4, 1), np.float32), "float32"),
                 Tensor("out2", np.ones((4, 1), np.float32), "float32"),
                 Tensor("out3", np.full((4, 8), 6.0, np.float16), "float16")]
    data = CaseData(Case({"case_id": 0}), [Tensor("in0", x1, "float16", index=0),
                                           Tensor("in1", x2, "float16", index=1),
                                           Tensor("in2", np.ones(8, np.float16), "float16", index=2)],
                    {"in3": 1e-5, "in4": flag}, outs, Tolerance(), n_raw=5)
    binding, err = _bind(prep, data, opdef, call)
    assert err is None
    got = {n: (k, t) for k, n, t in binding}
    assert [k for k, _, _ in binding][:3] == ["in", "in", "in"]
    assert got["y"][0] == "out" and float(got["y"][1].array[0, 0]) == 2.0  # the returned x1
    if flag:
        assert got["x"][0] == "out" and float(got["x"][1].array[0, 0]) == 6.0
        assert got["rstd"][1] is outs[1] and got["mean"][1] is outs[2]
    else:
        assert got["x"][0] == "scratch" and float(got["x"][1].array[0, 0]) == 5.0  # x2's values, as on CANN
        assert got["mean"][0] == got["rstd"][0] == "scratch"
        assert (got["rstd"][1].dtype, got["mean"][1].dtype) == ("float32", "int32")


def test_a_scratch_ref_output_starts_with_its_inputs_values(tmp_path: Path) -> None:
    """The manifest gives a ref output that the call does not return the input's values as its start (`init`), as
    the aliased buffer has on CANN."""
    from akgen_lsp.ascendc.arch import load_arch
    from akgen_lsp.bench.pipeline import RunSettings
    from akgen_lsp.bench.pipeline.manifest import _manifest
    from akgen_lsp.bench.signature import parse_opdef

    opdef = parse_opdef(INPLACE_OPDEF)
    call = parse_pybind(INPLACE_PYBIND)
    params = ["x1", "x2", "gamma", "y", "rstd", "mean", "x", "workspace", "tiling"]
    prep = _Prepared(Path("k.cpp"), None, "inplace_row_stats", params, Path("."))
    data = CaseData(Case({"case_id": 0}), [Tensor("in0", np.ones((4, 8), np.float16), "float16", index=0),
                                           Tensor("in1", np.full((4, 8), 5.0, np.float16), "float16", index=1),
                                           Tensor("in2", np.ones(8, np.float16), "float16", index=2)],
                    {"in3": 1e-5, "in4": False}, [Tensor("out0", np.ones((4, 8), np.float16), "float16")],
                    Tolerance(), n_raw=5)
    binding, err = _bind(prep, data, opdef, call)
    assert err is None
    raw = _manifest(prep, binding, {}, "InplaceRowStats", load_arch("Ascend910B2"), RunSettings(), tmp_path, opdef)
    args = {a["name"]: a for a in raw["args"]}
    assert args["x"]["init"] == str(tmp_path / "x2.npy") and args["y"]["init"] == str(tmp_path / "x1.npy")
    assert "init" not in args["mean"]
    # what the call does not return is not compared: bytes left unwritten there are no SIM-GM-UNWRITTEN warning
    assert args["mean"]["compared"] is False and args["x"]["compared"] is False and "compared" not in args["y"]
    # the run's limits: CPU time stops a spinning kernel, the wall clock is the backstop; `akgen bench run` gives a
    # case 60 s of CPU and NPUKernelBench's 300 s of wall clock (a big case on a loaded machine)
    assert (raw["cpu_s"], raw["timeout_s"]) == (20, 60.0)
    from akgen_lsp.bench.runner import RunOptions, make_jobs, select_tasks

    opts = RunOptions(tasks=["AddMath"], level=1)
    job = make_jobs(opts, select_tasks(opts))[0]
    bench = _manifest(prep, binding, {}, "InplaceRowStats", load_arch("Ascend910B2"), job.settings, tmp_path, opdef)
    assert (bench["cpu_s"], bench["timeout_s"]) == (60, 300.0)
