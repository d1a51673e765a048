"""Long tools that run the `akgen` command itself in a child process: `sim run`, `sim run-program`, `bench run`.

A child of its own session, so a cancelled tool call (``notifications/cancelled``) kills the whole process group
(the compiler, the sandboxed kernel, the bench's pool) at once; the tool's progress is a tick per second with what
the caller's `progress` says about it (the bench counts the records it has written).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio

Tick = Callable[[float], Awaitable[None]]


class JobFailed(RuntimeError):
    """The command did not give a result: a sentence with what it printed last."""


@dataclass
class JobResult:
    code: int
    stdout: str
    stderr: str
    seconds: float

    def json(self) -> Any:
        """The JSON the command printed (its ``--json`` output), or JobFailed with its last words."""
        try:
            return json.loads(self.stdout)
        except ValueError:
            tail = (self.stderr or self.stdout).strip().splitlines()[-5:]
            raise JobFailed(
                f"akgen exited with status {self.code} and no JSON result: " + " | ".join(tail)
            ) from None


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(pid, signal.SIGKILL)


async def run_akgen(
    args: Sequence[str],
    cwd: Path,
    timeout_s: float,
    tick: Tick | None = None,
    env: dict[str, str] | None = None,
) -> JobResult:
    """`python -m akgen_lsp ARGS` in `cwd`; `tick(seconds)` about once a second while it runs. Cancelling the
    awaiting task, or `timeout_s` passing (TimeoutError), kills its process group."""
    started = time.perf_counter()
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "akgen_lsp",
        *args,
        cwd=str(cwd),
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        start_new_session=True,
        env={**os.environ, **(env or {})},
    )
    communicate = asyncio.ensure_future(proc.communicate())
    try:
        while True:
            done, _ = await asyncio.wait({communicate}, timeout=1.0)
            if done:
                break
            elapsed = time.perf_counter() - started
            if elapsed > timeout_s:
                raise TimeoutError(
                    f"akgen {' '.join(args[:2])} took more than {timeout_s:g} s and was stopped"
                )
            if tick is not None:
                await tick(elapsed)
        out, err = communicate.result()
    finally:
        if proc.returncode is None:
            _kill_group(proc.pid)
            communicate.cancel()
            with anyio.CancelScope(shield=True), contextlib.suppress(asyncio.TimeoutError, TimeoutError):
                await asyncio.wait_for(proc.wait(), 5.0)
    return JobResult(
        int(proc.returncode or 0),
        out.decode(errors="replace"),
        err.decode(errors="replace"),
        time.perf_counter() - started,
    )
