"""Tensor lists through the bench harness: a task in the NPUKernelBench layout that passes List[tensor] (our own
fixture, tests/bench/fixtures/tensorlist_suite) maps each list to one kernel parameter, runs its host TilingFunc on
the list's shapes, and compares every output tensor of the list."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np

from akgen_lsp.bench.pipeline import Candidate, RunSettings, evaluate
from akgen_lsp.bench.reference import Tensor, load_case
from akgen_lsp.bench.tasks import Task, load_task
from akgen_lsp.bench.tensorlist import TensorList, fit_plan, list_output, make_list, output_list

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "tensorlist_suite" / "tasks" / "level2" / "Foreach" / "ListScale"


def _answer(task: Task) -> Candidate:
    a = task.answers[0]
    return Candidate(task.id, 0, a.kernel, a.host.parent if a.host else None)


def _convert(x: object) -> tuple[np.ndarray, str] | None:
    return (x, str(x.dtype)) if isinstance(x, np.ndarray) else None


def test_case_data_holds_one_list_input_and_one_list_output() -> None:
    task = load_task(FIXTURE)
    data = load_case(task, task.cases()[0])
    assert isinstance(data.inputs[0], TensorList) and isinstance(data.outputs[0], TensorList)
    assert data.inputs[0].shapes == [(5,), (3, 7), (64,)]
    assert isinstance(data.inputs[1], Tensor) and data.inputs[1].array.size == 1
    # the list's array is its elements flattened and concatenated (what byte counts and comparisons see)
    assert data.outputs[0].array.size == 5 + 21 + 64


def test_list_answer_passes_and_a_wrong_element_fails(tmp_path: Path) -> None:
    task = load_task(FIXTURE)
    rec = evaluate(task, _answer(task), RunSettings(mode="dynamic"))
    assert rec["status"] == "pass", rec["findings"]
    assert rec["passed_cases"] == rec["cases"] == 2

    root = tmp_path / "tasks" / "level2" / "Foreach" / "ListScale"
    shutil.copytree(FIXTURE, root)
    broken = load_task(root)
    k = broken.answers[0].kernel
    # the last tensor of each core is scaled twice: only some list elements are wrong
    k.write_text(k.read_text().replace("Muls(b, a, s, len);", "Muls(b, a, k + GetBlockNum() >= t.tensorCount ? s * s : s, len);"))
    rec = evaluate(broken, _answer(broken), RunSettings(mode="dynamic", case_ids=(0,)))
    assert rec["status"] == "wrong_answer", rec["findings"]
    assert any(f["code"] == "BENCH-PRECISION" for f in rec["findings"])


def test_list_output_needs_matching_list_input() -> None:
    xs = [np.zeros((2, 3), np.float32), np.zeros(4, np.float32)]
    assert list_output([np.ones((2, 3), np.float32), np.ones(4, np.float32)], [xs], _convert)
    assert list_output([np.array(1, np.float32), np.ones((), np.float32)], [xs], _convert)  # per-tensor norms
    assert not list_output([np.ones(10, np.float32), np.ones(1, np.float32)], [xs], _convert)  # concat + flag
    assert not list_output((np.ones((2, 3), np.float32), np.ones(4, np.float32)), [xs], _convert)  # a tuple
    tl = make_list("x", xs, _convert, Tensor)
    tl.name = "inputs"
    assert [t.name for t in tl.items] == ["inputs[0]", "inputs[1]"] and tl.dtype == "float32"


class _Param:
    def __init__(self, name: str, param_type: str) -> None:
        self.name = name
        self.param_type = param_type


class _OpDef:
    def __init__(self, *inputs: tuple[str, str]) -> None:
        self.inputs = [_Param(n, p) for n, p in inputs]


class _Data:
    def __init__(self, inputs: list, outputs: list, attrs: dict, n_raw: int) -> None:
        self.inputs, self.outputs, self.attrs, self.n_raw = inputs, outputs, attrs, n_raw


def _list(name: str, shapes: list[tuple[int, ...]], index: int = -1) -> TensorList:
    return make_list(name, [np.zeros(s, np.float32) for s in shapes], _convert, Tensor, index=index)


def test_fit_plan_binds_a_number_as_a_tensor_in_opdef_order() -> None:
    xs = _list("in0", [(4,), (2, 2)], index=0)
    ys = _list("out0", [(4,), (2, 2)])
    data = _Data([xs], [ys], {"in1": 2.5}, n_raw=2)
    plan = [("in", xs), ("out", ys)]
    # kernel(scalar, x, y, workspace, tiling): the OpDef puts the scalar first
    new = fit_plan(data, plan, 5, Tensor, _OpDef(("scalar", "REQUIRED"), ("x", "DYNAMIC")))
    assert new is not None and [k for k, _ in new] == ["in", "in", "out"]
    scalar = new[0][1]
    assert isinstance(scalar, Tensor) and scalar.dtype == "float32" and scalar.array.tolist() == [2.5]
    assert new[1][1] is xs and new[2][1] is ys
    # without an OpDef the get_inputs order stays
    new = fit_plan(data, plan, 5, Tensor)
    assert new is not None and new[0][1] is xs


def test_fit_plan_writes_in_place_into_the_matching_inputs() -> None:
    grads = _list("in0", [(3,), (5,)], index=0)
    found = Tensor("in1", np.zeros(1, np.float32), "float32", index=1)
    scale = Tensor("in2", np.ones(1, np.float32), "float32", index=2)
    flat = Tensor("out0", np.zeros(8, np.float32), "float32")  # the grads concatenated
    flag = Tensor("out1", np.zeros(1, np.float32), "float32")
    data = _Data([grads, found, scale], [flat, flag], {}, n_raw=3)
    plan = [("in", t) for t in data.inputs] + [("out", t) for t in data.outputs]
    new = fit_plan(data, plan, 5, Tensor)  # kernel(scaled_grads, found_inf, inv_scale, workspace, tiling)
    assert new is not None and [k for k, _ in new] == ["inout", "inout", "in"]
    assert grads.expected is flat and found.expected is flag
    assert fit_plan(data, plan, 7, Tensor) is None  # 5 tensors + workspace + tiling: the plain plan fits


def test_output_list_is_written_in_the_paired_input_dtype() -> None:
    xs = [np.zeros((2, 3), np.float16), np.zeros(4, np.float16)]
    ref = [np.ones((2, 3), np.float32), np.ones(4, np.float32)]  # a float32 scalar tensor promoted the reference
    tl = output_list("y", ref, [xs], _convert, Tensor)
    assert tl.dtype == "float32" and tl.write_dtype == "float16"
    assert output_list("y", [np.ones((2, 3), np.float16), np.ones(4, np.float16)], [xs], _convert,
                       Tensor).write_dtype is None
