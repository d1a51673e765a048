"""The record of one candidate's evaluation, and what every toolchain's pipeline shares: the candidate
(`Candidate`), the run's settings (`RunSettings`), the stage timings (`Timings`), a bench finding (`_finding`), and the
record opened (`new_record`) and closed (`finish_record`) in the shape docs/bench.md describes."""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from akgen_lsp.bench.metrics import error_class_of, task_score
from akgen_lsp.bench.tasks import Task
from akgen_lsp.findings import Finding, Severity, Span, finding_from_json, finding_to_json

NO_ANSWER = "no_answer"  # Candidate.origin of a task whose checkout has no reference answer
NO_ANSWER_REASON = "the checkout has no reference answer for this task"


@dataclass
class Candidate:
    """One kernel to evaluate for one task: files on disk (a reference answer or a generated sample), or the raw text
    of a model answer (parsed by `extract_answer`)."""

    task_id: str
    sample: int = 0
    kernel: Path | None = None
    host_dir: Path | None = None  # a folder with <op>.cpp and its *_tiling.h
    text: str | None = None
    origin: str = "answer"

    @property
    def key(self) -> str:
        return f"{self.task_id}#{self.sample}"


@dataclass
class RunSettings:
    mode: str = "static"
    arch: str = "Ascend910B2"
    compile_timeout_s: float = 120.0
    run_timeout_s: float = 60.0  # wall clock of one case's run: a backstop for a kernel that waits on nothing
    run_cpu_s: int = (
        20  # CPU time of one case's run: what stops a spinning kernel, whatever the machine's load
    )
    max_cases: int | None = None
    case_ids: tuple[int, ...] | None = None
    work_dir: Path | None = None
    keep_work: bool = False
    block_dim: int | None = None  # launch size for a kernel without host tiling (default: every vector core)
    toolchain: str = "auto"  # sim | cann | auto (cann when ASCEND_HOME_PATH points at a CANN install)
    checks: str = (
        "npu"  # the sim's check mode (setting sim.checks): npu or cpu-debug; see docs/sim.md "Check modes"
    )
    run_warnings: bool = (
        False  # also keep the warnings of a run whose numbers are right (the editor's check on save)
    )
    stop_at_failure: bool = (
        False  # no case after the first that fails (a synthesized mutant is kept once it fails)
    )
    # the cases a candidate must pass (a repair: those the kernel passed and the one that failed): they run first,
    # and no case runs after one of them fails (the candidate is rejected whatever the others do)
    required: tuple[int, ...] = ()


@dataclass
class Timings:
    parse: float = 0.0
    reference: float = 0.0
    compile: float = 0.0
    run: float = 0.0
    compare: float = 0.0
    total: float = 0.0

    @property
    def harness(self) -> float:
        """Time spent outside compile and run (the harness's own overhead)."""
        return max(0.0, self.total - self.compile - self.run)


def _finding(
    code: str,
    message: str,
    path: str,
    error_class: str,
    source: str = "akgen-bench",
    severity: Severity = Severity.ERROR,
) -> Finding:
    return Finding(
        code=code,
        message=message,
        span=Span.point(path, 1),
        severity=severity,
        source=source,
        error_class=error_class,
    )


def skipped_case(task: Task, case_id: int, why: object) -> Finding:
    """The warning for a case that cannot be evaluated here (`reference.Skip`: torch missing, ...)."""
    return _finding(
        "BENCH-SKIP",
        f"case {case_id} skipped: {why}",
        str(task.validation),
        "skipped",
        severity=Severity.WARNING,
    )


class Record(dict[str, Any]):
    """A candidate's record: the JSON-shaped dict docs/bench.md describes (what results.jsonl holds), which also
    keeps, in the process that filled it, the findings themselves (`record_findings` reads those, so a check in
    that process makes no JSON round trip of its findings)."""

    found: tuple[Finding, ...] = ()
    found_json: list[dict[str, Any]] | None = None  # the ``findings`` list written with `found`


def record_findings(rec: Mapping[str, Any]) -> list[Finding]:
    """The findings of a candidate's record: those `finish_record` kept when the record still holds the list it
    wrote, else read back from the JSON (those that do not read back are left out)."""
    if isinstance(rec, Record) and rec.found_json is not None and rec.get("findings") is rec.found_json:
        return list(rec.found)
    out = []
    for f in rec.get("findings", []):
        try:
            out.append(finding_from_json(f))
        except (KeyError, TypeError, ValueError):
            continue
    return out


def new_record(task: Task, cand: Candidate, settings: RunSettings, **extra: Any) -> Record:
    """A candidate's record before evaluation (the shape docs/bench.md describes); `extra` adds toolchain keys."""
    return Record(
        {
            "task": task.id,
            "name": task.name,
            "level": task.level_number,
            "category": task.category,
            "sample": cand.sample,
            "origin": cand.origin,
            "mode": settings.mode,
            **extra,
            "status": "pending",
            "parsed": False,
            "compiled": False,
            "ran": False,
            "correct": False,
            "passed_cases": 0,
            "cases": 0,
            "case_results": [],
            "findings": [],
            "estimate_us": None,
            "baseline_us": None,
            "speedup": None,
        }
    )


def finish_record(
    rec: dict[str, Any], findings: Sequence[Finding], status: str, tm: Timings, t_start: float
) -> dict[str, Any]:
    """Close a record: status, the first 20 findings, error class, score and timings."""
    tm.total = time.perf_counter() - t_start
    rec["status"] = status
    rec["findings"] = [finding_to_json(f) for f in findings[:20]]
    if isinstance(rec, Record):
        rec.found, rec.found_json = tuple(findings[:20]), rec["findings"]
    rec["error_class"] = error_class_of(rec["findings"], status)
    rec["score"] = task_score(rec["passed_cases"], rec["cases"])
    rec["timings"] = {
        **{k: round(v, 4) for k, v in dataclasses.asdict(tm).items()},
        "harness": round(tm.harness, 4),
    }
    return rec


def summarise_timings(records: list[Mapping[str, Any]]) -> dict[str, float]:
    keys = ("parse", "reference", "host", "compile", "run", "compare", "total", "harness")
    return {k: round(sum(float(r.get("timings", {}).get(k, 0.0)) for r in records), 4) for k in keys}
