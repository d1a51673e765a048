"""What one check of one kernel says: its findings and figures (`CheckOutcome`), and the shape of a checker (`Checker`:
``await checker(path, text) -> CheckOutcome``; `FilesChecker`: with a candidate's op_host files too)."""

from __future__ import annotations

from collections.abc import Awaitable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from akgen_lsp.findings import Finding, Severity

# how far a check got: a fix that moves the kernel further is progress even when new findings appear
STAGES = {"compile_error": 0, "parse_error": 0, "harness_error": 0, "skipped": 0, "runtime_error": 1, "timeout": 1,
          "no_work": 2, "wrong_answer": 2, "pass": 3}
CHECK_SOURCES = ("akgen-build", "akgen-run", "akgen-bench")


@dataclass(frozen=True)
class CheckOutcome:
    """One check of one text: its findings and the figures `check.kernel.check_kernel` returns."""

    findings: tuple[Finding, ...]
    figures: Mapping[str, Any]
    seconds: float = 0.0

    @property
    def status(self) -> str:
        return str(self.figures.get("status") or ("compile_error" if self.compile_errors else "unknown"))

    @property
    def stage(self) -> int:
        return STAGES.get(self.status, 0)

    @property
    def compiles(self) -> bool:
        return self.stage > 0

    @property
    def passed(self) -> frozenset[int]:
        return frozenset(int(c["case_id"]) for c in self.figures.get("case_results") or ()
                         if c.get("status") == "pass" and c.get("case_id") is not None)

    @property
    def cases(self) -> int:
        n = self.figures.get("cases")
        return int(n) if isinstance(n, int) else 0

    @property
    def case_ids(self) -> list[int]:
        return [int(c["case_id"]) for c in self.figures.get("case_results") or () if c.get("case_id") is not None]

    @property
    def estimate_us(self) -> float | None:
        est = self.figures.get("estimate_us")
        return float(est) if isinstance(est, (int, float)) else None

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity is Severity.ERROR and f.source in CHECK_SOURCES]

    @property
    def compile_errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity is Severity.ERROR and f.source == "akgen-build"]

    def failing_case(self) -> int | None:
        """The first case that does not pass (the first case of all when none ran)."""
        for c in self.figures.get("case_results") or ():
            if c.get("status") != "pass" and c.get("case_id") is not None:
                return int(c["case_id"])
        ids = self.case_ids
        return None if ids else 0

    def summary(self) -> str:
        """``compiles, 5/5 cases pass, est. 12.1 us`` (what a check verified)."""
        if not self.compiles:
            return "does not compile"
        parts = ["compiles"]
        if self.cases:
            parts.append(f"{len(self.passed)}/{self.cases} cases pass")
        if self.estimate_us is not None and self.status == "pass":
            parts.append(f"est. {self.estimate_us:.1f} us")
        return ", ".join(parts)


class Checker(Protocol):
    """``await checker(path, text)``: the check of `text` as the file `path`. With `required` (case ids: those a
    repair must pass), those cases run first and no case runs after one of them fails (the early stop of a
    candidate that is rejected anyway)."""

    def __call__(self, path: str, text: str, required: Sequence[int] = ()) -> Awaitable[CheckOutcome]: ...


class FilesChecker(Protocol):
    """``await checker(path, text, host=files)``: a `Checker` that also takes the candidate's op_host files by name
    (dynamic shape: ``<op>.cpp``, ``<op>_tiling.h``), checked in place of the task folder's."""

    def __call__(self, path: str, text: str, required: Sequence[int] = (),
                 host: Mapping[str, str] | None = None) -> Awaitable[CheckOutcome]: ...
