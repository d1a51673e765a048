"""Verification: a candidate text of a kernel, checked like a save (compiled and run on the simulator against the
task's cases, in the sandbox), compared with the check of the text it repairs.

The check itself is the caller's (`Checker`: ``await checker(path, text) -> CheckResult``): the server runs it in a
job of its check worker, `akgen fix` in the same worker, so cancelling a repair kills every process it started.

Two bars:
- a **fix** of one finding (`verify_fix`: compiler fix-its, catalog fixes) is verified when the finding is gone,
  and the kernel got further (it compiles now, or runs now, or passes more cases) or stays where it was with no new
  kind of error and no case lost;
- a **repair** (`verify_repair`, the model's candidates) must compile, remove the finding and pass every case the
  kernel passed plus the one that failed (the first failing case; for a compile error, at least the first case).
Either way the `Verdict` says what was verified (``compiles, 5/5 cases pass, est. 12.1 us``) or the first failure.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from akgen_lsp.check.result import CHECK_SOURCES, CheckResult
from akgen_lsp.findings import Finding, Severity
from akgen_lsp.logs.signature import signature
from akgen_lsp.repair.edits import line_mapper


@dataclass(frozen=True)
class Verdict:
    ok: bool
    outcome: CheckResult
    reason: str  # what was verified, or the first failure
    target_gone: bool = False
    new_errors: tuple[Finding, ...] = field(default=())

    @property
    def rank(self) -> tuple[int, int, int, float]:
        """Better first: more cases passing, a later stage, fewer errors left, a smaller estimate."""
        est = self.outcome.estimate_us
        return (
            -len(self.outcome.passed),
            -self.outcome.stage,
            len(self.outcome.errors),
            est if est is not None else float("inf"),
        )


def repairable(f: Finding) -> bool:
    """A build / run / wrong-numbers finding of a check that a fix may remove (not the estimate, not a problem of the
    task or of the check itself)."""
    if f.source not in CHECK_SOURCES or f.code in ("AKGEN-ESTIMATE", "BENCH-TASK", "BENCH-CHECK"):
        return False
    return f.severity is Severity.ERROR or (f.severity is Severity.WARNING and f.code.startswith("SIM-"))


def _key(f: Finding) -> tuple[str, str]:
    return (f.code, signature(f.message))


def finding_still_there(target: Finding, after: CheckResult, before_text: str, after_text: str) -> bool:
    """Whether `after` still reports `target`: the same code and message signature at the line the target's line
    moved to (anywhere, for a finding of no particular line: a wrong-numbers finding at line 1)."""
    key = _key(target)
    same = [f for f in after.findings if _key(f) == key]
    if not same:
        return False
    if target.span.line <= 1 or target.code.startswith("BENCH-"):
        return True
    moved = line_mapper(before_text, after_text)(target.span.line)
    if (
        moved is None
    ):  # the line itself was edited: the error is gone unless it is reported on the edited line
        lines = {f.span.line for f in same}
        return any(abs(line - target.span.line) <= 1 for line in lines)
    return any(f.span.line == moved for f in same)


def _new_errors(before: CheckResult, after: CheckResult) -> list[Finding]:
    had = Counter(_key(f) for f in before.errors)
    out = []
    for f in after.errors:
        k = _key(f)
        if had[k] > 0:
            had[k] -= 1
        else:
            out.append(f)
    return out


def _first_problem(outcome: CheckResult) -> str:
    errs = outcome.errors
    if errs:
        f = errs[0]
        return f"line {f.span.line}: {f.message}" if f.span.line > 1 else f.message
    return f"status {outcome.status}"


def verify_fix(
    target: Finding, before: CheckResult, after: CheckResult, before_text: str, after_text: str
) -> Verdict:
    """The bar of a deterministic fix of `target` (see the module docstring)."""
    if finding_still_there(target, after, before_text, after_text):
        return Verdict(False, after, f"the error is still there ({_first_problem(after)})")
    lost = before.passed - after.passed
    if lost:
        return Verdict(False, after, f"case {min(lost)} passed before and fails now", True)
    new = _new_errors(before, after)
    if after.stage > before.stage or len(after.passed) > len(before.passed):
        return Verdict(True, after, after.summary(), True, tuple(new))
    if after.stage < before.stage:
        return Verdict(False, after, f"the kernel gets less far: {_first_problem(after)}", True, tuple(new))
    if new:
        f = new[0]
        return Verdict(False, after, f"a new error at line {f.span.line}: {f.message}", True, tuple(new))
    if after.compiles:
        return Verdict(True, after, after.summary(), True)
    left = len(after.errors)
    return Verdict(
        True, after, f"removes this error ({left} other error{'s' if left != 1 else ''} left)", True
    )


def required_cases(before: CheckResult) -> tuple[int, ...]:
    """The cases a repair of `before` must pass (`verify_repair`'s bar): those it passed and the first that fails."""
    failing = before.failing_case()
    return tuple(sorted(before.passed | ({failing} if failing is not None else set())))


def verify_repair(
    target: Finding, before: CheckResult, after: CheckResult, before_text: str, after_text: str
) -> Verdict:
    """The bar of a model repair of `target` (see the module docstring)."""
    if not after.compiles:
        return Verdict(False, after, f"does not compile: {_first_problem(after)}")
    gone = not finding_still_there(target, after, before_text, after_text)
    if not gone:
        return Verdict(False, after, f"the error is still there: {_first_problem(after)}")
    required = set(required_cases(before))
    failed = [
        c for c in after.case_ids if c in required and c not in after.passed
    ]  # the one the check stopped at
    if failed:
        how = "passed before and fails now" if failed[0] in before.passed else "still fails"
        return Verdict(False, after, f"case {failed[0]} {how}: {_first_problem(after)}", True)
    lost = before.passed - after.passed
    if lost:
        return Verdict(
            False, after, f"case {min(lost)} passed before and fails now ({_first_problem(after)})", True
        )
    failing = before.failing_case()
    if after.cases and failing is not None and failing not in after.passed:
        return Verdict(False, after, f"case {failing} still fails: {_first_problem(after)}", True)
    if after.cases and not after.passed:
        return Verdict(False, after, f"no case passes: {_first_problem(after)}", True)
    return Verdict(True, after, after.summary(), True, tuple(_new_errors(before, after)))


def best(verdicts: Sequence[Verdict]) -> Verdict | None:
    good = [v for v in verdicts if v.ok]
    return min(good, key=lambda v: v.rank) if good else None
