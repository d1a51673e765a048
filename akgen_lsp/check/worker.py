"""The server's side of the persistent check worker (`check.process`): start it, send jobs, kill what is cancelled.

One worker per server, started on first use (the first AscendC document opened warms it, with the precompiled
header), restarted when it dies. Each job is a process tree of its own in the worker (forked, its own session):

    result = await worker.check(path, settings, timeout_s, trace_to)   # CancelledError: the job's tree is killed

A cancelled or timed-out job is killed from here at once (its process group and every descendant) and the worker is
told too; a worker that dies fails its running jobs with a sentence and is started again for the next one.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import signal
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from akgen_lsp.check.process import PARENT_ENV, kill_tree
from akgen_lsp.check.result import CheckResult, Figures, FilesChecker
from akgen_lsp.check.settings import plain_settings as plain_settings  # the callers' one import of the worker
from akgen_lsp.findings import Finding, Span

log = logging.getLogger(__name__)

MODULE = "akgen_lsp.check.process"


class CheckFailed(RuntimeError):
    """The check could not run (the worker died, the job crashed, the answer was nonsense): a sentence to show."""


@dataclass
class _Job:
    id: int
    future: asyncio.Future[dict[str, Any]]
    pid: int | None = None


class CheckWorker:
    def __init__(self, python: str = sys.executable, env: Mapping[str, str] | None = None) -> None:
        self.python = python
        self.env = dict(os.environ if env is None else env)
        self.proc: asyncio.subprocess.Process | None = None
        self.pid: int | None = None
        self.starts = 0  # how many times a worker process was started
        self.import_s: float | None = None
        self._jobs: dict[int, _Job] = {}
        self._ids = 0
        self._reader: asyncio.Task[None] | None = None
        self._starting: asyncio.Future[None] | None = None
        self._closed = False

    # -------------------------------------------------------------------------------------------- lifetime

    @property
    def running(self) -> bool:
        return self.proc is not None and self.proc.returncode is None

    async def start(self) -> None:
        """Start the worker if it is not running, and wait until it has imported the check."""
        if self._closed:
            raise CheckFailed("the server is shutting down")
        if self.running and self._starting is not None and self._starting.done():
            return
        if self._starting is not None and not self._starting.done():
            return await asyncio.shield(self._starting)
        loop = asyncio.get_running_loop()
        self._starting = loop.create_future()
        env = {**self.env, PARENT_ENV: str(os.getpid())}
        try:
            self.proc = await asyncio.create_subprocess_exec(
                self.python,
                "-m",
                MODULE,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                env=env,
                limit=1 << 26,
            )
        except OSError as exc:
            self._starting.set_exception(CheckFailed(f"the check worker did not start ({exc})"))
            self._starting.exception()  # consumed here; raised below
            raise CheckFailed(f"the check worker did not start ({exc})") from exc
        self.pid = self.proc.pid
        self.starts += 1
        self._reader = asyncio.ensure_future(self._read(self.proc))
        await asyncio.shield(self._starting)

    async def _read(self, proc: asyncio.subprocess.Process) -> None:
        assert proc.stdout is not None
        reason = "its output ended"
        try:
            while True:
                line = await proc.stdout.readline()
                if not line:
                    break
                try:
                    message = json.loads(line)
                except ValueError:
                    log.warning("check worker: not JSON: %r", line[:200])
                    continue
                self._dispatch(message)
        except (ValueError, asyncio.LimitOverrunError) as exc:  # a line past the limit
            reason = f"its output could not be read ({exc})"
        finally:
            with contextlib.suppress(ProcessLookupError):
                proc.kill()
            code = await proc.wait()
            if self.proc is proc:
                self.proc = None
            how = f"killed by signal {-code}" if code < 0 else f"exit status {code}"
            problem = CheckFailed(
                f"the check worker stopped ({how}; {reason}); it is started again on the next save"
            )
            if self._starting is not None and not self._starting.done():
                self._starting.set_exception(problem)
            for job in list(self._jobs.values()):
                if job.pid is not None:
                    kill_tree(job.pid)
                if not job.future.done():
                    job.future.set_exception(problem)
            self._jobs.clear()
            if not self._closed:
                log.warning("%s", problem)

    def _dispatch(self, message: dict[str, Any]) -> None:
        event = message.get("event")
        if event == "ready":
            self.import_s = message.get("import_s")
            if self._starting is not None and not self._starting.done():
                self._starting.set_result(None)
            return
        job = self._jobs.get(message.get("id", -1))
        if job is None:
            if event == "error":
                log.warning("check worker: %s", message.get("message"))
            return
        if event == "started":
            job.pid = int(message["pid"])
        elif event in ("done", "error", "cancelled"):
            self._jobs.pop(job.id, None)
            if not job.future.done():
                job.future.set_result(message)

    def _send(self, message: dict[str, Any]) -> None:
        proc = self.proc
        if proc is None or proc.stdin is None or proc.returncode is not None:
            raise CheckFailed("the check worker is not running")
        proc.stdin.write((json.dumps(message) + "\n").encode())

    # -------------------------------------------------------------------------------------------- jobs

    async def _job(self, request: dict[str, Any], timeout_s: float) -> dict[str, Any]:
        await self.start()
        self._ids += 1
        job = _Job(self._ids, asyncio.get_running_loop().create_future())
        self._jobs[job.id] = job
        try:
            self._send({**request, "id": job.id})
            return await asyncio.wait_for(asyncio.shield(job.future), timeout_s)
        except BaseException:  # cancelled (a new save, close, shutdown) or timed out: kill its tree now
            self._cancel(job)
            raise

    def _cancel(self, job: _Job) -> None:
        if job.future.done():
            return
        if job.pid is not None:
            kill_tree(job.pid)
        with contextlib.suppress(CheckFailed, ConnectionError, RuntimeError):
            self._send({"op": "cancel", "id": job.id})
        job.future.cancel()
        self._jobs.pop(job.id, None)

    async def check(
        self,
        path: str,
        settings: Mapping[str, Any],
        timeout_s: float,
        trace_to: str | None = None,
        text: str | None = None,
        task_name: str | None = None,
        max_cases: int | None = None,
        required: Sequence[int] = (),
        host_dir: str | None = None,
    ) -> CheckResult:
        """`check_kernel(path, settings)` in a job of the worker (with `text`, that text checked as the file: a repair
        candidate; with `task_name`, against that suite task; with `host_dir`, that op_host folder in place of the
        task folder's: a generated kernel's host tiling). Raises CheckFailed with a sentence, TimeoutError past `timeout_s`; cancelling the awaiting task
        kills the job's process tree."""
        started = time.perf_counter()
        request: dict[str, Any] = {"op": "check", "path": path, "settings": dict(settings), "trace": trace_to}
        if text is not None:
            request["text"] = text
        if task_name:
            request["task"] = task_name
        if max_cases:
            request["max_cases"] = max_cases  # the first N cases only (a static-shape instance: the first)
        if required:
            request["required"] = [
                int(c) for c in required
            ]  # run first; nothing runs after one of them fails
        if host_dir:
            request["host_dir"] = host_dir
        answer = await self._job(request, timeout_s)
        if answer.get("event") == "error":
            raise CheckFailed(str(answer.get("message") or "the check failed"))
        try:
            return CheckResult.from_json(
                answer, float(answer.get("seconds") or time.perf_counter() - started)
            )
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise CheckFailed(f"the check worker gave an answer that is not findings ({exc})") from exc

    async def warm(self, settings: Mapping[str, Any], timeout_s: float = 300.0) -> dict[str, Any]:
        """Start the worker and build the precompiled header and launcher in a job (the first save then only
        compiles the kernel). Returns what was prepared; raises CheckFailed."""
        answer = await self._job({"op": "warm", "settings": dict(settings)}, timeout_s)
        if answer.get("event") == "error":
            raise CheckFailed(str(answer.get("message") or "warming the toolchain failed"))
        return dict(answer.get("figures") or {})

    def job_pids(self) -> list[int]:
        return [job.pid for job in self._jobs.values() if job.pid is not None]

    # -------------------------------------------------------------------------------------------- shutdown

    def kill_now(self) -> None:
        """Synchronously kill every job and the worker (the editor is gone; safe from any thread)."""
        self._closed = True
        for pid in self.job_pids():
            kill_tree(pid)
        if self.pid is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(self.pid, signal.SIGKILL)

    async def close(self) -> None:
        self._closed = True
        for job in list(self._jobs.values()):
            self._cancel(job)
        proc = self.proc
        if proc is not None and proc.returncode is None:
            with contextlib.suppress(CheckFailed, ConnectionError, RuntimeError):
                self._send({"op": "exit"})
            try:
                await asyncio.wait_for(proc.wait(), 2.0)
            except asyncio.TimeoutError:
                with contextlib.suppress(ProcessLookupError):
                    proc.kill()
                await proc.wait()
        if self._reader is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader


def checker_for(
    worker: CheckWorker,
    settings: Mapping[str, Any],
    timeout_s: float,
    task_name: str | None = None,
    max_cases: int | None = None,
) -> FilesChecker:
    """The repair layer's `Checker` over `worker`: each candidate text is a check job (cancelling the repair kills
    its jobs' trees). A job that could not run is a failed check of that candidate, not an exception. With `host`
    (file name -> text: a dynamic-shape answer's ``<op>.cpp`` and ``<op>_tiling.h``) those files are the op_host
    folder the kernel is checked with (a temporary folder, removed after the job)."""

    async def check(
        path: str, text: str, required: Sequence[int] = (), host: Mapping[str, str] | None = None
    ) -> CheckResult:
        try:
            with contextlib.ExitStack() as stack:
                host_dir = None
                if host:
                    host_dir = str(
                        Path(stack.enter_context(tempfile.TemporaryDirectory(prefix="akgen-host-")))
                        / "op_host"
                    )
                    Path(host_dir).mkdir()
                    for name, content in host.items():
                        (Path(host_dir) / Path(name).name).write_text(content, encoding="utf-8")
                result = await worker.check(
                    path,
                    settings,
                    timeout_s,
                    text=text,
                    task_name=task_name,
                    max_cases=max_cases,
                    required=required,
                    host_dir=host_dir,
                )
        except (CheckFailed, asyncio.TimeoutError, TimeoutError, OSError) as exc:
            why = str(exc) or f"the check took more than {timeout_s:g} s"
            problem = Finding(
                "BENCH-CHECK",
                f"the candidate could not be checked: {why}",
                Span.point(path, 1),
                source="akgen-bench",
                error_class="harness",
            )
            return CheckResult((problem,), Figures.harness_error())
        return result

    return check
