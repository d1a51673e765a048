"""The pipeline on real kernels of the bundled suite (compiles are shared through the sim build cache)."""

from __future__ import annotations

from akgen_lsp.bench.pipeline import Candidate, RunSettings, evaluate, kernel_entry
from akgen_lsp.bench.tasks import Task

FP16_CASES = (0, 1, 2, 3)  # fp16: [48, 128, 64], [1000], [3, 7, 33], [1]


def _answer(task: Task) -> Candidate:
    a = task.answers[0]
    return Candidate(task.id, 0, a.kernel, a.host.parent if a.host else None)


def test_kernel_entry() -> None:
    src = 'extern "C" __global__ __aicore__ void add(GM_ADDR x, GM_ADDR y, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)'
    assert kernel_entry(src, "add") == ("add", ["x", "y", "z", "workspace", "tiling"])
    assert kernel_entry("int main() {}") is None


def test_reference_answer_passes_in_both_modes(add_task: Task) -> None:
    for mode in ("dynamic", "static"):
        rec = evaluate(add_task, _answer(add_task), RunSettings(mode=mode, case_ids=FP16_CASES))
        assert rec["status"] == "pass", rec["findings"]
        assert rec["passed_cases"] == rec["cases"] == 4
        assert rec["compiled"] and rec["ran"] and rec["correct"]
        assert rec["estimate_us"] and rec["baseline_us"] and rec["speedup"]
        assert rec["timings"]["total"] >= rec["timings"]["compile"] + rec["timings"]["run"]


def test_wrong_kernel_fails_with_max_error_and_first_bad_index(task_copy) -> None:
    task = task_copy()
    k = task.answers[0].kernel
    k.write_text(k.read_text().replace("Add(fz, f[0], f[1], calc);", "Sub(fz, f[0], f[1], calc);"))
    rec = evaluate(task, _answer(task), RunSettings(mode="dynamic", case_ids=(1,)))
    assert rec["status"] == "wrong_answer" and rec["error_class"] == "precision"
    f = next(f for f in rec["findings"] if f["code"] == "BENCH-PRECISION")
    assert f["source"] == "akgen-run"
    assert "max abs error" in f["message"] and "first bad element z[" in f["message"]
    assert f["data"]["first_bad"] is not None and f["data"]["max_abs"] > 0.01


def test_stop_at_failure_runs_no_case_after_the_first_that_fails(task_copy) -> None:
    """What the synthesis of mutants asks (a mutant is kept once it fails): the same wrong kernel on two cases
    stops after the first; the bench's default runs both."""
    task = task_copy()
    k = task.answers[0].kernel
    k.write_text(k.read_text().replace("Add(fz, f[0], f[1], calc);", "Sub(fz, f[0], f[1], calc);"))
    rec = evaluate(task, _answer(task), RunSettings(mode="dynamic", case_ids=(1, 3), stop_at_failure=True))
    assert rec["status"] == "wrong_answer" and [c["case_id"] for c in rec["case_results"]] == [1]
    every = evaluate(task, _answer(task), RunSettings(mode="dynamic", case_ids=(1, 3)))
    assert [c["status"] for c in every["case_results"]] == ["wrong_answer", "wrong_answer"]


def test_required_cases_run_first_and_nothing_runs_after_one_fails(task_copy) -> None:
    """What a repair's verification asks (the cases it must pass): case 3 runs before case 1, and the wrong kernel
    stops there (one build, one run), where the bench's default would run both."""
    task = task_copy()
    k = task.answers[0].kernel
    k.write_text(k.read_text().replace("Add(fz, f[0], f[1], calc);", "Sub(fz, f[0], f[1], calc);"))
    rec = evaluate(task, _answer(task), RunSettings(mode="dynamic", case_ids=(1, 3), required=(3,)))
    assert rec["status"] == "wrong_answer" and [c["case_id"] for c in rec["case_results"]] == [3]
    assert rec["cases"] == 2


def test_kernel_that_moves_no_data_fails_anti_cheat(task_copy) -> None:
    task = task_copy()
    k = task.answers[0].kernel
    text = k.read_text()
    # compute nothing and copy nothing: remove every data movement
    body = text.split("extern \"C\"")[0]
    cheat = ('#include "kernel_operator.h"\nextern "C" __global__ __aicore__ void add_math(GM_ADDR x, GM_ADDR y, '
             "GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)\n{\n}\n")
    assert body
    k.write_text(cheat)
    rec = evaluate(task, _answer(task), RunSettings(mode="dynamic", case_ids=(1,)))
    assert rec["status"] == "no_work" and rec["error_class"] == "precision"


def test_parse_error_and_dynamic_needs_host(add_task: Task) -> None:
    rec = evaluate(add_task, Candidate(add_task.id, 3, text="no code here"), RunSettings(case_ids=(1,)))
    assert rec["status"] == "parse_error" and not rec["parsed"]
    kernel_only = Candidate(add_task.id, 0, add_task.answers[0].kernel, None)
    rec = evaluate(add_task, kernel_only, RunSettings(mode="dynamic", case_ids=(1,)))
    assert rec["status"] == "parse_error" and "dynamic mode needs" in rec["findings"][0]["message"]


def test_compile_error_is_reported_at_the_user_line(task_copy) -> None:
    task = task_copy()
    k = task.answers[0].kernel
    k.write_text(k.read_text().replace("Add(fz, f[0], f[1], calc);", "AddTypo(fz, f[0], f[1], calc);"))
    rec = evaluate(task, _answer(task), RunSettings(mode="dynamic", case_ids=(1,)))
    assert rec["status"] == "compile_error" and not rec["compiled"]
    assert any(f["path"].endswith("add_math.cpp") and f["line"] > 1 for f in rec["findings"])


def test_model_answer_text_with_dynamic_sections(add_task: Task) -> None:
    a = add_task.answers[0]
    text = ("<think>plan the tiling</think>\nHere is the operator.\n"
            f"================== op_host/add_math_tiling.h ==================\n```cpp\n{a.tiling_header.read_text()}```\n"
            f"================== op_host/add_math.cpp ==================\n```cpp\n{a.host.read_text()}```\n"
            f"================== op_kernel/add_math.cpp ==================\n```cpp\n{a.kernel.read_text()}```\n")
    rec = evaluate(add_task, Candidate(add_task.id, 7, text=text), RunSettings(mode="dynamic", case_ids=(1, 2)))
    assert rec["status"] == "pass", rec["findings"]
    assert rec["sample"] == 7 and rec["passed_cases"] == 2
