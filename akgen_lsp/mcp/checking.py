"""The MCP server's one way into the check path: the warm check worker, the save check and the verified fixes.

Every call from `akgen_lsp.mcp` into the check (the worker, its settings, the repair flow over it) is in this module,
so moving the check's home changes this file only. One `CheckService` per server process: its worker is started on
the first check (or `warm`) and kept across tool calls, so a check costs what a save in the editor costs. Cancelling
the awaiting task (an MCP ``notifications/cancelled``) kills the job's process tree, as a new save does.
"""

from __future__ import annotations

import asyncio
import difflib
import hashlib
import tempfile
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any

from akgen_lsp.check.result import CheckResult, Status, check_timeout
from akgen_lsp.check.worker import CheckFailed, CheckWorker, checker_for, plain_settings
from akgen_lsp.config import Settings
from akgen_lsp.findings import finding_to_json, sort_findings

Say = Callable[[str], Awaitable[None]]


async def _quiet(_message: str) -> None:
    return None


class CheckService:
    """The server's check worker and the folder its Chrome traces go to."""

    def __init__(self, traces: Path | None = None) -> None:
        self.worker = CheckWorker()
        self._traces = traces
        self._warming: asyncio.Task[dict[str, Any]] | None = None

    @property
    def traces(self) -> Path:
        """The folder of this server's Chrome traces (made on first use)."""
        if self._traces is None:
            self._traces = Path(tempfile.mkdtemp(prefix="akgen-mcp-traces-"))
        return self._traces

    def trace_path(self, path: Path) -> Path:
        """One trace file per kernel path (the last check of it wins)."""
        digest = hashlib.sha1(str(path).encode()).hexdigest()[:10]
        return self.traces / f"{path.stem}-{digest}.trace.json"

    def warm(self, settings: Settings) -> None:
        """Start the worker and build the precompiled header in the background (once)."""
        if self._warming is None:
            self._warming = asyncio.ensure_future(self.worker.warm(plain_settings(settings)))
            self._warming.add_done_callback(lambda t: t.cancelled() or t.exception())

    @staticmethod
    def timeout(settings: Settings) -> float:
        return check_timeout(float(settings.get("toolchain.timeout_s", 60.0) or 60.0))

    async def check(self, path: Path, settings: Settings, *, text: str | None = None, task: str | None = None,
                    max_cases: int | None = None, trace: Path | None = None) -> dict[str, Any]:
        """The save check of `path` (or of `text` as that file): findings (the CLI's JSON), figures, the trace.
        Raises CheckFailed (a sentence) when the check could not run, TimeoutError past the settings' limit."""
        trace = trace or self.trace_path(path)
        result = await self.worker.check(str(path), plain_settings(settings), self.timeout(settings), str(trace),
                                         text=text, task_name=task, max_cases=max_cases)
        figures = result.figures.to_json()
        trace_file = figures.get("trace") or (str(trace) if trace.is_file() else None)
        return {"findings": [finding_to_json(f) for f in sort_findings(result.findings)],
                "figures": figures, "seconds": round(result.seconds, 3), "trace": trace_file}

    async def fix(self, path: Path, text: str, settings: Settings, *, task: str | None = None,
                  use_model: bool = True, say: Say = _quiet) -> dict[str, Any]:
        """`akgen fix`'s flow on the warm worker: check, the verified deterministic fixes round after round, then the
        model's verified repair when a model is configured and the kernel still fails. Returns the result with the
        final text under ``"text"`` (nothing is written here)."""
        from akgen_lsp.model.backends import BackendError
        from akgen_lsp.repair import deterministic
        from akgen_lsp.repair.backend import model_configured, repair_model
        from akgen_lsp.repair.model_repair import model_repair
        from akgen_lsp.repair.verify import repairable

        checker = checker_for(self.worker, plain_settings(settings), self.timeout(settings), task_name=task)
        await say(f"checking {path.name}")
        before = await checker(str(path), text)
        if not before.has_task:
            problem = next((f.message for f in before.findings), None)
            raise CheckFailed(problem or f"{path.name} has no task, so there is nothing to verify a fix against; "
                              "give task=NAME or add a [[task]] to akgen.toml")
        if before.status is Status.PASS:
            return _fix_result(path, text, text, before, before, [], None, [], [])
        await say(f"{before.summary()} ({before.status}); trying the verified deterministic fixes")
        det = await deterministic.repair(text, str(path), checker, settings, before=before,
                                         jobs=int(settings["fix.jobs"]))
        final, outcome, repaired, notes = det.text, det.outcome, None, []
        stored = [{"target": vf.finding, "before": prev, "after": vf.text, "model": "deterministic"}
                  for vf, prev in zip(det.applied, [text, *[a.text for a in det.applied]], strict=False)]
        target = next((f for f in outcome.findings if repairable(f)), None)
        if not det.passes and use_model and target is not None and model_configured(settings):
            try:
                rm = repair_model(settings, path.parent)
            except BackendError as exc:
                notes.append(f"the model was not used: {exc}")
                rm = None
            if rm is not None:
                await say(f"asking {rm.label} for {settings['fix.samples']} candidates")
                try:
                    await rm.backend.load()
                    repaired = await model_repair(det.text, str(path), target, outcome, rm.backend, checker, settings,
                                                  spec=rm.spec, model_name=rm.label)
                except BackendError as exc:
                    notes.append(f"{rm.label}: {exc}")
                finally:
                    await rm.backend.close()
                if repaired is not None and repaired.best is not None and repaired.best.verdict is not None:
                    stored.append({"target": target, "before": det.text, "after": repaired.best.text,
                                   "model": rm.label})
                    final, outcome = repaired.best.text or final, repaired.best.verdict.outcome
        return _fix_result(path, text, final, before, outcome, det.applied, repaired, notes, stored)

    async def close(self) -> None:
        if self._warming is not None and not self._warming.done():
            self._warming.cancel()
        await self.worker.close()

    def kill_now(self) -> None:
        self.worker.kill_now()

    @property
    def worker_pid(self) -> int | None:
        return self.worker.pid if self.worker.running else None


def _outcome(outcome: CheckResult) -> dict[str, Any]:
    return {"status": str(outcome.status), "summary": outcome.summary(), "passed_cases": len(outcome.passed),
            "cases": outcome.cases, "estimate_us": outcome.estimate_us,
            "errors": [{"code": f.code, "line": f.span.line, "message": f.message} for f in outcome.errors[:5]]}


def _fix_result(path: Path, text: str, final: str, before: CheckResult, after: CheckResult, applied: list[Any],
                repaired: Any, notes: list[str], stored: list[dict[str, Any]]) -> dict[str, Any]:
    diff = "".join(difflib.unified_diff(text.splitlines(keepends=True), final.splitlines(keepends=True),
                                        f"a/{path.name}", f"b/{path.name}"))
    model = None
    if repaired is not None:
        model = {"model": repaired.model, "message": repaired.message(),
                 "candidates": [{"index": c.index, "verified": c.ok,
                                 "why": c.verdict.reason if c.verdict else c.problem} for c in repaired.candidates]}
    return {"path": str(path), "task": before.figures.task, "before": _outcome(before),
            "fixes": [{"title": vf.fix.title, "fixer": vf.proposal.fixer, "finding": vf.finding.code}
                      for vf in applied],
            "model": model, "notes": notes, "after": _outcome(after), "passes": after.status is Status.PASS,
            "diff": diff, "text": final, "stored": stored}


def remember_fixes(stored: list[dict[str, Any]], path: Path, task: str | None, settings: Settings) -> int:
    """Store the repairs of an applied fix in the store of repairs (as `akgen fix --apply` does; provenance "mcp")."""
    from akgen_lsp.repair.remember import remember

    return sum(remember(item["target"], item["before"], item["after"], path=str(path), task=task,
                        model=item["model"], provenance="mcp", settings=settings) is not None for item in stored)


def figures_of(result: Mapping[str, Any]) -> dict[str, Any]:
    """The figures an agent reads first (the rest stay under ``figures``)."""
    fig = result.get("figures") or {}
    keys = ("task", "status", "cases", "passed_cases", "estimate_us", "estimate_label", "arch", "bound")
    return {k: fig.get(k) for k in keys}


__all__ = ["CheckFailed", "CheckService", "figures_of", "remember_fixes"]
