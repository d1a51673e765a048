"""A ref tensor list (ScatterList's var: OpDef ``Input("var")`` and ``Output("var")``, both DYNAMIC; the pybind passes
varRef to aclnn and returns it): the binding maps the kernel's list output to the input list of the same OpDef name,
the manifest's output elements start with the input elements' values ("init"), and the anti-cheat rule does not fail
a kernel that leaves such an output unchanged when the op leaves it unchanged."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from akgen_lsp.ascendc.arch import load_arch
from akgen_lsp.bench import anticheat
from akgen_lsp.bench.compare import Tolerance
from akgen_lsp.bench.pipeline import RunSettings
from akgen_lsp.bench.pipeline.binding import _bind
from akgen_lsp.bench.pipeline.manifest import _manifest, _outputs_and_initial, _ref_outputs
from akgen_lsp.bench.pipeline.parse import _Prepared
from akgen_lsp.bench.reference import CaseData, Tensor
from akgen_lsp.bench.signature import parse_opdef, parse_pybind
from akgen_lsp.bench.tasks import Case
from akgen_lsp.bench.tensorlist import make_list

OPDEF = """
this->Input("var").ParamType(DYNAMIC).DataType({ge::DT_FLOAT16});
this->Input("indice").ParamType(REQUIRED).DataType({ge::DT_INT64});
this->Input("updates").ParamType(REQUIRED).DataType({ge::DT_FLOAT16});
this->Input("mask").ParamType(OPTIONAL).DataType({ge::DT_UINT8});
this->Output("var").ParamType(DYNAMIC).DataType({ge::DT_FLOAT16});
this->Attr("reduce").AttrType(OPTIONAL).String("update");
this->Attr("axis").AttrType(OPTIONAL).Int(-2);
"""

PYBIND = """
#include "pytorch_npu_helper.hpp"
std::vector<at::Tensor> custom_pybind_api(std::vector<at::Tensor> &varRef, at::Tensor &indice, at::Tensor &updates,
                                          c10::optional<at::Tensor> &mask, const char* reduce, int64_t axis)
{
    at::TensorList varRefList = at::TensorList(varRef);
    at::Tensor mask_npu = mask.has_value() ? mask.value() : at::Tensor();
    EXEC_NPU_CMD(aclnnCustomOp, varRefList, indice, updates, mask_npu, reduce, axis);
    return varRef;
}
PYBIND11_MODULE(kernel_gen_ops, m) { m.def("custom_pybind_api", &custom_pybind_api, ""); }
"""

PARAMS = ["var", "indice", "updates", "mask", "varOut", "workspace", "tiling"]


def _convert(x: object) -> tuple[np.ndarray, str] | None:
    return (x, str(x.dtype)) if isinstance(x, np.ndarray) else None


def _case(mask: list[bool]) -> tuple[CaseData, list[np.ndarray]]:
    rng = np.random.default_rng(5)
    var = [rng.standard_normal((4, 8)).astype(np.float16) for _ in mask]
    upd = rng.standard_normal((len(mask), 4, 8)).astype(np.float16)
    ind = np.array([[1, 2]] * len(mask), dtype=np.int64)
    want = [v.copy() for v in var]
    for k, m in enumerate(mask):
        if m:
            want[k][:, 1:3] = upd[k][:, 0:2]
    inputs = [make_list("in0", var, _convert, Tensor, index=0), Tensor("in1", ind, "int64", index=1),
              Tensor("in2", upd, "float16", index=2), Tensor("in3", np.array(mask, dtype=np.bool_), "bool", index=3)]
    outputs = [make_list("out0", want, _convert, Tensor)]
    data = CaseData(Case({"case_id": 0}), inputs, {"in4": "update", "in5": -1}, outputs, Tolerance(), n_raw=6)
    return data, var


def _binding(mask: list[bool]) -> tuple[list, list[np.ndarray]]:
    data, var = _case(mask)
    binding, err = _bind(_Prepared(Path("k.cpp"), None, "scatter_list", PARAMS, Path(".")), data, parse_opdef(OPDEF),
                         parse_pybind(PYBIND))
    assert err is None, err
    return binding, var


def test_the_dynamic_output_named_like_a_dynamic_input_is_its_ref() -> None:
    binding, _ = _binding([True, False])
    kinds = {n: (k, type(t).__name__) for k, n, t in binding}
    assert kinds["var"] == ("in", "TensorList") and kinds["varOut"] == ("out", "TensorList")
    assert _ref_outputs(binding, parse_opdef(OPDEF)) == {"varOut": "var"}


def test_a_list_of_other_sizes_is_no_ref() -> None:
    binding, _ = _binding([True, False])
    out = next(t for k, n, t in binding if n == "varOut")
    out.items[1].array = np.zeros((4, 9), np.float16)  # element 1 of another size: not the input's buffer
    assert _ref_outputs(binding, parse_opdef(OPDEF)) == {}


def test_the_manifest_output_elements_start_with_the_input_elements(tmp_path: Path) -> None:
    binding, var = _binding([True, False])
    raw = _manifest(_Prepared(Path("k.cpp"), None, "scatter_list", PARAMS, tmp_path), binding, {}, "ScatterList",
                    load_arch("Ascend910B2"), RunSettings(), tmp_path, parse_opdef(OPDEF))
    args = {a["name"]: a for a in raw["args"]}
    ins, outs = args["var"]["list"], args["varOut"]["list"]
    assert len(ins) == len(outs) == 2
    for k in range(2):
        assert outs[k]["init"] == ins[k]["input"]
        np.testing.assert_array_equal(np.load(outs[k]["init"]), var[k])
    assert "init" not in args["indice"]


def test_writing_nothing_is_no_cheat_when_the_op_leaves_the_ref_list_unchanged() -> None:
    opdef = parse_opdef(OPDEF)
    binding, _ = _binding([False, False])
    assert not anticheat.must_write(_outputs_and_initial(binding, opdef))
    binding, _ = _binding([False, True])  # element 1 changes: the kernel must write it
    assert anticheat.must_write(_outputs_and_initial(binding, opdef))


def test_must_write() -> None:
    a = np.arange(6, dtype=np.float32)
    assert anticheat.must_write([(a, None)])  # a fresh output buffer
    assert not anticheat.must_write([(a, a.copy())])
    b = a.copy()
    b[3] = -1
    assert anticheat.must_write([(a, a.copy()), (b, a)])
    nan = np.array([np.nan, 1.0])
    assert not anticheat.must_write([(nan, nan.copy())])  # NaN where it was NaN is unchanged
    assert anticheat.must_write([(a, a.astype(np.float64))])  # another dtype is not the same buffer content
    assert not anticheat.must_write([])


def test_the_no_write_rule_still_fails_a_fresh_output() -> None:
    blocks = [{"gm_read": 64, "gm_write": 0, "gm_scalar_read": 0, "gm_scalar_write": 0}]
    err, _ = anticheat.check_blocks(blocks, "k.cpp", has_inputs=True, has_outputs=True)
    assert err is not None and err.code == "BENCH-NO-WORK"
    err, _ = anticheat.check_blocks(blocks, "k.cpp", has_inputs=True, has_outputs=False)
    assert err is None
