"""A Ray executor for the bench's `Executor` interface: the same jobs as the local pool, on a Ray cluster (or Ray's
local mode, in which the tests run it).

``ray`` is an optional extra (``pip install 'akgen-lsp[ray]'``; pinned below 2.50, the last releases with the local
mode the tests use). Each job runs as one Ray task of `evaluate_job` (one CPU); a job past its time limit is cancelled
(``ray.cancel(force=True)`` kills its worker) and recorded as a timeout, and a task that dies is recorded as a harness
error naming the reason, so one bad candidate never stops the run. Results arrive in completion order.
"""

from __future__ import annotations

import importlib
import time
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

from akgen_lsp.bench.executor import Job, evaluate_job, evaluate_job_failure, timeout_record


class RayUnavailable(RuntimeError):
    """Ray is not installed or cannot start; the message says what to do."""


def _ray() -> ModuleType:
    try:
        return importlib.import_module("ray")
    except ImportError:
        raise RayUnavailable(
            "the Ray executor needs ray: pip install 'akgen-lsp[ray]' (or `pip install "
            "'ray>=2.9,<2.50'`), or use --executor local"
        ) from None


class RayExecutor:
    """`run(jobs, on_result)` on Ray. `address`: a cluster to join (``ray://host:10001`` or ``auto``); None starts a
    local Ray. `local_mode`: Ray's in-process mode (tests, debugging).

    Ray is started (or joined) by the first `run` and kept for the later ones: a generation run evaluates each round
    as a batch, and starting Ray per batch cost seconds a round. `close()` (or the ``with`` block's end) shuts down
    the Ray this executor started (with `shutdown`); a Ray someone else started is left alone."""

    def __init__(
        self,
        address: str | None = None,
        num_cpus: int | None = None,
        local_mode: bool = False,
        shutdown: bool = True,
    ) -> None:
        self.address = address
        self.num_cpus = num_cpus
        self.local_mode = local_mode
        self.shutdown = shutdown
        self.started = False  # this executor started Ray (and shuts it down on close)
        self.inits = 0  # how many times it called ray.init

    def __enter__(self) -> RayExecutor:
        return self

    def __exit__(self, *_exc: object) -> None:
        self.close()

    def _start(self) -> ModuleType:
        ray = _ray()
        if ray.is_initialized():
            return ray
        kwargs: dict[str, Any] = {
            "include_dashboard": False,
            "log_to_driver": False,
            "ignore_reinit_error": True,
        }
        if self.address:
            kwargs["address"] = self.address
        else:
            kwargs["num_cpus"] = self.num_cpus
        if self.local_mode:
            kwargs["local_mode"] = True
        try:
            ray.init(**kwargs)
        except Exception as exc:
            raise RayUnavailable(f"Ray did not start: {exc}") from None
        self.started = True
        self.inits += 1
        return ray

    def run(self, jobs: Sequence[Job], on_result: Callable[[Job, dict[str, Any]], None]) -> None:
        if not jobs:
            return
        self._run(self._start(), jobs, on_result)

    def close(self) -> None:
        """Shut down the Ray this executor started (with `shutdown`); a later `run` starts it again."""
        if not self.started:
            return
        self.started = False
        if self.shutdown:
            ray = _ray()
            if ray.is_initialized():
                ray.shutdown()

    def _run(
        self, ray: ModuleType, jobs: Sequence[Job], on_result: Callable[[Job, dict[str, Any]], None]
    ) -> None:
        task = ray.remote(num_cpus=1, max_retries=0)(evaluate_job)
        window = max(1, int(self.num_cpus or ray.available_resources().get("CPU", 1)) * 2)
        queue = list(jobs)
        pending: dict[Any, tuple[Job, float]] = {}
        while queue or pending:
            while queue and len(pending) < window:
                job = queue.pop(0)
                pending[task.remote(job)] = (job, time.monotonic())
            done, _ = ray.wait(list(pending), num_returns=1, timeout=1.0)
            for ref in done:
                job, _t0 = pending.pop(ref)
                try:
                    rec = ray.get(ref)
                except Exception as exc:  # the task died (its worker crashed or was killed)
                    rec = evaluate_job_failure(job, exc)
                on_result(job, rec)
            now = time.monotonic()
            for ref, (job, t0) in list(pending.items()):
                if now - t0 > job.timeout_s:
                    pending.pop(ref)
                    ray.cancel(ref, force=True)
                    on_result(job, timeout_record(job))
