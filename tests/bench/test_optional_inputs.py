"""Absent optional inputs (a task passes None for a ``c10::optional<at::Tensor>``): through the generated aclnn API
the op gets no tensor (the TilingFunc's GetOptionalInputShape is nullptr; the manifest marks the argument
``absent``), unless the task ships its own aclnn function that replaces the missing tensor (aclnnLayerNorm fills the
weight with ones and the bias with zeros, shaped like normalizedShape)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import numpy as np

from akgen_lsp.bench.compare import Tolerance
from akgen_lsp.bench.pipeline.binding import _plan_pybind
from akgen_lsp.bench.pipeline.manifest import _defines
from akgen_lsp.bench.reference import CaseData, Tensor
from akgen_lsp.bench.signature import aclnn_optional_fills, exec_api, parse_opdef, parse_pybind
from akgen_lsp.bench.tasks import Case
from akgen_lsp.sim.manifest import parse_manifest

PYBIND = """
#include "pytorch_npu_helper.hpp"
std::vector<at::Tensor> layer_norm(at::Tensor input, at::IntArrayRef normalized_shape,
                                   c10::optional<at::Tensor> weightOptional, c10::optional<at::Tensor> biasOptional,
                                   double eps)
{
    at::Tensor out = torch::empty_like(input);
    aclIntArray* shape_acl = ConvertType(normalized_shape);
    at::Tensor weight_npu = weightOptional.has_value() ? weightOptional.value() : at::Tensor();
    at::Tensor bias_npu = biasOptional.has_value() ? biasOptional.value() : at::Tensor();
    EXEC_NPU_CMD(aclnnMyNorm, input, shape_acl, weight_npu, bias_npu, eps, out);
    return {out};
}
"""

ACLNN = """
aclnnStatus aclnnMyNormGetWorkspaceSize(const aclTensor *input, const aclIntArray *normShape,
    const aclTensor *weightOptional, const aclTensor *biasOptional, double eps, aclTensor *out,
    uint64_t *workspaceSize, aclOpExecutor **executor)
{
    auto inputContiguous = l0op::Contiguous(input, executor);
    const aclTensor *w = nullptr;
    if (weightOptional) {
        w = l0op::Contiguous(weightOptional, executor);
    } else {
        auto shapeTensor = executor->ConvertToTensor(normShape, DataType::DT_INT64);
        aclScalar *one = executor->AllocScalar(1);  // {
        auto dtype = biasOptional ? biasOptional->GetDataType() : inputContiguous->GetDataType();
        w = l0op::Fill(shapeTensor, executor->ConvertToTensor(one, dtype), normShape, executor);
    }
    const aclTensor *b = nullptr;
    if (biasOptional) {
        b = l0op::Contiguous(biasOptional, executor);
    }
    return ACLNN_SUCCESS;
}
"""

OPDEF = """
this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT});
this->Input("gamma").ParamType(OPTIONAL).DataType({ge::DT_FLOAT16, ge::DT_FLOAT});
this->Input("beta").ParamType(OPTIONAL).DataType({ge::DT_FLOAT16, ge::DT_FLOAT});
this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT});
"""


def _case(dtype: str, weight: bool, bias: bool) -> CaseData:
    x = Tensor("in0", np.ones((2, 4), dtype), dtype, index=0)
    inputs = [x]
    attrs: dict[str, object] = {"in1": (4,), "in4": 1e-5}
    for pos, there in ((2, weight), (3, bias)):
        if there:
            inputs.append(Tensor(f"in{pos}", np.full((4,), 2.0, dtype), dtype, index=pos))
        else:
            attrs[f"in{pos}"] = None
    return CaseData(Case({"case_id": 0}), inputs, attrs, [Tensor("out0", np.zeros((2, 4), dtype), dtype)],
                    Tolerance(), n_raw=5)


def _call(tmp_path: Path, with_aclnn: bool):
    call = parse_pybind(PYBIND)
    assert call is not None
    if with_aclnn:
        (tmp_path / "aclnn_my_norm.cpp").write_text(ACLNN, encoding="utf-8")
    return dataclasses.replace(call, fills=aclnn_optional_fills(tmp_path, exec_api(PYBIND), call))


def test_exec_api_and_fills_are_read_from_the_tasks_aclnn_source(tmp_path: Path) -> None:
    assert exec_api(PYBIND) == "aclnnMyNorm"
    call = _call(tmp_path, with_aclnn=True)
    assert set(call.fills) == {"weightOptional"}  # the bias has no else branch: nullptr stays
    fill = call.fills["weightOptional"]
    assert fill.value == 1.0
    assert fill.shape_arg == "normalized_shape"
    assert fill.dtype_args == ("biasOptional", "input")


def test_no_aclnn_source_no_fills(tmp_path: Path) -> None:
    assert _call(tmp_path, with_aclnn=False).fills == {}
    assert aclnn_optional_fills(None, "aclnnMyNorm", parse_pybind(PYBIND)) == {}  # type: ignore[arg-type]


def test_absent_optional_is_marked_and_gets_no_dtype_of_its_own(tmp_path: Path) -> None:
    call = _call(tmp_path, with_aclnn=False)
    opdef = parse_opdef(OPDEF)
    plan = _plan_pybind(_case("float16", weight=False, bias=True), call, opdef)
    assert plan is not None
    tensors = [t for _, t in plan]
    assert [t.absent for t in tensors] == [False, True, False, False]
    assert tensors[1].array.size == 0
    binding = [(k, n, t) for (k, t), n in zip(plan, ["x", "gamma", "beta", "y"], strict=True)]
    d = _defines(binding, opdef)
    assert d["DTYPE_GAMMA"] == "half"  # the column of x and beta, not the placeholder's float32


def test_aclnn_fill_replaces_the_absent_weight(tmp_path: Path) -> None:
    call = _call(tmp_path, with_aclnn=True)
    plan = _plan_pybind(_case("float32", weight=False, bias=False), call, parse_opdef(OPDEF))
    assert plan is not None
    weight = plan[1][1]
    assert not weight.absent
    assert weight.dtype == "float32"  # no bias: the input's dtype
    np.testing.assert_array_equal(weight.array, np.ones(4, np.float32))
    assert plan[2][1].absent  # the bias: nothing fills it here


def test_manifest_reports_absent_inputs(tmp_path: Path) -> None:
    np.save(tmp_path / "x.npy", np.ones(4, np.float32))
    np.save(tmp_path / "b.npy", np.zeros(0, np.float32))
    src = tmp_path / "k.cpp"
    src.write_text("", encoding="utf-8")
    raw = {"sources": [str(src)], "kernel": "k", "block_dim": 1, "arch": "Ascend910B2",
           "args": [{"name": "x", "input": "x.npy"}, {"name": "b", "input": "b.npy", "absent": True},
                    {"name": "y", "output": "y.npy", "dtype": "float32", "shape": [4]}]}
    m = parse_manifest(raw, tmp_path)
    assert m.absent_inputs() == {"b"}
    assert [a[0] for a in m.host_io()[0]] == ["x", "b"]
