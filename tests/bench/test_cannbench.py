"""The cann-bench harness: a task's proto.yaml becomes the kernel's call, golden.py its reference (in the box), and
a kernel answer is run on the simulator and scored. The answers are akgen's own (tests/bench/cannbench_answers)."""

from __future__ import annotations

import importlib.util
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from akgen_lsp.bench.cannbench import answers_in, check_references, materialize, plan, run_answers
from akgen_lsp.bench.other_suites import load_cann_bench
from akgen_lsp.bench.tasks import TaskError, load_task

pytest.importorskip("yaml")

ANSWERS = Path(__file__).resolve().parent / "cannbench_answers"

PROTO = """operator:
  name: {name}
  category: Activation
  inputs:
  - {{name: x, dtype: [float16, float32]}}
  outputs:
  - {{name: y, dtype: [float16, float32]}}
  attrs: {attrs}
"""
GOLDEN = '''import torch


def {op}(x{params}):
    return torch.sigmoid(x.float()).to(x.dtype)
'''
CASES = ('operator,case_id,input_shape,dtype,attrs,value_range\n'
         'Sigmoid,1,"[[3, 100]]","[""float32""]","{}","[-4, 4]"\n'
         'Sigmoid,2,"[[2, 64]]","[""float16""]","{}","[-4, 4]"\n'
         'Sigmoid,3,"[[4096, 4096]]","[""float16""]","{}","[-4, 4]"\n')


def _task(checkout: Path, level: int, op: str, attrs: str = "[]", params: str = "") -> Path:
    root = checkout / "tasks" / f"level{level}" / op
    root.mkdir(parents=True)
    (root / "proto.yaml").write_text(PROTO.format(name="Sigmoid", attrs=attrs), encoding="utf-8")
    (root / "golden.py").write_text(GOLDEN.format(op=op, params=params), encoding="utf-8")
    (root / "cases.csv").write_text(CASES, encoding="utf-8")
    (root / "desc.md").write_text("y = 1 / (1 + e^-x)\n", encoding="utf-8")
    return root


def test_proto_yaml_becomes_the_kernel_call_and_an_npukernelbench_task(tmp_path: Path) -> None:
    _task(tmp_path, 1, "sigmoid")
    _task(tmp_path, 2, "sigmoid_alpha", attrs="[{name: alpha, type: float, default: 1.0}, "
          "{name: mode, type: str, default: none}]", params=", alpha=1.0, mode='none'")
    _task(tmp_path, 3, "sigmoid_list", attrs="[{name: scales, type: ListFloat}]", params=", scales=(1.0,)")
    loaded, _ = load_cann_bench(tmp_path)
    plans = {t.op: plan(t) for t in loaded}
    assert plans["sigmoid"].problem is None and plans["sigmoid"].op == "sigmoid_custom"
    assert plans["sigmoid_alpha"].attrs == (("alpha", "double", 1.0), ("mode", "std::string", "none"))
    assert plans["sigmoid_alpha"].golden_keywords
    assert "ListFloat" in str(plans["sigmoid_list"].problem)
    with pytest.raises(TaskError, match="ListFloat"):
        materialize(plans["sigmoid_list"], tmp_path / "suite")

    root, left_out = materialize(plans["sigmoid_alpha"], tmp_path / "suite", max_elements=1 << 20)
    assert left_out == [3]  # 16 Mi elements: counted, not run
    task = load_task(root)
    assert task.op == "sigmoid_alpha_custom" and [c.case_id for c in task.cases()] == [1, 2]
    pybind = (root / "validation/pybind.cpp").read_text(encoding="utf-8")
    assert "custom_pybind_api(at::Tensor &x, double alpha, std::string mode)" in pybind
    assert "EXEC_NPU_CMD(aclnnSigmoidAlphaCustom, x, alpha, mode.c_str(), y);" in pybind
    entry = (root / "question/op_kernel/sigmoid_alpha_custom.cpp").read_text(encoding="utf-8")
    assert "void sigmoid_alpha_custom(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)" in entry
    # the golden file is the task's own, beside the generated module that calls it
    assert (root / "validation/golden.py").read_text(encoding="utf-8") == (
        tmp_path / "tasks/level2/sigmoid_alpha/golden.py").read_text(encoding="utf-8")


def test_answers_are_found_by_level_and_op() -> None:
    found = answers_in(ANSWERS)
    assert {"level1/sigmoid", "level1/exp", "level2/softmax"} <= set(found)
    assert (found["level1/exp"] / "op_host/exp_custom.cpp").is_file()


def test_a_right_and_a_wrong_answer_run_on_the_simulator(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    checkout = tmp_path / "cann-bench"
    _task(checkout, 1, "sigmoid")
    _task(checkout, 2, "sigmoid")
    (checkout / "tasks/metadata").mkdir()
    (checkout / "tasks/metadata/910b2.json").write_text(json.dumps(
        {"level1": {"sigmoid": {"1": {"baseline_perf_us": 5.0}, "2": {"baseline_perf_us": 5.0}}}}), encoding="utf-8")
    answers = tmp_path / "answers"
    shutil.copytree(ANSWERS / "level1/sigmoid", answers / "level1/sigmoid")
    shutil.copytree(ANSWERS / "level1/sigmoid", answers / "level2/sigmoid")
    wrong = answers / "level2/sigmoid/op_kernel/sigmoid_custom.cpp"
    text = wrong.read_text(encoding="utf-8")
    assert "Muls(t, f, -1.0f, calc);" in text
    wrong.write_text(text.replace("Muls(t, f, -1.0f, calc);", "Muls(t, f, 1.0f, calc);"), encoding="utf-8")

    report = run_answers(checkout, answers, tmp_path / "out", max_elements=1 << 20, jobs=1)
    right, bad = report["tasks"]["level1/sigmoid"], report["tasks"]["level2/sigmoid"]
    assert right["compiled"] and right["passed"] == 2 and right["failed"] == {} and right["left_out_for_size"] == [3]
    assert set(right["estimate_us"]) == {1, 2}
    speedup = sum(5.0 / right["estimate_us"][c] for c in (1, 2))
    assert right["score_estimated"] == pytest.approx(2 + 2 * 3 + 5 * speedup, abs=0.01)
    assert bad["compiled"] and bad["passed"] == 0 and bad["failed"]
    assert bad["score_estimated"] == 2.0  # it compiles, no case passes


def test_which_tasks_can_be_run_and_the_command_line(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    _task(tmp_path, 1, "sigmoid")
    _task(tmp_path, 2, "sigmoid_list", attrs="[{name: scales, type: ListFloat}]", params=", scales=(1.0,)")
    _list_task(tmp_path)
    refs = check_references(tmp_path, tmp_path / "refs")
    assert refs["level1/sigmoid"] == "ok"  # golden.py computed the smallest case in the box
    assert "ListFloat" in refs["level2/sigmoid_list"]
    assert refs["level3/list_add"] == "ok"  # a tensor list, an absent optional input, an int-list attr
    cli = [sys.executable, "-m", "akgen_lsp", "bench", "cann-bench", str(tmp_path)]
    out = subprocess.run(cli, capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and "--answers DIR" in out.stderr
    out = subprocess.run([sys.executable, "-m", "akgen_lsp", "bench", "mkb-examples", str(tmp_path), "--size", "x"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and "op:name=value" in out.stderr


LIST_PROTO = """operator:
  name: ListAdd
  inputs:
  - {name: xs, dtype: [float32], is_list: true}
  - {name: bias, dtype: [float32], optional: true}
  outputs:
  - {name: y, dtype: [float32]}
  attrs:
  - {name: dims, type: "int[]", default: [0]}
"""
LIST_GOLDEN = '''from typing import List, Optional

import torch


def list_add(xs: List[torch.Tensor], bias: Optional[torch.Tensor] = None, dims: list = (0,)):
    y = sum(xs)
    return (y if bias is None else y + bias).flip(list(dims))
'''
# the optional bias: a null placeholder (case 1) or left off the end (case 3)
LIST_CASES = """cases:
- {operator: ListAdd, case_id: 1, input_shape: [[[2, 8], [2, 8]], null], dtype: [float32, null],
   attrs: {dims: [1]}, value_range: [[-1, 1], null]}
- {operator: ListAdd, case_id: 2, input_shape: [[[2, 8], [2, 8], [2, 8]], [8]], dtype: [float32, float32],
   attrs: {dims: [0]}, value_range: [[-1, 1], [5, 6]]}
- {operator: ListAdd, case_id: 3, input_shape: [[[4, 8]]], dtype: [float32], attrs: {dims: [0, 1]},
   value_range: [-1, 1]}
"""


def _list_task(checkout: Path, cases: str = LIST_CASES) -> Path:
    root = checkout / "tasks/level3/list_add"
    root.mkdir(parents=True)
    (root / "proto.yaml").write_text(LIST_PROTO, encoding="utf-8")
    (root / "golden.py").write_text(LIST_GOLDEN, encoding="utf-8")
    (root / "cases.yaml").write_text(cases, encoding="utf-8")
    return root


def test_tensor_lists_optional_inputs_and_int_list_attrs_map(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    _list_task(tmp_path)
    [task], _ = load_cann_bench(tmp_path)
    p = plan(task)
    assert p.problem is None and p.lists == ("xs",) and p.optional == ("bias",)
    assert p.attrs == (("dims", "at::IntArrayRef", [0]),)
    root, _ = materialize(p, tmp_path / "suite")
    pybind = (root / "validation/pybind.cpp").read_text(encoding="utf-8")
    assert "custom_pybind_api(at::TensorList xs, c10::optional<at::Tensor> &bias_opt, at::IntArrayRef dims)" in pybind
    assert "at::Tensor bias = bias_opt.has_value() ? bias_opt.value() : at::Tensor();" in pybind
    assert "aclIntArray *dims_array = ConvertType(dims);" in pybind
    assert "EXEC_NPU_CMD(aclnnListAddCustom, xs, bias, dims_array, y);" in pybind
    entry = (root / "question/op_kernel/list_add_custom.cpp").read_text(encoding="utf-8")
    assert "void list_add_custom(GM_ADDR xs, GM_ADDR bias, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)" in entry

    spec = importlib.util.spec_from_file_location("prepare_inputs", root / "validation/prepare_inputs.py")
    assert spec is not None and spec.loader is not None
    prepare = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(prepare)
    rows = {int(c.case_id): c for c in load_task(root).cases()}
    xs, bias, dims = prepare.get_inputs(rows[1])
    assert [tuple(t.shape) for t in xs] == [(2, 8), (2, 8)] and bias is None and dims == [1]
    assert all(t.dtype == torch.float32 and -1 <= float(t.min()) <= float(t.max()) <= 1 for t in xs)
    xs, bias, dims = prepare.get_inputs(rows[2])
    assert len(xs) == 3 and tuple(bias.shape) == (8,) and float(bias.min()) >= 5 and dims == [0]
    xs, bias, dims = prepare.get_inputs(rows[3])  # the optional input left off the end
    assert [tuple(t.shape) for t in xs] == [(4, 8)] and bias is None and dims == [0, 1]


def test_a_case_without_a_shape_for_a_required_input_is_said(tmp_path: Path) -> None:
    _list_task(tmp_path, cases=LIST_CASES.replace("[[[4, 8]]]", "[]"))
    [task], _ = load_cann_bench(tmp_path)
    assert plan(task).problem == "case 3: no shape for input xs, which is not optional"


def test_golden_get_input_remakes_the_drawn_inputs_as_cann_bench_does(tmp_path: Path) -> None:
    torch = pytest.importorskip("torch")
    root = _task(tmp_path, 2, "sigmoid_scaled", attrs="[{name: scale, type: float}]", params=", scale=2.0")
    # as scatter's get_input: the drawn tensors and the case's attrs by name, the inputs back in golden's order
    (root / "golden.py").write_text(GOLDEN.format(op="sigmoid_scaled", params=", scale=2.0") + (
        "\n\ndef get_input(x, scale=2.0, **kwargs):\n"
        "    assert kwargs['skip2_exist'] is True\n"
        "    return (torch.full_like(x, scale),)\n"), encoding="utf-8")
    [task], _ = load_cann_bench(tmp_path)
    p = plan(task)
    assert p.get_input and p.attrs == (("scale", "double", 2.0),)  # the default from golden.py's signature
    root, _ = materialize(p, tmp_path / "suite")
    spec = importlib.util.spec_from_file_location("prepare_inputs", root / "validation/prepare_inputs.py")
    assert spec is not None and spec.loader is not None
    prepare = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(prepare)
    x, scale = prepare.get_inputs(next(iter(load_task(root).cases())))
    assert scale == 2.0 and x.shape == (3, 100) and bool((x == 2.0).all()) and x.dtype == torch.float32
