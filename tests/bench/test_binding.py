"""How a task's values reach the op when only ModelNew's call shows them (init tensors such as gamma), and the
pybind shapes NPUKernelBench's level-2 tasks use: a binding function named after the op, optional tensors, an int
list passed as aclIntArray (the op's value-depend input) and attributes named differently from the OpDef's."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.bench.compare import Tolerance
from akgen_lsp.bench.pipeline import Candidate, RunSettings, evaluate
from akgen_lsp.bench.pipeline.binding import _bind
from akgen_lsp.bench.pipeline.parse import _Prepared
from akgen_lsp.bench.reference import CaseData, Tensor
from akgen_lsp.bench.signature import parse_opdef, parse_pybind
from akgen_lsp.bench.tasks import Case, Task, load_task

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "binding_suite" / "tasks" / "level2" / "Norm" / "ScaleRows"

DEEP_NORM_PYBIND = """
#include "pytorch_npu_helper.hpp"
std::vector<at::Tensor> deep_norm(at::Tensor x, at::Tensor gx, c10::optional<at::Tensor> betaOptional,
                                  at::Tensor gamma, double alphaOptional, double epsilonOptional)
{
    at::Tensor yOut = torch::empty_like(x);
    std::vector<int64_t> reduced(x.sizes().begin(), x.sizes().end());
    reduced[reduced.size() - 1] = 1;
    auto options = torch::TensorOptions().dtype(torch::kFloat);
    at::Tensor meanOut = torch::empty(reduced, options);
    at::Tensor rstdOut;
    rstdOut = torch::empty(reduced, options);
    at::Tensor beta_npu = betaOptional.has_value() ? betaOptional.value() : at::Tensor();
    if (x.dim() > 0) {
        EXEC_NPU_CMD(aclnnDeepNorm, x, gx, beta_npu, gamma, alphaOptional, epsilonOptional, meanOut, rstdOut, yOut);
    }
    std::vector<at::Tensor> result = {meanOut, rstdOut, yOut};
    return result;
}
PYBIND11_MODULE(kernel_gen_ops, m) { m.def("deep_norm", &deep_norm, ""); }
"""

DEEP_NORM_OPDEF = """
this->Input("x").DataType({ge::DT_FLOAT16});
this->Input("gx").DataType({ge::DT_FLOAT16});
this->Input("beta").DataType({ge::DT_FLOAT16});
this->Input("gamma").DataType({ge::DT_FLOAT16});
this->Output("mean").DataType({ge::DT_FLOAT});
this->Output("rstd").DataType({ge::DT_FLOAT});
this->Output("y").DataType({ge::DT_FLOAT16});
this->Attr("alpha").AttrType(OPTIONAL).Float(0.3f);
this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-6);
"""


def _answer(task: Task) -> Candidate:
    a = task.answers[0]
    return Candidate(task.id, 0, a.kernel, a.host.parent if a.host else None)


def test_a_binding_function_named_after_the_op_is_parsed() -> None:
    call = parse_pybind(DEEP_NORM_PYBIND)
    assert call is not None
    assert [p.name for p in call.params] == ["x", "gx", "betaOptional", "gamma", "alphaOptional", "epsilonOptional"]
    # the optional tensor is the parameter itself; the outputs are the locals, returned through the vector
    assert call.exec_args[:4] == ("x", "gx", "betaOptional", "gamma")
    assert call.returned == ("meanOut", "rstdOut", "yOut")
    assert set(call.locals_) == {"yOut", "meanOut", "rstdOut"}
    assert [k for _, k, _ in call.kernel_tensors()] == ["in", "in", "in", "in", "out", "out", "out"]
    assert call.attr_args() == ["alphaOptional", "epsilonOptional"]
    assert parse_opdef(DEEP_NORM_OPDEF).attrs == ("alpha", "epsilon")  # type: ignore[union-attr]


def test_init_tensors_of_model_new_reach_the_op_with_their_shapes() -> None:
    """get_inputs gives x and gx; ModelNew adds beta and gamma (from get_init_inputs): the op gets all four with
    their real shapes, and the attributes under the OpDef's names."""
    rng = np.random.default_rng(0)
    x = rng.standard_normal((4, 16)).astype(np.float16)
    gx = rng.standard_normal((4, 16)).astype(np.float16)
    beta = rng.standard_normal(16).astype(np.float16)
    gamma = rng.standard_normal(16).astype(np.float16)
    outs = [Tensor("out0", np.zeros((4, 1), np.float32), "float32"), Tensor("out1", np.zeros((4, 1), np.float32),
                                                                            "float32"),
            Tensor("out2", np.zeros((4, 16), np.float16), "float16")]
    data = CaseData(Case({"case_id": 0}), [Tensor("in0", x, "float16", index=0), Tensor("in1", gx, "float16", index=1)],
                    {"init0": beta, "init1": gamma, "init2": 0.3, "init3": 1e-6}, outs, Tolerance(), n_raw=2)
    data.call_view = ([Tensor("in0", x, "float16", index=0), Tensor("in1", gx, "float16", index=1),
                       Tensor("in2", beta, "float16", index=2), Tensor("in3", gamma, "float16", index=3)],
                      {"in4": 0.3, "in5": 1e-6}, 6)
    params = ["x", "gx", "beta", "gamma", "mean", "rstd", "y", "workspace", "tiling"]
    prep = _Prepared(Path("k.cpp"), None, "deep_norm", params, Path("."))
    binding, err = _bind(prep, data, parse_opdef(DEEP_NORM_OPDEF), parse_pybind(DEEP_NORM_PYBIND))
    assert err is None
    got = {n: (k, t.array.shape if t is not None else None) for k, n, t in binding}
    assert got["beta"] == ("in", (16,)) and got["gamma"] == ("in", (16,))
    assert got["mean"] == ("out", (4, 1)) and got["y"] == ("out", (4, 16))
    assert got["workspace"][0] == "workspace" and got["tiling"][0] == "tiling"
    np.testing.assert_array_equal(next(t.array for k, n, t in binding if n == "gamma"), gamma)
    assert data.attrs["alpha"] == 0.3 and data.attrs["epsilon"] == 1e-6


def test_a_pybind_plan_that_leaves_kernel_parameters_over_is_not_used() -> None:
    """A ref output (var_ref) has no tensor in the pybind call: binding by the pybind would leave it a workspace;
    the positional rule binds it to the reference output instead."""
    text = ("at::Tensor custom_pybind_fun(at::Tensor var, at::Tensor grad) {\n"
            "    EXEC_NPU_CMD(aclnnApplyX, var, grad);\n    return var;\n}\n")
    var = np.ones(8, np.float32)
    grad = np.ones(8, np.float32)
    data = CaseData(Case({"case_id": 0}), [Tensor("in0", var, "float32", index=0),
                                           Tensor("in1", grad, "float32", index=1)],
                    {}, [Tensor("out0", np.zeros(8, np.float32), "float32")], Tolerance(), n_raw=2)
    prep = _Prepared(Path("k.cpp"), None, "apply_x", ["var", "grad", "var_ref", "workspace", "tiling"], Path("."))
    binding, err = _bind(prep, data, None, parse_pybind(text))
    assert err is None
    assert [(k, n) for k, n, _ in binding] == [("in", "var"), ("in", "grad"), ("out", "var_ref"),
                                              ("workspace", "workspace"), ("tiling", "tiling")]


def test_model_new_init_tensors_and_value_depend_data_reach_the_tiling_func(tmp_path: Path) -> None:
    """End to end on the ScaleRows fixture: its TilingFunc returns GRAPH_FAILED unless gamma (an init tensor only
    ModelNew passes) has its real shape, the value-depend normalized_shape input carries its values as data and the
    attribute epsilon (epsilonOptional in the pybind) is set; the kernel then computes x * gamma + epsilon."""
    pytest.importorskip("torch")
    task = load_task(FIXTURE)
    rec = evaluate(task, _answer(task), RunSettings(mode="dynamic"))
    assert rec["status"] == "pass", rec["findings"]
    assert rec["passed_cases"] == rec["cases"] == 2

    # the same kernel with epsilon left out is wrong: the comparison really sees the attribute's effect
    root = tmp_path / "tasks" / "level2" / "Norm" / "ScaleRows"
    shutil.copytree(FIXTURE, root)
    broken = load_task(root)
    k = broken.answers[0].kernel
    k.write_text(k.read_text().replace("Adds(b, b, t.epsilon, t.cols);", ""))
    rec = evaluate(broken, _answer(broken), RunSettings(mode="dynamic", case_ids=(0,)))
    assert rec["status"] == "wrong_answer", rec["findings"]


def test_outputs_returned_under_a_flag_are_compared_only_when_it_is_set() -> None:
    """CrossEntropyLoss's pybind returns zloss only `if (returnZloss)`: without the flag the reference's extra output
    is not compared (NPUKernelBench zips the two lists) and the op's output is a scratch buffer of its shape."""
    text = ("std::vector<at::Tensor> ce(at::Tensor input, bool returnZloss) {\n"
            "    at::Tensor lossOut = torch::empty_like(input);\n"
            "    at::Tensor zlossOut = torch::empty({3}, input.options());\n"
            "    EXEC_NPU_CMD(aclnnCe, input, returnZloss, lossOut, zlossOut);\n"
            "    std::vector<at::Tensor> result = {lossOut};\n"
            "    if (returnZloss) {\n        result.push_back(zlossOut);\n    }\n"
            "    return result;\n}\n")
    call = parse_pybind(text)
    assert call is not None and call.conditional == (("returnZloss", "zlossOut"),)
    params = ["input", "loss", "zloss", "workspace", "tiling"]
    prep = _Prepared(Path("k.cpp"), None, "ce", params, Path("."))
    for flag in (False, True):
        x = np.ones(4, np.float32)
        data = CaseData(Case({"case_id": 0}), [Tensor("in0", x, "float32", index=0)], {"in1": flag},
                        [Tensor("out0", np.zeros(4, np.float32), "float32"),
                         Tensor("out1", np.zeros(3, np.float32), "float32")], Tolerance(), n_raw=2)
        binding, err = _bind(prep, data, None, call)
        assert err is None
        kinds = {n: (k, t.array.shape if t is not None else None) for k, n, t in binding}
        assert kinds["zloss"] == (("out" if flag else "scratch"), (3,))
        assert len(data.outputs) == (2 if flag else 1)

    # the same when only ModelNew's call passes the values (weight from get_init_inputs): the case's outputs follow
    view_text = text.replace("at::Tensor input, bool", "at::Tensor input, at::Tensor weight, bool").replace(
        "aclnnCe, input,", "aclnnCe, input, weight,")
    prep = _Prepared(Path("k.cpp"), None, "ce", ["input", "weight", "loss", "zloss", "workspace", "tiling"], Path("."))
    x = np.ones(4, np.float32)
    data = CaseData(Case({"case_id": 0}), [Tensor("in0", x, "float32", index=0)], {},
                    [Tensor("out0", np.zeros(4, np.float32), "float32"),
                     Tensor("out1", np.zeros(3, np.float32), "float32")], Tolerance(), n_raw=1)
    data.call_view = ([Tensor("in0", x, "float32", index=0), Tensor("in1", x.copy(), "float32", index=1)],
                      {"in2": False}, 3)
    binding, err = _bind(prep, data, None, parse_pybind(view_text))
    assert err is None and [k for k, _, _ in binding][:4] == ["in", "in", "out", "scratch"]
    assert len(data.outputs) == 1  # what the comparison sees
