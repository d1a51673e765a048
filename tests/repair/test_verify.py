"""The bars a fix and a model repair must pass (`repair.verify`), on check outcomes."""

from __future__ import annotations

from akgen_lsp.check.result import CheckResult, Figures
from akgen_lsp.findings import Finding, Severity, Span
from akgen_lsp.repair.verify import repairable, required_cases, verify_fix, verify_repair

TEXT = "l1\nl2\nl3 Addd(x)\nl4\n"


def _err(code: str, line: int, message: str, source: str = "akgen-build") -> Finding:
    return Finding(code, message, Span.point("k.cpp", line, 3), source=source)


def _outcome(status: str, *findings: Finding, passed: tuple[int, ...] = (), cases: int = 2,
             estimate: float | None = None) -> CheckResult:
    results = [{"case_id": i, "status": "pass" if i in passed else "wrong_answer"} for i in range(cases)]
    return CheckResult(tuple(findings), Figures.from_json({"status": status, "task": "t", "cases": cases,
                                                          "case_results": results, "passed_cases": len(passed),
                                                          "estimate_us": estimate}))


ADDD = _err("CXX", 3, "'Addd' is not a member of 'AscendC'; did you mean 'Adds'?")
BEFORE = _outcome("compile_error", ADDD)


def test_a_fix_that_gets_the_kernel_further_verifies() -> None:
    after = _outcome("pass", passed=(0, 1), estimate=3.25)
    v = verify_fix(ADDD, BEFORE, after, TEXT, TEXT.replace("Addd", "Add"))
    assert v.ok and v.reason == "compiles, 2/2 cases pass, est. 3.2 us"


def test_the_same_error_at_the_moved_line_is_still_there() -> None:
    fixed = "inserted\n" + TEXT.replace("Addd", "Adde")
    after = _outcome("compile_error", _err("CXX", 4, "'Adde' is not a member of 'AscendC'"))
    v = verify_fix(ADDD, BEFORE, after, TEXT, fixed)
    assert not v.ok and "still there" in v.reason


def test_a_new_error_or_a_lost_case_fails() -> None:
    other = _err("CXX", 3, "no matching function for call to 'Adds(int&)'")
    v = verify_fix(ADDD, BEFORE, _outcome("compile_error", other), TEXT, TEXT.replace("Addd", "Adds"))
    assert not v.ok and "new error" in v.reason
    wrong = _err("BENCH-PRECISION", 1, "wrong result for case 1", source="akgen-bench")
    before = _outcome("wrong_answer", wrong, passed=(0,))
    v = verify_fix(wrong, before, _outcome("runtime_error", _err("SIM-UB-OOB", 2, "out of bounds", "akgen-run")),
                   TEXT, TEXT + "x\n")
    assert not v.ok and "case 0 passed before" in v.reason


def test_an_error_removed_with_others_left_verifies_and_says_so() -> None:
    other = _err("CXX", 1, "'xLocl' was not declared in this scope")
    before = _outcome("compile_error", ADDD, other)
    v = verify_fix(ADDD, before, _outcome("compile_error", other), TEXT, TEXT.replace("Addd", "Add"))
    assert v.ok and v.reason == "removes this error (1 other error left)"


def test_a_model_repair_must_pass_the_failing_case_and_keep_the_others() -> None:
    wrong = _err("BENCH-PRECISION", 1, "wrong result for case 1: max abs error 3", source="akgen-bench")
    before = _outcome("wrong_answer", wrong, passed=(0,))
    fixed = TEXT + "fixed\n"
    assert verify_repair(wrong, before, _outcome("pass", passed=(0, 1)), TEXT, fixed).ok
    still = verify_repair(wrong, before, _outcome("wrong_answer", _err("BENCH-PRECISION", 1, "wrong result for case 1:"
                                                                      " max abs error 9", source="akgen-bench"),
                                                  passed=(0,)), TEXT, fixed)
    assert not still.ok and "still there" in still.reason
    lost = verify_repair(wrong, before, _outcome("wrong_answer", passed=(1,)), TEXT, fixed)
    assert not lost.ok and "case 0 passed before" in lost.reason
    assert not verify_repair(ADDD, BEFORE, _outcome("compile_error", _err("CXX", 2, "x")), TEXT, fixed).ok


def test_the_cases_a_repair_must_pass_and_a_check_that_stopped_at_one() -> None:
    wrong = _err("BENCH-PRECISION", 1, "wrong result for case 2", source="akgen-bench")
    before = _outcome("wrong_answer", wrong, passed=(0, 1), cases=4)
    assert required_cases(before) == (0, 1, 2)
    assert required_cases(BEFORE) == (0,)  # a compile error: at least the first case
    # the candidate's check ran the required cases first and stopped at case 1 (cases 0, 1 of 4 ran)
    stopped = CheckResult((), Figures.from_json({"status": "wrong_answer", "task": "t", "cases": 4, "passed_cases": 1,
                                                 "case_results": [{"case_id": 0, "status": "pass"},
                                                                  {"case_id": 1, "status": "wrong_answer"}]}))
    v = verify_repair(wrong, before, stopped, TEXT, TEXT + "x\n")
    assert not v.ok and v.reason.startswith("case 1 passed before and fails now")
    stopped0 = CheckResult((), Figures.from_json({"status": "wrong_answer", "task": "t", "cases": 4,
                                                  "passed_cases": 0,
                                                  "case_results": [{"case_id": 0, "status": "wrong_answer"}]}))
    v = verify_repair(wrong, _outcome("wrong_answer", wrong, cases=4), stopped0, TEXT, TEXT + "x\n")
    assert not v.ok and v.reason.startswith("case 0 still fails")


def test_what_a_fix_is_for() -> None:
    assert repairable(ADDD)
    assert repairable(Finding("SIM-DC-ROUNDDOWN", "x", Span.point("k", 2), Severity.WARNING, "akgen-run"))
    assert not repairable(Finding("AKGEN-ESTIMATE", "x", Span.point("k", 2), Severity.INFO, "akgen-run"))
    assert not repairable(Finding("AKG101", "x", Span.point("k", 2)))  # lint has its own fixes
