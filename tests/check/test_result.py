"""The one typed check result: what crosses the worker's pipe reads back the same, statuses are an enum that reads
as its JSON value, the timeout policy is one function."""

from __future__ import annotations

import json

from akgen_lsp.check.result import CheckResult, Figures, Status, check_timeout
from akgen_lsp.findings import Finding, Span

FULL = {"task": "level1/Math/AddMath", "mode": "static", "status": "wrong_answer", "passed_cases": 1, "cases": 2,
        "estimate_us": 11.8, "baseline_us": 9.0, "speedup": 0.76, "bound": "HBM", "max_abs": 0.5, "max_rel": 0.1,
        "arch": "Ascend910B2", "estimate_label": "estimate", "timings": {"compile": 0.4}, "trace": None,
        "case_results": [{"case_id": 0, "status": "pass"}, {"case_id": 1, "status": "wrong_answer"}]}


def test_figures_read_back_as_they_were_written() -> None:
    figures = Figures.from_json(FULL)
    assert figures.status is Status.WRONG_ANSWER and figures.bound == "HBM"
    assert figures.to_json() == FULL and list(figures.to_json()) == list(FULL)  # the same keys, in the same order
    assert figures.to_json(leave_out=("timings", "trace")) == {k: v for k, v in FULL.items()
                                                                if k not in ("timings", "trace")}
    assert Figures.no_task("no such task").to_json() == {"task": None, "problem": "no such task"}
    assert Figures.no_task().to_json() == {"task": None}
    assert Figures.harness_error().to_json() == {"status": "harness_error", "task": None}
    assert Figures.from_json({"task": None}) == Figures.no_task()


def test_a_result_crosses_the_pipe_once_and_reads_back() -> None:
    finding = Finding("SIM-X", "bad", Span.point("/k.cpp", 3), source="akgen-run")
    result = CheckResult((finding,), Figures.from_json(FULL), 1.5)
    again = CheckResult.from_json(json.loads(json.dumps(result.to_json())), 1.5)
    assert again == result
    assert again.status == "wrong_answer" and f"{again.status}" == "wrong_answer" and str(again.status) == again.status
    assert again.passed == {0} and again.failing_case() == 1 and again.stage == 2 and again.compiles


def test_statuses_and_stages() -> None:
    assert Status.of("nonsense") is Status.UNKNOWN and Status.of(None) is None
    assert [Status.of(s).stage for s in ("compile_error", "runtime_error", "wrong_answer", "pass")] == [0, 1, 2, 3]
    # no status but a compile error: the check did not compile
    broken = CheckResult((Finding("CXX", "x", Span.point("/k.cpp", 1), source="akgen-build"),))
    assert broken.status is Status.COMPILE_ERROR and broken.summary() == "does not compile"


def test_the_timeout_policy() -> None:
    assert check_timeout(60.0) == 210.0
    assert check_timeout(10.0, steps=3 + 4) == 100.0  # dynamic shape: one step more per case
