"""In-place ops (an OpDef output named like an input: InplaceAddLayerNorm's x1 and x2): the task's pybind passes
the input tensors and returns them, the kernel gets y and x as outputs. Each host argument must reach the kernel
parameter of its name (gamma is gamma, not x), the returned x1 / x2 map to the kernel's y / x, the outputs the call
does not return are scratch, an absent optional bias is None, and y / x share x1's / x2's buffers (a ref output).
Also: a failed custom precision check does not call elements past the default tolerance its failures."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.bench.compare import Tolerance, compare_outputs, comparison_finding
from akgen_lsp.bench.pipeline.binding import _bind
from akgen_lsp.bench.pipeline.manifest import _ref_outputs
from akgen_lsp.bench.pipeline.parse import _Prepared
from akgen_lsp.bench.reference import CaseData, Tensor
from akgen_lsp.bench.signature import parse_opdef, parse_pybind
from akgen_lsp.bench.tasks import Case

PYBIND = """
std::vector<at::Tensor> custom_pybind_api(at::Tensor x1, at::Tensor x2, c10::optional<at::Tensor> bias,
                                          at::Tensor gamma, at::Tensor beta, float epsilon, bool additionalOut)
{
    torch::IntArrayRef shapes = x1.sizes();
    std::vector<int64_t> statShape(shapes.begin(), shapes.end());
    statShape[statShape.size() - 1] = 1;
    auto options = torch::TensorOptions().dtype(torch::kFloat).device(x1.device());
    auto meanOut = torch::empty(statShape, options);
    auto rstdOut = torch::empty_like(meanOut);
    if (bias.has_value()) {
        EXEC_NPU_CMD(aclnnCustomOp, x1, x2, gamma, beta, bias, epsilon, additionalOut, meanOut, rstdOut);
    } else {
        at::Tensor none = at::Tensor();
        EXEC_NPU_CMD(aclnnCustomOp, x1, x2, gamma, beta, none, epsilon, additionalOut, meanOut, rstdOut);
    }
    std::vector<at::Tensor> result;
    if (additionalOut) {
        result = {x1, meanOut, rstdOut, x2};
    } else {
        result = {x1};
    }
    return result;
}
"""

OPDEF = """
this->Input("x1").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT});
this->Input("x2").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT});
this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT});
this->Input("beta").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT});
this->Input("bias").ParamType(OPTIONAL).DataType({ge::DT_FLOAT16, ge::DT_FLOAT});
this->Output("x1").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT});
this->Output("mean").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT});
this->Output("rstd").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT});
this->Output("x2").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT});
this->Attr("epsilon").AttrType(OPTIONAL).Float(1e-5);
this->Attr("additional_output").AttrType(OPTIONAL).Bool(false);
"""
PARAMS = ["x1", "x2", "gamma", "beta", "bias", "y", "mean", "rstd", "x", "workspace", "tiling"]
ROWS, COLS = 6, 8


def _case(additional: bool, bias: bool) -> CaseData:
    f = np.float32
    inputs = [Tensor("in0", np.full((ROWS, COLS), 1.0, f), "float32", index=0),
              Tensor("in1", np.full((ROWS, COLS), 2.0, f), "float32", index=1)]
    attrs: dict[str, object] = {}
    if bias:
        inputs.append(Tensor("in2", np.full((ROWS, COLS), 5.0, f), "float32", index=2))
    else:
        attrs["in2"] = None
    inputs += [Tensor("in3", np.full(COLS, 3.0, f), "float32", index=3),
               Tensor("in4", np.full(COLS, 4.0, f), "float32", index=4)]
    attrs.update({"in5": 1e-5, "in6": additional})
    outs = [Tensor("out0", np.full((ROWS, COLS), 10.0, f), "float32")]
    if additional:
        outs += [Tensor("out1", np.full((ROWS, 1), 11.0, f), "float32"),
                 Tensor("out2", np.full((ROWS, 1), 12.0, f), "float32"),
                 Tensor("out3", np.full((ROWS, COLS), 13.0, f), "float32")]
    return CaseData(Case({"case_id": 0}), inputs, attrs, outs, Tolerance(), n_raw=7)


def _first(t: object) -> float | None:
    arr = getattr(t, "array", None)
    return None if arr is None or arr.size == 0 else float(np.asarray(arr).reshape(-1)[0])


@pytest.mark.parametrize(("additional", "bias"), [(True, False), (False, True), (True, True), (False, False)])
def test_inplace_outputs_and_host_arguments_bind_by_name(additional: bool, bias: bool) -> None:
    call = parse_pybind(PYBIND)
    opdef = parse_opdef(OPDEF)
    assert call is not None and opdef is not None
    prep = _Prepared(Path("k.cpp"), None, "inplace_add_layer_norm", PARAMS, Path("."))
    binding, err = _bind(prep, _case(additional, bias), opdef, call)
    assert err is None, err
    got = {n: (k, _first(t), None if t is None else tuple(np.asarray(t.array).shape)) for k, n, t in binding}
    assert got["x1"] == ("in", 1.0, (ROWS, COLS))
    assert got["x2"] == ("in", 2.0, (ROWS, COLS))
    assert got["gamma"] == ("in", 3.0, (COLS,))  # not x's shape
    assert got["beta"] == ("in", 4.0, (COLS,))
    if bias:
        assert got["bias"] == ("in", 5.0, (ROWS, COLS))
    else:
        assert got["bias"][1] is None  # absent: no values reach the kernel
    assert got["y"] == ("out", 10.0, (ROWS, COLS))  # the returned x1
    if additional:
        assert got["mean"] == ("out", 11.0, (ROWS, 1))
        assert got["rstd"] == ("out", 12.0, (ROWS, 1))
        assert got["x"] == ("out", 13.0, (ROWS, COLS))  # the returned x2
    else:
        assert got["x"][0] == "scratch" and got["mean"][0] == "scratch" and got["rstd"][0] == "scratch"
    refs = _ref_outputs(binding, opdef)
    assert refs.get("y") == "x1" and refs.get("x") == "x2"  # one tensor for both on CANN
    assert "mean" not in refs and "rstd" not in refs


class _FailingCheck:
    last_stats = None

    def __call__(self) -> bool:
        return False


def test_a_failed_custom_check_names_default_tolerance_elements_as_such() -> None:
    ref = np.array([0.474609375, 1.0078125, 2.0], np.float32)
    out = np.array([0.47265625, 0.99609375, 2.0], np.float32)
    tol = Tolerance(atol=1e-3, rtol=1e-3)
    cmp = compare_outputs([ref], [out], tol, ["y"], _FailingCheck())
    assert not cmp.ok and cmp.custom and cmp.bad_count == 2
    msg = comparison_finding(cmp, "k.cpp", "case 3", tol).message
    assert "custom_check_precision decides" in msg
    assert "past the default tolerance (not the custom check's, which names none)" in msg
    assert "y[0]" in msg and "2 element(s) past it" in msg and "element(s) fail" not in msg
    plain = comparison_finding(compare_outputs([ref], [out], tol, ["y"]), "k.cpp", "case 3", tol).message
    assert "first bad element y[0]" in plain and "2 element(s) fail" in plain


def test_nonfinite_outputs_the_custom_check_lets_through_are_counted() -> None:
    from akgen_lsp.bench.pipeline.compare import _nonfinite_where_finite

    ref = np.array([[0.5, 1.0], [np.nan, 2.0]], np.float16)
    out = np.array([[np.nan, 1.0], [np.nan, np.inf]], np.float16)
    # bfloat16 as raw bits: 0x7FC0 is NaN, 0x3F80 is 1.0
    ref_bf = np.array([0x3F80, 0x3F80, 0x3F80], np.uint16)
    out_bf = np.array([0x7FC0, 0x3F80, 0x3F80], np.uint16)
    got = _nonfinite_where_finite([ref, ref_bf, ref], [out, out_bf, ref.copy()], ["y", "z", "w"],
                                  ["float16", "bfloat16", "float16"], chunk=3)
    assert got == [("y", 2, 4), ("z", 1, 3)]  # a NaN the reference has too is not counted; w is clean
    assert _nonfinite_where_finite([ref_bf], [out_bf], ["z"], ["uint16"]) == []  # read as integers: all finite
