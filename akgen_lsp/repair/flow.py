"""`akgen fix`'s flow, one for every entry point (the CLI's `akgen fix`, the MCP server's `fix` tool): check the
kernel, then the verified deterministic fixes round after round, then the model's verified repair when a model is
configured and the kernel still fails. Nothing is written here: the caller gets the final text, the JSON report and
the repairs to remember once it writes the file."""

from __future__ import annotations

import asyncio
import difflib
import inspect
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from akgen_lsp.check.result import Checker, CheckResult, Status
from akgen_lsp.config import Settings
from akgen_lsp.findings import Finding

Say = Callable[[str], Awaitable[None] | None]  # how the flow tells its progress: a plain or an async function


def quiet(_message: str) -> None:
    """A `Say` that tells nothing."""


class NoTask(Exception):
    """The kernel has no task, so there is nothing to verify a fix against (the message says what to do)."""


@dataclass
class Stored:
    """One verified repair, stored in the store of repairs once the user writes it."""

    target: Finding
    before: str
    after: str
    model: str


@dataclass
class FixRun:
    """What the flow did: the text before and after, the two checks, the fixes applied, the model's repair."""

    path: Path
    text: str
    final: str
    before: CheckResult
    after: CheckResult
    applied: list[Any] = field(default_factory=list)
    repaired: Any = None
    notes: list[str] = field(default_factory=list)
    stored: list[Stored] = field(default_factory=list)
    model_error: str | None = (
        None  # the configured model could not be made (the CLI treats it as a usage error)
    )

    @property
    def passes(self) -> bool:
        return self.after.status is Status.PASS

    @property
    def task(self) -> str | None:
        return self.before.figures.task

    def diff(self) -> str:
        return "".join(
            difflib.unified_diff(
                self.text.splitlines(keepends=True),
                self.final.splitlines(keepends=True),
                f"a/{self.path.name}",
                f"b/{self.path.name}",
            )
        )

    def report(self) -> dict[str, Any]:
        """The JSON report `akgen fix --json` prints and the MCP tool returns (without the final text)."""
        model = None
        if self.repaired is not None:
            model = {
                "model": self.repaired.model,
                "message": self.repaired.message(),
                "candidates": [
                    {
                        "index": c.index,
                        "verified": c.ok,
                        "why": c.verdict.reason if c.verdict else c.problem,
                        "generate_s": round(c.generate_s, 3),
                        "verify_s": round(c.verify_s, 3),
                    }
                    for c in self.repaired.candidates
                ],
            }
        return {
            "path": str(self.path),
            "task": self.task,
            "before": summary(self.before),
            "fixes": [
                {"title": vf.fix.title, "fixer": vf.proposal.fixer, "finding": vf.finding.code}
                for vf in self.applied
            ],
            "model": model,
            "notes": list(self.notes),
            "after": summary(self.after),
            "passes": self.passes,
            "diff": self.diff(),
        }

    def remember(self, settings: Settings, provenance: str) -> int:
        """Store the repairs of this run (after the caller wrote the final text): how many were new."""
        from akgen_lsp.repair.remember import remember

        return sum(
            remember(
                s.target,
                s.before,
                s.after,
                path=str(self.path),
                task=self.task,
                model=s.model,
                provenance=provenance,
                settings=settings,
            )
            is not None
            for s in self.stored
        )


def summary(outcome: CheckResult) -> dict[str, Any]:
    """A check in the fix report: status, summary, cases, estimate and the first errors."""
    return {
        "status": str(outcome.status),
        "summary": outcome.summary(),
        "passed_cases": len(outcome.passed),
        "cases": outcome.cases,
        "estimate_us": outcome.estimate_us,
        "errors": [{"code": f.code, "line": f.span.line, "message": f.message} for f in outcome.errors[:5]],
    }


async def _tell(say: Say, message: str) -> None:
    said = say(message)
    if inspect.isawaitable(said):
        await said


async def fix_flow(
    path: Path, text: str, checker: Checker, settings: Settings, *, use_model: bool, say: Say
) -> FixRun:
    """Check `text` as `path`, then repair it with verified fixes. Raises NoTask when the kernel has no task."""
    from akgen_lsp.model.backends import BackendError
    from akgen_lsp.repair import deterministic
    from akgen_lsp.repair.backend import model_configured, repair_model
    from akgen_lsp.repair.model_repair import model_repair
    from akgen_lsp.repair.verify import repairable

    await _tell(say, f"checking {path.name}")
    before = await checker(str(path), text)
    if not before.has_task:
        problem = next((f.message for f in before.findings), None)
        raise NoTask(
            problem
            or f"{path.name} has no task, so there is nothing to verify a fix against; name the "
            "task (akgen fix --task NAME, or the tool's task argument) or add a [[task]] to akgen.toml"
        )
    if before.status is Status.PASS:
        return FixRun(path, text, text, before, before)
    await _tell(say, f"{before.summary()} ({before.status}); trying the verified deterministic fixes")
    det = await deterministic.repair(
        text, str(path), checker, settings, before=before, jobs=int(settings["fix.jobs"])
    )
    run = FixRun(path, text, det.text, before, det.outcome, applied=list(det.applied))
    run.stored = [
        Stored(vf.finding, prev, vf.text, "deterministic")
        for vf, prev in zip(det.applied, [text, *[a.text for a in det.applied]], strict=False)
    ]
    target = next((f for f in det.outcome.findings if repairable(f)), None)
    if det.passes or not use_model or target is None or not model_configured(settings):
        return run
    try:
        rm = repair_model(settings, path.parent)
    except BackendError as exc:
        run.model_error = str(exc)
        run.notes.append(f"the model was not used: {exc}")
        return run
    if rm is None:
        return run
    if rm.route:
        await _tell(say, rm.route)
    await _tell(say, f"asking {rm.label} for {settings['fix.samples']} candidates")
    sending: list[
        Awaitable[None]
    ] = []  # progress from the model repair's plain callback, sent before we return

    def progress(message: str, _pct: float | None = None) -> None:
        said = say(message)
        if inspect.isawaitable(said):
            sending.append(asyncio.ensure_future(said))

    try:
        await rm.backend.load()
        run.repaired = await model_repair(
            det.text,
            str(path),
            target,
            det.outcome,
            rm.backend,
            checker,
            settings,
            spec=rm.spec,
            model_name=rm.label,
            progress=progress,
        )
    except BackendError as exc:
        run.notes.append(f"{rm.label}: {exc}")
        await _tell(say, f"{rm.label}: {exc}")
    finally:
        await rm.backend.close()
        await asyncio.gather(*sending, return_exceptions=True)
    best = run.repaired.best if run.repaired is not None else None
    if best is not None and best.verdict is not None:
        run.stored.append(Stored(target, det.text, best.text, rm.label))
        run.final, run.after = best.text or run.final, best.verdict.outcome
    return run
