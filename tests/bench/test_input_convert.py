"""The op gets what the task's own test hands it: ModelNew's call, also when ModelNew converts get_inputs' tensors
before calling the op (StridesliceNegConcatV2's ``input = input.to(torch.float16)``)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.bench.compare import Tolerance
from akgen_lsp.bench.pipeline.binding import _bind, _converted_by_model
from akgen_lsp.bench.pipeline.manifest import _defines
from akgen_lsp.bench.pipeline.parse import _Prepared
from akgen_lsp.bench.reference import CaseData, Tensor, load_case
from akgen_lsp.bench.signature import parse_pybind
from akgen_lsp.bench.tasks import Case, load_task

PYBIND = """
at::Tensor custom_pybind_api(at::Tensor &input1)
{
    at::Tensor result = torch::empty_like(input1);
    EXEC_NPU_CMD(aclnnCustomOp, input1, result);
    return result;
}
"""


def _prep() -> _Prepared:
    return _Prepared(Path("k.cpp"), None, "neg_half", ["x", "y", "workspace", "tiling"], Path("."))


def _case(x32: np.ndarray, view: np.ndarray | None) -> CaseData:
    out = Tensor("out0", np.zeros(x32.shape, np.float16), "float16")
    data = CaseData(Case({"case_id": 0}), [Tensor("in0", x32, "float32", index=0)], {}, [out], Tolerance(),
                    n_raw=1)
    if view is not None:
        data.call_view = ([Tensor("in0", view, str(view.dtype), index=0)], {}, 1)
    return data


def test_an_input_model_new_converts_reaches_the_op_converted() -> None:
    x32 = np.linspace(-2, 2, 64, dtype=np.float32).reshape(4, 16)
    data = _case(x32, x32.astype(np.float16))
    binding, err = _bind(_prep(), data, None, parse_pybind(PYBIND))
    assert err is None
    (kind, name, t), out = binding[0], binding[1]
    assert (kind, name, t.dtype, t.array.dtype) == ("in", "x", "float16", np.float16)
    np.testing.assert_array_equal(t.array, x32.astype(np.float16))
    assert out[0] == "out" and out[2].dtype == "float16"
    assert _defines(binding)["DTYPE_X"] == "half"  # the kernel is built for the dtype the op really gets


def test_an_input_model_new_passes_through_keeps_get_inputs_tensor() -> None:
    x32 = np.arange(8, dtype=np.float32)
    data = _case(x32, x32.copy())
    original = data.inputs[0]
    binding, err = _bind(_prep(), data, None, parse_pybind(PYBIND))
    assert err is None and binding[0][2] is original and binding[0][2].dtype == "float32"


def test_a_view_of_another_structure_is_not_a_conversion() -> None:
    x32 = np.arange(8, dtype=np.float32)
    data = _case(x32, None)
    # ModelNew adds a tensor (an init weight): not a conversion of get_inputs' arguments
    data.call_view = ([Tensor("in0", x32, "float32", index=0), Tensor("in1", x32, "float32", index=1)], {}, 2)
    view = CaseData(data.case, list(data.call_view[0]), {}, data.outputs, Tolerance(), n_raw=2)
    assert not _converted_by_model(data, view)
    # same structure, other values (ModelNew scales the input before the call): a conversion
    scaled = CaseData(data.case, [Tensor("in0", x32 * 2, "float32", index=0)], {}, data.outputs, Tolerance(),
                      n_raw=1)
    assert _converted_by_model(data, scaled)


MODULE = '''
import torch
import torch.nn as nn
import kernel_gen_ops


class Model(nn.Module):
    def forward(self, x):
        x = x.to(torch.float16)
        return -x


class ModelNew(nn.Module):
    def forward(self, x):
        x = x.to(torch.float16)
        return kernel_gen_ops.neg_half(x)
'''

PREPARE = '''
import torch


def get_inputs(param, device=None):
    return (torch.randn(eval(param["shape"]), dtype=getattr(torch, param["dtype"])),)
'''


def test_the_case_records_the_converted_call(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    root = tmp_path / "tasks" / "level1" / "Own" / "NegHalf"
    (root / "validation").mkdir(parents=True)
    (root / "validation" / "module.py").write_text(textwrap.dedent(MODULE))
    (root / "validation" / "prepare_inputs.py").write_text(textwrap.dedent(PREPARE))
    (root / "validation" / "test_cases.csv").write_text("case_id;shape;dtype\n0;[4, 8];float32\n")
    (root / "validation" / "pybind.cpp").write_text(PYBIND)
    task = load_task(root)
    data = load_case(task, task.cases()[0])
    assert data.inputs[0].dtype == "float32" and data.outputs[0].dtype == "float16"
    assert data.call_view is not None and data.call_view[0][0].dtype == "float16"
    binding, err = _bind(_prep(), data, None, parse_pybind(PYBIND))
    assert err is None and binding[0][2].dtype == "float16"
    # the kernel's input, negated, is the reference exactly (the reference converts the same way)
    np.testing.assert_array_equal(-binding[0][2].array, data.outputs[0].array)


REF_OPDEF = """
this->Input("var").DataType({ge::DT_FLOAT});
this->Input("value").DataType({ge::DT_FLOAT});
this->Output("var").DataType({ge::DT_FLOAT});
"""


def test_a_ref_output_starts_with_its_input(tmp_path: Path) -> None:
    """An OpDef output named like an input (StridedSliceAssignV2's var) is the input's buffer on CANN: the kernel's
    output parameter gets the input's values as its initial content, and stays an output."""
    from akgen_lsp.ascendc.arch import load_arch
    from akgen_lsp.bench.pipeline import RunSettings
    from akgen_lsp.bench.pipeline.manifest import _manifest, _ref_outputs
    from akgen_lsp.bench.signature import parse_opdef

    var = np.arange(12, dtype=np.float32)
    value = np.ones(4, np.float32)
    data = CaseData(Case({"case_id": 0}), [Tensor("in0", var, "float32", index=0),
                                           Tensor("in1", value, "float32", index=1)],
                    {}, [Tensor("out0", np.zeros(12, np.float32), "float32")], Tolerance(), n_raw=2)
    prep = _Prepared(Path("k.cpp"), None, "assign", ["var", "value", "var_out"], tmp_path)
    opdef = parse_opdef(REF_OPDEF)
    binding, err = _bind(prep, data, opdef, None)
    assert err is None and [(k, n) for k, n, _ in binding] == [("in", "var"), ("in", "value"), ("out", "var_out")]
    assert _ref_outputs(binding, opdef) == {"var_out": "var"}
    raw = _manifest(prep, binding, {}, "Assign", load_arch("Ascend910B2"), RunSettings(), tmp_path, opdef)
    out = next(a for a in raw["args"] if a["name"] == "var_out")
    assert out["init"] == str(tmp_path / "var.npy") and "input" not in out
    np.testing.assert_array_equal(np.load(out["init"]), var)
    # an output of another size is not a ref of that input
    data.outputs[0].array = np.zeros(6, np.float32)
    assert _ref_outputs(binding, opdef) == {}
