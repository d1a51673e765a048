"""The MCP server's one way into the check path: the warm check worker, the save check and the verified fixes.

Every call from `akgen_lsp.mcp` into the check (the worker, its settings, the repair flow over it) is in this module,
so moving the check's home changes this file only. One `CheckService` per server process: its worker is started on
the first check (or `warm`) and kept across tool calls, so a check costs what a save in the editor costs. Cancelling
the awaiting task (an MCP ``notifications/cancelled``) kills the job's process tree, as a new save does.
"""

from __future__ import annotations

import asyncio
import hashlib
import tempfile
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from akgen_lsp.check.result import check_timeout
from akgen_lsp.check.worker import CheckFailed, CheckWorker, checker_for, plain_settings
from akgen_lsp.config import Settings
from akgen_lsp.findings import finding_to_json, sort_findings
from akgen_lsp.repair.flow import FixRun, NoTask, Say, fix_flow, quiet


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
        return check_timeout(float(settings["toolchain.timeout_s"]))

    async def check(
        self,
        path: Path,
        settings: Settings,
        *,
        text: str | None = None,
        task: str | None = None,
        max_cases: int | None = None,
        trace: Path | None = None,
    ) -> dict[str, Any]:
        """The save check of `path` (or of `text` as that file): findings (the CLI's JSON), figures, the trace.
        Raises CheckFailed (a sentence) when the check could not run, TimeoutError past the settings' limit."""
        trace = trace or self.trace_path(path)
        result = await self.worker.check(
            str(path),
            plain_settings(settings),
            self.timeout(settings),
            str(trace),
            text=text,
            task_name=task,
            max_cases=max_cases,
        )
        figures = result.figures.to_json()
        trace_file = figures.get("trace") or (str(trace) if trace.is_file() else None)
        return {
            "findings": [finding_to_json(f) for f in sort_findings(result.findings)],
            "figures": figures,
            "seconds": round(result.seconds, 3),
            "trace": trace_file,
        }

    async def fix(
        self,
        path: Path,
        text: str,
        settings: Settings,
        *,
        task: str | None = None,
        use_model: bool = True,
        say: Say = quiet,
    ) -> FixRun:
        """`akgen fix`'s flow (repair/flow.py) on the warm worker. Nothing is written here; raises CheckFailed when
        the kernel has no task to verify a fix against."""
        checker = checker_for(self.worker, plain_settings(settings), self.timeout(settings), task_name=task)
        try:
            return await fix_flow(path, text, checker, settings, use_model=use_model, say=say)
        except NoTask as exc:
            raise CheckFailed(str(exc)) from None

    async def close(self) -> None:
        if self._warming is not None and not self._warming.done():
            self._warming.cancel()
        await self.worker.close()

    def kill_now(self) -> None:
        self.worker.kill_now()

    @property
    def worker_pid(self) -> int | None:
        return self.worker.pid if self.worker.running else None


def figures_of(result: Mapping[str, Any]) -> dict[str, Any]:
    """The figures an agent reads first (the rest stay under ``figures``)."""
    fig = result.get("figures") or {}
    keys = ("task", "status", "cases", "passed_cases", "estimate_us", "estimate_label", "arch", "bound")
    return {k: fig.get(k) for k in keys}


__all__ = ["CheckFailed", "CheckService", "FixRun", "figures_of"]
