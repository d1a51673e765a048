"""A pybind scalar that the OpDef declares as an Input (TopKV3: `int64_t k` in pybind.cpp, `Input("k")` of DT_INT32
in the OpDef, value-depend: the TilingFunc reads it with GetInputTensor(1)->GetData<int32_t>()) reaches the op as a
1-element tensor of the OpDef's dtype at its place, not as an attribute that would shift the op's parameters (the host
saw `output k, output values`)."""

from __future__ import annotations

import numpy as np

from akgen_lsp.bench.compare import Tolerance
from akgen_lsp.bench.pipeline.binding import _plan_pybind
from akgen_lsp.bench.reference import CaseData, Tensor
from akgen_lsp.bench.signature import parse_opdef, parse_pybind, scalar_inputs
from akgen_lsp.bench.tasks import Case

PYBIND = """
#include "pytorch_npu_helper.hpp"
std::vector<at::Tensor> custom_pybind_api(at::Tensor &self_tensor, int64_t k, int64_t dim, bool largest, bool sorted)
{
    std::vector<int64_t> output_shape = {self_tensor.size(0), k};
    at::Tensor values = torch::empty(output_shape, self_tensor.options().dtype(torch::kFloat16));
    at::Tensor indices = torch::empty(output_shape, self_tensor.options().dtype(torch::kInt64));
    EXEC_NPU_CMD(aclnnCustomOp, self_tensor, k, dim, largest, sorted, values, indices);
    return {values, indices};
}
"""

OPDEF = """
this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
this->Input("k").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
this->Output("values").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
this->Output("indices").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
this->Attr("sorted").AttrType(OPTIONAL).Bool(true);
this->Attr("dim").AttrType(OPTIONAL).Int(-1);
this->Attr("largest").AttrType(OPTIONAL).Bool(true);
"""

# The same op with k an attribute (TopK's usual OpDef): k stays an attribute.
OPDEF_K_ATTR = """
this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
this->Output("values").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
this->Output("indices").ParamType(REQUIRED).DataType({ge::DT_INT32}).Format({ge::FORMAT_ND});
this->Attr("k").AttrType(REQUIRED).Int();
this->Attr("sorted").AttrType(OPTIONAL).Bool(true);
"""


def _case(k: int) -> CaseData:
    x = Tensor("in0", np.arange(16, dtype=np.float16).reshape(2, 8), "float16", index=0)
    attrs: dict[str, object] = {"in1": k, "in2": 1, "in3": True, "in4": True}
    outs = [Tensor("out0", np.zeros((2, k), np.float16), "float16"),
            Tensor("out1", np.zeros((2, k), np.int64), "int64")]
    return CaseData(Case({"case_id": 0}), [x], attrs, outs, Tolerance(), n_raw=5)


def test_a_scalar_the_opdef_declares_as_input_becomes_a_one_element_tensor() -> None:
    call = parse_pybind(PYBIND)
    opdef = parse_opdef(OPDEF)
    assert call is not None and opdef is not None
    assert [k for _, k, _ in call.kernel_tensors()] == ["in", "out", "out"]  # as parsed: k would be an attribute
    call = scalar_inputs(call, opdef)
    assert call.arrays == ("k",)
    plan = _plan_pybind(_case(3), call, opdef)
    assert plan is not None
    assert [kind for kind, _ in plan] == ["in", "in", "out", "out"]
    k = plan[1][1]
    assert k.dtype == "int32"
    assert k.array.dtype == np.int32
    assert k.array.tolist() == [3]
    assert [t.array.shape for _, t in plan[2:]] == [(2, 3), (2, 3)]


def test_a_scalar_the_opdef_declares_as_attribute_stays_one() -> None:
    call = parse_pybind(PYBIND)
    opdef = parse_opdef(OPDEF_K_ATTR)
    assert call is not None and opdef is not None
    assert scalar_inputs(call, opdef) is call
    assert scalar_inputs(call, None) is call
    data = _case(2)
    plan = _plan_pybind(data, call, opdef)
    assert plan is not None
    assert [kind for kind, _ in plan] == ["in", "out", "out"]
    assert data.attrs["k"] == 2
