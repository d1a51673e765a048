"""The cann-bench harness: a task's proto.yaml becomes the kernel's call, golden.py its reference (in the box), and
a kernel answer is run on the simulator and scored. The answers are akgen's own (tests/bench/cannbench_answers)."""

from __future__ import annotations

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
    _task(tmp_path, 3, "sigmoid_list", attrs="[{name: dims, type: ListInt, default: [0]}]", params=", dims=(0,)")
    loaded, _ = load_cann_bench(tmp_path)
    plans = {t.op: plan(t) for t in loaded}
    assert plans["sigmoid"].problem is None and plans["sigmoid"].op == "sigmoid_custom"
    assert plans["sigmoid_alpha"].attrs == (("alpha", "double", 1.0), ("mode", "std::string", "none"))
    assert plans["sigmoid_alpha"].golden_keywords
    assert "ListInt" in str(plans["sigmoid_list"].problem)
    with pytest.raises(TaskError, match="ListInt"):
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
    _task(tmp_path, 2, "sigmoid_list", attrs="[{name: dims, type: ListInt, default: [0]}]", params=", dims=(0,)")
    refs = check_references(tmp_path, tmp_path / "refs")
    assert refs["level1/sigmoid"] == "ok"  # golden.py computed the smallest case in the box
    assert "ListInt" in refs["level2/sigmoid_list"]
    cli = [sys.executable, "-m", "akgen_lsp", "bench", "cann-bench", str(tmp_path)]
    out = subprocess.run(cli, capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and "--answers DIR" in out.stderr
    out = subprocess.run([sys.executable, "-m", "akgen_lsp", "bench", "mkb-examples", str(tmp_path), "--size", "x"],
                         capture_output=True, text=True, timeout=120)
    assert out.returncode == 2 and "op:name=value" in out.stderr
