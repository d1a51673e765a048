"""How a round's answers are evaluated: through the bench's `Executor` (a local process pool, Ray, in-process), all
the answers of a round in one batch, or through the caller's checker (the server's check worker, whose jobs a
cancel kills; in dynamic shape it takes the answer's op_host files too). Both give the `repair.verify.CheckResult` the repair flow reads, so "did it verify" has one
meaning everywhere."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from akgen_lsp.bench.executor import Executor, Job
from akgen_lsp.bench.pipeline import Candidate, RunSettings
from akgen_lsp.check.kernel import record_figures, record_findings
from akgen_lsp.check.result import CheckResult, FilesChecker
from akgen_lsp.generate.attempt import Attempt, Round


@dataclass(frozen=True)
class Evaluation:
    outcome: CheckResult
    record: dict[str, Any]


Evaluate = Callable[[Sequence[tuple[Attempt, Round]]], Awaitable[list[Evaluation]]]


def outcome_of(rec: Mapping[str, Any], mode: str, arch: str) -> CheckResult:
    """A bench record (or a round's stored line) as a check outcome."""
    total = (rec.get("timings") or {}).get("total", 0.0)
    return CheckResult(
        tuple(record_findings(rec)),
        record_figures(rec, mode, arch),
        float(total) if isinstance(total, (int, float)) else 0.0,
    )


class ExecutorEvaluator:
    """The round's answers as bench jobs (a static-shape instance runs its one case), run by `executor` in a worker
    thread so the event loop keeps serving the model's streams."""

    def __init__(self, executor: Executor, settings: RunSettings, timeout_s: float = 900.0) -> None:
        self.executor, self.settings, self.timeout_s = executor, settings, timeout_s

    async def __call__(self, items: Sequence[tuple[Attempt, Round]]) -> list[Evaluation]:
        jobs = []
        for i, (a, r) in enumerate(items):
            cand = Candidate(a.task.id, i, text=r.answer, origin=f"model:{a.key}:round{r.index}")
            st = replace(
                self.settings,
                mode=a.cfg.mode,
                case_ids=(a.case_id,) if a.case_id is not None else self.settings.case_ids,
            )
            jobs.append(Job(str(a.task.root), cand, st, self.timeout_s))
        got: dict[int, dict[str, Any]] = {}

        def on_result(job: Job, rec: dict[str, Any]) -> None:
            got[job.candidate.sample] = rec

        if jobs:
            await asyncio.to_thread(self.executor.run, jobs, on_result)
        out = []
        for i, (a, _r) in enumerate(items):
            rec = got.get(i) or {"status": "harness_error", "findings": [], "case_results": []}
            out.append(Evaluation(outcome_of(rec, a.cfg.mode, self.settings.arch), rec))
        return out


class CheckerEvaluator:
    """Each answer's kernel checked as the file at `path` (the task is the one of the path), one after the other;
    in dynamic shape with the answer's op_host files."""

    def __init__(self, checker: FilesChecker, path: str) -> None:
        self.checker, self.path = checker, path

    async def __call__(self, items: Sequence[tuple[Attempt, Round]]) -> list[Evaluation]:
        out = []
        for a, r in items:
            host = a.host_files(r)
            outcome = await (
                self.checker(self.path, r.code or "", host=host)
                if host
                else self.checker(self.path, r.code or "")
            )
            f = outcome.figures.to_json()
            rec = {
                k: f.get(k)
                for k in (
                    "status",
                    "passed_cases",
                    "cases",
                    "estimate_us",
                    "baseline_us",
                    "speedup",
                    "bound",
                    "case_results",
                )
            }
            rec["findings"] = []
            out.append(Evaluation(outcome, rec))
        return out
