"""The kernel's call from the task files: OpDef inputs/outputs and DTYPE_* macros, pybind.cpp in/out mapping."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from akgen_lsp.bench.compare import Tolerance
from akgen_lsp.bench.pipeline import C_TYPES
from akgen_lsp.bench.pipeline.binding import _bind
from akgen_lsp.bench.pipeline.manifest import _defines
from akgen_lsp.bench.pipeline.parse import _Prepared
from akgen_lsp.bench.reference import CaseData, Tensor
from akgen_lsp.bench.signature import dtype_defines, opdef_column, parse_opdef, parse_pybind
from akgen_lsp.bench.tasks import Case

OPDEF = """
namespace ops {
class ScaleGrad : public OpDef {
public:
    explicit ScaleGrad(const char* name) : OpDef(name) {
        this->Input("dy").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_BF16})
            .Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
        // this->Input("ghost").DataType({ge::DT_INT8});
        this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_BF16});
        this->Input("scale").ParamType(OPTIONAL).DataType({ge::DT_FLOAT, ge::DT_FLOAT, ge::DT_FLOAT});
        this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_BF16});
        this->AICore().SetTiling(optiling::TilingFunc);
    }
};
}
"""

PYBIND = """
#include "pytorch_npu_helper.hpp"
// our own fixture: an in-place update c = alpha * a @ b + beta * c
at::Tensor custom_pybind_fun(at::Tensor &a, at::Tensor &b, at::Tensor &c, double alpha, double beta)
{
    EXEC_NPU_CMD(aclnnCustomOp, a, b, c, alpha, beta);
    return c;
}
"""


def test_opdef_and_dtype_macros_follow_the_matching_column() -> None:
    od = parse_opdef(OPDEF)
    assert od is not None and od.names == ["dy", "x", "scale", "z"]
    assert od.inputs[2].param_type == "OPTIONAL" and od.outputs[0].dtypes == ("float16", "float32", "bfloat16")
    assert opdef_column(od, {"dy": "bfloat16", "x": "bfloat16"}) == 2
    d = dtype_defines(od, {"dy": "bfloat16", "x": "bfloat16"}, C_TYPES)
    # the output and the unbound input take the column's dtypes, as CANN's op selection does
    assert d["DTYPE_Z"] == "bfloat16_t" and d["ORIG_DTYPE_Z"] == "DT_BF16" and d["DTYPE_SCALE"] == "float"
    assert d["DTYPE_DY"] == d["DTYPE_X"] == "bfloat16_t"
    assert opdef_column(od, {"dy": "int8"}) is None
    assert opdef_column(od, {}) is None  # nothing bound: no column is guessed among three
    assert dtype_defines(od, {"dy": "int8"}, C_TYPES) == {"DTYPE_DY": "int8_t", "ORIG_DTYPE_DY": "DT_INT8"}
    ref = parse_opdef('this->Input("y").DataType({ge::DT_FLOAT});\nthis->Output("y").DataType({ge::DT_FLOAT});')
    assert ref is not None and dtype_defines(ref, {"y": "float32"}, C_TYPES) == {
        "DTYPE_Y": "float", "ORIG_DTYPE_Y": "DT_FLOAT", "DTYPE_Y_REF": "float", "ORIG_DTYPE_Y_REF": "DT_FLOAT"}


def _case(inputs: list[Tensor], outputs: list[Tensor], attrs: dict | None = None, n_raw: int = 0) -> CaseData:
    return CaseData(Case({"case_id": 0}), inputs, dict(attrs or {}), outputs, Tolerance(),
                    n_raw=n_raw or len(inputs))


def test_pybind_maps_an_in_out_tensor_and_scalar_attributes() -> None:
    call = parse_pybind(PYBIND)
    assert call is not None and call.inout == {"c"}
    assert call.kernel_tensors() == [("a", "in", 0), ("b", "in", 1), ("c", "inout", 2)]
    f16 = np.zeros((4, 4), np.float16)
    ins = [Tensor(f"in{i}", f16, "float16", index=i) for i in range(3)]
    ins += [Tensor("in3", np.array([0.5], np.float32), "float32", index=3),
            Tensor("in4", np.array([2.0], np.float32), "float32", index=4)]
    ref = Tensor("out0", np.ones((4, 4), np.float16), "float16")
    data = _case(ins, [ref])
    prep = _Prepared(Path("gemm.cpp"), None, "gemm", ["a", "b", "c", "workspace", "tiling"], Path("."))
    binding, err = _bind(prep, data, None, call)
    assert err is None
    assert [(k, n) for k, n, _ in binding] == [("in", "a"), ("in", "b"), ("inout", "c"), ("workspace", "workspace"),
                                              ("tiling", "tiling")]
    c = binding[2][2]
    assert c.expected is ref and ref.name == "c"
    assert data.attrs["alpha"] == 0.5 and data.attrs["beta"] == 2.0  # doubles, not kernel tensors
    # without the pybind file the same case cannot be mapped (5 tensors for 3 GM parameters), and says so
    _, err = _bind(prep, _case(ins, [ref]))
    assert err is not None and "cannot map" in err


def test_opdef_maps_value_depend_and_missing_inputs() -> None:
    od = parse_opdef(OPDEF)
    assert od is not None
    x = Tensor("in1", np.zeros(8, np.float32), "float32", index=1)
    ref = Tensor("out0", np.zeros(8, np.float32), "float32")
    # get_inputs returns [dy-as-list, x]; scale is not passed at all
    data = _case([x], [ref], attrs={"in0": [1.0, 2.0]}, n_raw=2)
    prep = _Prepared(Path("k.cpp"), None, "scale_grad", ["dy", "x", "scale", "z", "workspace", "tiling"], Path("."))
    binding, err = _bind(prep, data, od, None)
    assert err is None
    kinds = [(k, n, None if t is None else (t.dtype, t.array.size)) for k, n, t in binding]
    assert kinds[:4] == [("in", "dy", ("float32", 2)), ("in", "x", ("float32", 8)), ("in", "scale", ("float32", 0)),
                         ("out", "z", ("float32", 8))]
    d = _defines(binding, od)
    assert d["DTYPE_Z"] == "float" and d["DTYPE_SCALE"] == "float"


def test_the_op_call_view_fills_parameters_get_inputs_leaves_unbound() -> None:
    x = Tensor("in0", np.zeros(8, np.float16), "float16", index=0)
    gamma = Tensor("in1", np.ones(8, np.float16), "float16", index=1)
    ref = Tensor("out0", np.zeros(8, np.float16), "float16")
    data = _case([x], [ref], n_raw=1)
    data.call_view = ([Tensor("in0", x.array, "float16", index=0), gamma], {"in2": 1e-6}, 3)  # ModelNew's call
    prep = _Prepared(Path("k.cpp"), None, "rms", ["x", "gamma", "y", "workspace", "tiling"], Path("."))
    binding, err = _bind(prep, data)
    assert err is None
    assert [(k, n) for k, n, _ in binding][:3] == [("in", "x"), ("in", "gamma"), ("out", "y")]
    assert binding[1][2].array[0] == 1 and data.attrs["in2"] == 1e-6 and data.n_raw == 3


SCALAR_PYBIND = """
at::Tensor custom_pybind_api(at::Tensor &input_data, at::Tensor &value_tensor, at::Tensor &start)
{
    at::Tensor result = torch::empty_like(input_data);
    auto scalarValue = ConvertTensorToAclScaler(value_tensor);
    auto scalarStart = ConvertTensorToAclScaler(start.cpu());
    EXEC_NPU_CMD(aclnnCustomOp, input_data, scalarValue, scalarStart, result);
    return result;
}
"""


def test_pybind_scalar_made_from_a_tensor_is_that_tensor() -> None:
    """Addcdiv/Arange hand a tensor to aclnn as a scalar; the op's value-depend input is still that tensor."""
    call = parse_pybind(SCALAR_PYBIND)
    assert call is not None
    assert call.exec_args == ("input_data", "value_tensor", "start", "result")
    muls = parse_pybind(SCALAR_PYBIND.replace("auto scalarValue = ConvertTensorToAclScaler(value_tensor);",
                                              "c10::Scalar scalarValue(value_tensor.item<float>());"))
    assert muls is not None and muls.exec_args[1] == "value_tensor"


def test_a_scalar_tensor_reaches_the_op_in_the_op_dtype() -> None:
    """Muls: get_inputs makes `value` float64; aclnn converts the scalar to the OpDef column x picks."""
    from akgen_lsp.bench.pipeline.binding import _scalars_in_op_dtype
    from akgen_lsp.bench.signature import OpDef, OpParam

    opdef = OpDef((OpParam("x", ("bfloat16", "float16")), OpParam("value", ("bfloat16", "float16"))),
                  (OpParam("y", ("bfloat16", "float16")),))
    call = parse_pybind(SCALAR_PYBIND.replace("auto scalarValue = ConvertTensorToAclScaler(value_tensor);",
                                              "c10::Scalar scalarValue(value_tensor.item<float>());"))
    assert call is not None and call.scalars == ("start", "value_tensor")
    x = Tensor("x", np.ones(4, np.float16), "float16", index=0)
    value = Tensor("value", np.array([1.2]), "float64", index=1)
    _scalars_in_op_dtype([("in", x), ("in", value), ("out", Tensor("y", np.ones(4), "float64"))], call,
                         OpDef(opdef.inputs, opdef.outputs))
    assert value.dtype == "float16" and value.array.dtype == np.float16 and value.array[0] == np.float16(1.2)
    value_bf = Tensor("value", np.array([1.2]), "float64", index=1)
    x_bf = Tensor("x", np.ones(4, np.uint16), "bfloat16", index=0)
    _scalars_in_op_dtype([("in", x_bf), ("in", value_bf)], call, opdef)
    assert value_bf.dtype == "bfloat16" and value_bf.array.tolist() == [0x3F9A]  # 1.2 in bfloat16 bits


def test_output_dtype_is_the_op_column_not_the_reference() -> None:
    """Cast: the reference output picks among columns with the same input (x f16 -> y int32); Equal: no column
    has the reference's int32 for y, so x alone picks it and the kernel writes bool."""
    from akgen_lsp.bench.signature import OpDef, OpParam

    x = Tensor("x", np.ones(4, np.float16), "float16", index=0)
    y = Tensor("y", np.ones(4, np.int32), "int32")
    cast = OpDef((OpParam("x", ("float16", "float16")),), (OpParam("y", ("float32", "int32")),))
    assert _defines([("in", "x", x), ("out", "y", y)], cast)["DTYPE_Y"] == "int32_t"
    equal = OpDef((OpParam("x", ("float16", "float32")),), (OpParam("y", ("bool", "bool")),))
    assert _defines([("in", "x", x), ("out", "y", y)], equal)["DTYPE_Y"] == "bool"


def test_opdef_dtype_lists_named_in_the_file() -> None:
    """`.DataType(xDtype)` with `static const std::vector<ge::DataType> xDtype = {...};` (CANN's operator
    repositories write their OpDefs so): the list is the parameter's dtype column, as when written inline."""
    text = """
    namespace ops {
    static const std::vector<ge::DataType> xDtype = {ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_BF16};
    static const std::vector<ge::DataType> idxDtype{ge::DT_INT64, ge::DT_INT64, ge::DT_INT64};
    class Clip : public OpDef {
    public:
        explicit Clip(const char* name) : OpDef(name) {
            this->Input("x").ParamType(REQUIRED).DataType(xDtype);
            this->Input("group_index").ParamType(OPTIONAL).DataType(idxDtype);
            this->Output("y").ParamType(REQUIRED).DataType(xDtype);
        }
    };
    }
    """
    od = parse_opdef(text)
    assert od is not None
    assert [p.dtypes for p in od.inputs] == [("float16", "float32", "bfloat16"), ("int64", "int64", "int64")]
    assert od.outputs[0].dtypes == ("float16", "float32", "bfloat16")
    defs = dtype_defines(od, {"x": "float32"}, C_TYPES)
    assert defs["DTYPE_Y"] == "float" and defs["DTYPE_GROUP_INDEX"] == "int64_t"


def test_opdef_dtype_list_of_a_multiline_macro() -> None:
    """`.DataType(ARANGE_SCALAR_DTYPE_LIST)` with the list a `#define` over two lines (ops-math's arange): its
    continuation joined, the list is the parameter's dtype column."""
    text = """
    #define SCALAR_DTYPE_LIST \\
        {ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_INT32}
    namespace ops {
    class Arange : public OpDef {
    public:
        explicit Arange(const char* name) : OpDef(name) {
            this->Input("start").ParamType(REQUIRED).DataType(SCALAR_DTYPE_LIST);
            this->Output("out").ParamType(REQUIRED).DataType(SCALAR_DTYPE_LIST);
        }
    };
    }
    """
    od = parse_opdef(text)
    assert od is not None
    assert od.inputs[0].dtypes == ("float32", "float16", "int32") == od.outputs[0].dtypes
    assert dtype_defines(od, {"start": "float32"}, C_TYPES)["DTYPE_START"] == "float"
