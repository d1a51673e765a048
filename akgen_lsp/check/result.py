"""What one check of one kernel says, as one typed value: `CheckResult` (a `Status`, its findings, its `Figures`, its
time), and the shape of a checker (`Checker`: ``await checker(path, text) -> CheckResult``; `FilesChecker`: with a
candidate's op_host files too).

Every caller holds this value: the server's check on save and check ahead, the repair flow's verification, `akgen
fix`, the generate loop. It becomes JSON only where it leaves the process: the check worker's answer
(`to_json` / `from_json`), a file, a client's notification (`Figures.to_json`).
"""

from __future__ import annotations

import enum
from collections.abc import Awaitable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Protocol

from akgen_lsp.findings import Finding, Severity, finding_from_json, finding_to_json


class Status(str, enum.Enum):
    """How a check ended (the bench record's status; a `str`, so it compares equal to its JSON value)."""

    PASS = "pass"
    WRONG_ANSWER = "wrong_answer"
    NO_WORK = "no_work"
    RUNTIME_ERROR = "runtime_error"
    TIMEOUT = "timeout"
    COMPILE_ERROR = "compile_error"
    PARSE_ERROR = "parse_error"
    HARNESS_ERROR = "harness_error"
    SKIPPED = "skipped"
    NO_ANSWER = "no_answer"
    PENDING = "pending"
    UNKNOWN = "unknown"

    @classmethod
    def of(cls, value: Any) -> Status | None:
        """The status a JSON value names (None for none; UNKNOWN for a name this version does not know)."""
        if value is None or value == "":
            return None
        try:
            return cls(str(value))
        except ValueError:
            return cls.UNKNOWN

    @property
    def stage(self) -> int:
        """How far the check got: a fix that moves the kernel further is progress even when new findings appear."""
        return _STAGES.get(self, 0)

    def __str__(self) -> str:
        return self.value

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)


_STAGES = {
    Status.RUNTIME_ERROR: 1,
    Status.TIMEOUT: 1,
    Status.NO_WORK: 2,
    Status.WRONG_ANSWER: 2,
    Status.PASS: 3,
}
# the same by name (docs and callers that hold a status's JSON value)
STAGES = {s.value: s.stage for s in Status if s not in (Status.NO_ANSWER, Status.PENDING, Status.UNKNOWN)}
CHECK_SOURCES = ("akgen-build", "akgen-run", "akgen-bench")

# the keys of a full check's figures, in the order they are written (`Figures.to_json`)
_FULL_KEYS = (
    "task",
    "mode",
    "status",
    "passed_cases",
    "cases",
    "estimate_us",
    "baseline_us",
    "speedup",
    "bound",
    "max_abs",
    "max_rel",
    "arch",
    "estimate_label",
    "timings",
    "trace",
    "case_results",
)


@dataclass(frozen=True)
class Figures:
    """What a check measured: its task, status, cases, the estimate and its baseline, the worst error, per-case
    results (each the bench record's case: ``case_id``, ``status``, ``max_abs``, ``pipes``, ...). A check that found
    no task has only ``task`` None (and ``problem``, the sentence, when the task itself is wrong)."""

    task: str | None = None
    status: Status | None = None
    mode: str | None = None
    passed_cases: int | None = None
    cases: int | None = None
    estimate_us: float | None = None
    baseline_us: float | None = None
    speedup: float | None = None
    bound: str | None = None
    max_abs: Any = None
    max_rel: Any = None
    arch: str | None = None
    estimate_label: str | None = None
    timings: Mapping[str, Any] = field(default_factory=dict)
    trace: str | None = None
    case_results: tuple[Mapping[str, Any], ...] = ()
    problem: str | None = None
    full: bool = True  # a check that ran (every key is written), not a short "no task" answer

    @classmethod
    def no_task(cls, problem: str | None = None) -> Figures:
        return cls(problem=problem, full=False)

    @classmethod
    def harness_error(cls) -> Figures:
        return cls(status=Status.HARNESS_ERROR, full=False)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Figures:
        """The figures of a JSON object (the worker's answer, a stored record); unknown keys are left out."""
        known = {f.name for f in fields(cls)} - {"full", "status", "case_results", "timings"}
        values: dict[str, Any] = {k: data[k] for k in known if k in data}
        return cls(
            status=Status.of(data.get("status")),
            timings=dict(data.get("timings") or {}),
            case_results=tuple(dict(c) for c in data.get("case_results") or () if isinstance(c, Mapping)),
            full=any(k in data for k in _FULL_KEYS if k not in ("task", "status")),
            **values,
        )

    def to_json(self, leave_out: Sequence[str] = ()) -> dict[str, Any]:
        """The figures as JSON (the keys `check_kernel` has always written, in its order), without `leave_out`."""
        if self.full:
            out: dict[str, Any] = {k: getattr(self, k) for k in _FULL_KEYS}
            out["case_results"] = [dict(c) for c in self.case_results]
            out["timings"] = dict(self.timings)
            if self.problem is not None:
                out["problem"] = self.problem
        else:
            out = {"status": self.status} if self.status is not None else {}
            out["task"] = self.task
            if self.problem is not None:
                out["problem"] = self.problem
        if out.get("status") is not None:
            out["status"] = str(out["status"])
        return {k: v for k, v in out.items() if k not in leave_out}

    def passed_case_ids(self) -> frozenset[int]:
        return frozenset(
            int(c["case_id"])
            for c in self.case_results
            if c.get("status") == "pass" and c.get("case_id") is not None
        )


@dataclass(frozen=True)
class CheckResult:
    """One check of one text: its findings, its figures and the time it took (the job's time in the worker)."""

    findings: tuple[Finding, ...]
    figures: Figures = field(default_factory=Figures.no_task)
    seconds: float = 0.0

    # -------------------------------------------------------------------------------------------- JSON (the worker)

    def to_json(self) -> dict[str, Any]:
        return {"findings": [finding_to_json(f) for f in self.findings], "figures": self.figures.to_json()}

    @classmethod
    def from_json(cls, data: Mapping[str, Any], seconds: float = 0.0) -> CheckResult:
        """Raises KeyError, TypeError or ValueError for an answer that is not a check's."""
        return cls(
            tuple(finding_from_json(f) for f in data["findings"]), Figures.from_json(data["figures"]), seconds
        )

    # -------------------------------------------------------------------------------------------- what it says

    @property
    def status(self) -> Status:
        if self.figures.status is not None:
            return self.figures.status
        return Status.COMPILE_ERROR if self.compile_errors else Status.UNKNOWN

    @property
    def has_task(self) -> bool:
        return bool(self.figures.task)

    @property
    def stage(self) -> int:
        return self.status.stage

    @property
    def compiles(self) -> bool:
        return self.stage > 0

    @property
    def passed(self) -> frozenset[int]:
        return self.figures.passed_case_ids()

    @property
    def cases(self) -> int:
        n = self.figures.cases
        return int(n) if isinstance(n, int) else 0

    @property
    def case_ids(self) -> list[int]:
        return [int(c["case_id"]) for c in self.figures.case_results if c.get("case_id") is not None]

    @property
    def estimate_us(self) -> float | None:
        est = self.figures.estimate_us
        return float(est) if isinstance(est, (int, float)) else None

    @property
    def errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity is Severity.ERROR and f.source in CHECK_SOURCES]

    @property
    def compile_errors(self) -> list[Finding]:
        return [f for f in self.findings if f.severity is Severity.ERROR and f.source == "akgen-build"]

    def failing_case(self) -> int | None:
        """The first case that does not pass (the first case of all when none ran)."""
        for c in self.figures.case_results:
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
        if self.estimate_us is not None and self.status is Status.PASS:
            parts.append(f"est. {self.estimate_us:.1f} us")
        return ", ".join(parts)


def check_timeout(timeout_s: float, steps: int = 3) -> float:
    """How long a whole check may take, from ``toolchain.timeout_s`` (the limit of one compile or one run): `steps`
    of it (the compile, the cases' runs, the comparison; a dynamic-shape check adds one per case) and 30 s of room
    for a busy machine."""
    return steps * timeout_s + 30.0


class Checker(Protocol):
    """``await checker(path, text)``: the check of `text` as the file `path`. With `required` (case ids: those a
    repair must pass), those cases run first and no case runs after one of them fails (the early stop of a
    candidate that is rejected anyway)."""

    def __call__(self, path: str, text: str, required: Sequence[int] = ()) -> Awaitable[CheckResult]: ...


class FilesChecker(Protocol):
    """``await checker(path, text, host=files)``: a `Checker` that also takes the candidate's op_host files by name
    (dynamic shape: ``<op>.cpp``, ``<op>_tiling.h``), checked in place of the task folder's."""

    def __call__(
        self, path: str, text: str, required: Sequence[int] = (), host: Mapping[str, str] | None = None
    ) -> Awaitable[CheckResult]: ...
