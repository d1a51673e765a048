"""Execution of candidates: an `Executor` interface, a local process pool, and the JSONL result store that makes a
run resumable.

A cluster engine can replace `LocalPoolExecutor` by implementing `Executor.run(jobs, on_result)`: it receives
picklable `Job`s and must call `on_result` once per job with the record `evaluate_job` returns (or a timeout
record from `timeout_record`).
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import time
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, TextIO

from akgen_lsp.bench.pipeline import Candidate, RunSettings, evaluate
from akgen_lsp.bench.tasks import load_task
from akgen_lsp.sandbox.lifetime import die_with_parent


@dataclass(frozen=True)
class Job:
    task_root: str
    candidate: Candidate
    settings: RunSettings
    timeout_s: float = 900.0

    @property
    def key(self) -> str:
        return record_key(self.candidate.task_id, self.candidate.sample, self.settings.mode)


def record_key(task: str, sample: int, mode: str) -> str:
    return f"{task}#{sample}#{mode}"


def evaluate_job(job: Job) -> dict[str, Any]:
    """Run one job (in a worker process). Never raises: an unexpected error becomes a harness_error record."""
    try:
        task = load_task(Path(job.task_root))
        return evaluate(task, job.candidate, job.settings)
    except Exception as exc:  # a bug in the harness must not kill the run
        return _failed_record(
            job, "harness_error", "harness", "BENCH-INTERNAL", f"internal error: {type(exc).__name__}: {exc}"
        )


def _level(task_id: str) -> int:
    m = re.match(r"level(\d+)/", task_id)
    return int(m.group(1)) if m else 0


def timeout_record(job: Job) -> dict[str, Any]:
    return _failed_record(
        job,
        "timeout",
        "runtime",
        "BENCH-TIMEOUT",
        f"the candidate took longer than {job.timeout_s:g} s in all; stopped",
        parsed=True,
    )


def _failed_record(
    job: Job, status: str, error_class: str, code: str, message: str, parsed: bool = False
) -> dict[str, Any]:
    """The record of a job that gave none of its own (it raised, or ran out of time)."""
    return {
        "task": job.candidate.task_id,
        "sample": job.candidate.sample,
        "mode": job.settings.mode,
        "level": _level(job.candidate.task_id),
        "status": status,
        "error_class": error_class,
        "parsed": parsed,
        "compiled": False,
        "ran": False,
        "correct": False,
        "passed_cases": 0,
        "cases": 0,
        "score": 0.0,
        "findings": [
            {
                "severity": "error",
                "code": code,
                "source": "akgen-bench",
                "message": message,
                "error_class": error_class,
            }
        ],
    }


class Executor(Protocol):
    def run(self, jobs: Sequence[Job], on_result: Callable[[Job, dict[str, Any]], None]) -> None: ...


def close_executor(executor: Executor) -> None:
    """End what an executor keeps between its `run` calls (Ray, started by its first run); a no-op for the others.
    The one who made the executor closes it when the whole run is over."""
    close = getattr(executor, "close", None)
    if callable(close):
        close()


class SerialExecutor:
    """In-process, one job after the other (tests, debugging, --jobs 1)."""

    def run(self, jobs: Sequence[Job], on_result: Callable[[Job, dict[str, Any]], None]) -> None:
        for job in jobs:
            on_result(job, evaluate_job(job))


class LocalPoolExecutor:
    """A process pool sized to the cores (or `workers`), with a wall-clock limit per candidate."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = max(1, workers or (os.cpu_count() or 1))

    def run(self, jobs: Sequence[Job], on_result: Callable[[Job, dict[str, Any]], None]) -> None:
        import time

        if not jobs:
            return
        torch_needed = _needs_torch(jobs)
        pool = ProcessPoolExecutor(
            max_workers=self.workers, initializer=warm_worker, initargs=(torch_needed, os.getpid())
        )
        pending: dict[Future[dict[str, Any]], tuple[Job, float]] = {}
        queue = list(jobs)
        timed_out = False
        try:
            while queue or pending:
                broken = False
                while queue and len(pending) < self.workers and not broken:
                    job = queue.pop(0)
                    try:
                        pending[pool.submit(evaluate_job, job)] = (job, time.monotonic())
                    except BrokenProcessPool:
                        queue.insert(0, job)
                        broken = True
                if not broken:
                    done, _ = wait(list(pending), timeout=1.0, return_when=FIRST_COMPLETED)
                    for fut in done:
                        job, _t = pending.pop(fut)
                        try:
                            on_result(job, fut.result())
                        except BrokenProcessPool:
                            broken = True
                            pending[fut] = (job, _t)  # settled below with the other casualties
                        except Exception as exc:
                            on_result(job, evaluate_job_failure(job, exc))
                if broken:
                    # A worker died (a crash in a task's own Python, out of memory): every job of the pool is lost
                    # with it. Run each of them again alone, so that only the one that kills its worker fails.
                    suspects = [job for job, _t in pending.values()]
                    pending.clear()
                    _kill_workers(pool)
                    pool.shutdown(wait=False, cancel_futures=True)
                    for job in suspects:
                        on_result(job, _run_alone(job))
                    pool = ProcessPoolExecutor(
                        max_workers=self.workers,
                        initializer=warm_worker,
                        initargs=(torch_needed, os.getpid()),
                    )
                    timed_out = False
                    continue
                now = time.monotonic()
                for fut, (job, t0) in list(pending.items()):
                    if now - t0 > job.timeout_s:
                        pending.pop(fut)
                        fut.cancel()
                        timed_out = True
                        on_result(job, timeout_record(job))
                if timed_out and not pending and queue:
                    # a worker may still be busy with a stopped candidate: start a fresh pool for the rest
                    _kill_workers(pool)
                    pool.shutdown(wait=False, cancel_futures=True)
                    pool = ProcessPoolExecutor(
                        max_workers=self.workers,
                        initializer=warm_worker,
                        initargs=(torch_needed, os.getpid()),
                    )
                    timed_out = False
        finally:
            if timed_out or pending:
                _kill_workers(pool)
            pool.shutdown(wait=False, cancel_futures=True)


def _needs_torch(jobs: Sequence[Job]) -> bool:
    """Whether some job's task has a PyTorch reference (module.py and no numpy reference_np.py)."""
    for j in jobs:
        v = Path(j.task_root) / "validation"
        if (v / "module.py").is_file() and not (v / "reference_np.py").is_file():
            return True
    return False


def warm_worker(torch_needed: bool = False, parent: int | None = None) -> None:
    """Pool initializer: the worker dies with the process that started the pool (`parent`: a run killed or
    interrupted leaves no worker behind, and the worker's boxes die with it), then imports once what every
    candidate needs (the pipeline, the simulator's Python side and, for tasks with PyTorch references, torch:
    seconds to import), so that a worker's first candidate does not carry the import in its harness time. Never
    raises."""
    import importlib
    import importlib.util

    die_with_parent(parent)

    for name in ("numpy", "akgen_lsp.bench.pipeline", "akgen_lsp.sim", "akgen_lsp.sim.runner", "torch"):
        if name == "torch" and (not torch_needed or importlib.util.find_spec("torch") is None):
            continue
        with contextlib.suppress(Exception):
            importlib.import_module(name)


def _run_alone(job: Job) -> dict[str, Any]:
    """One job in a pool of its own (after a worker died): its record, or a harness error naming the crash."""
    pool = ProcessPoolExecutor(
        max_workers=1, initializer=warm_worker, initargs=(_needs_torch([job]), os.getpid())
    )
    try:
        fut = pool.submit(evaluate_job, job)
        try:
            return fut.result(timeout=job.timeout_s)
        except BrokenProcessPool:
            return evaluate_job_failure(
                job,
                RuntimeError(
                    "the worker process died while running this candidate "
                    "(a crash in the task's Python or out of memory)"
                ),
            )
        except TimeoutError:
            return timeout_record(job)
        except Exception as exc:
            return evaluate_job_failure(job, exc)
    finally:
        _kill_workers(pool)
        pool.shutdown(wait=False, cancel_futures=True)


def _kill_workers(pool: ProcessPoolExecutor) -> None:
    """Stop the pool's worker processes (a candidate past its time limit may still run in one)."""
    for proc in list(getattr(pool, "_processes", {}).values()):
        with contextlib.suppress(OSError, AttributeError):
            proc.kill()


def evaluate_job_failure(job: Job, exc: BaseException) -> dict[str, Any]:
    return _failed_record(
        job,
        "harness_error",
        "harness",
        "BENCH-WORKER",
        f"the worker process failed: {type(exc).__name__}: {exc}",
        parsed=True,
    )


class ResultStore:
    """``results.jsonl``: one record per finished candidate, appended and flushed as it finishes, so an interrupted
    run resumes where it stopped (records already there are not run again).

    With ``fsync_each`` (the default: a bench record stands for seconds of compile and run) every record is also
    fsynced. Without it (a generation run's rounds, some a sentence of the model's), one handle stays open and each
    record is written and flushed to the operating system, which keeps it through the process being killed; `close`
    fsyncs once (at the end of the run), so only a power loss can take the records written since. `write_s` holds
    each append's seconds, for the loop's overhead figures."""

    def __init__(self, path: Path, *, fsync_each: bool = True) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.fsync_each = fsync_each
        self.write_s: list[float] = []
        self.sync_s = 0.0
        self._fh: TextIO | None = None

    def load(self) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        if not self.path.is_file():
            return out
        with self.path.open(encoding="utf-8") as fh:
            for line in fh:
                line = line.strip()
                if not line:
                    continue
                try:
                    out.append(json.loads(line))
                except json.JSONDecodeError:
                    continue  # a line cut short by an interruption: that candidate runs again
        return out

    def done_keys(self) -> set[str]:
        return {
            record_key(r["task"], int(r.get("sample", 0)), r.get("mode", "static"))
            for r in self.load()
            if "task" in r
        }

    def _lead(self) -> str:
        if self.path.is_file() and self.path.stat().st_size > 0:
            with self.path.open("rb") as fh:
                fh.seek(-1, os.SEEK_END)
                if fh.read(1) != b"\n":
                    return "\n"  # close a line cut short by an interruption
        return ""

    def append(self, record: dict[str, Any]) -> None:
        t0 = time.perf_counter()
        line = json.dumps(record, ensure_ascii=False, default=str) + "\n"
        if self._fh is not None:
            self._fh.write(line)
            self._fh.flush()
        else:
            lead = self._lead()
            fh = self.path.open("a", encoding="utf-8")
            fh.write(lead + line)
            fh.flush()
            if self.fsync_each:
                os.fsync(fh.fileno())
                fh.close()
            else:
                self._fh = fh
        self.write_s.append(time.perf_counter() - t0)

    def close(self) -> None:
        """Fsync and close the open handle (``fsync_each=False``); appending again opens it again."""
        fh, self._fh = self._fh, None
        if fh is None:
            return
        t0 = time.perf_counter()
        try:
            fh.flush()
            os.fsync(fh.fileno())
        finally:
            fh.close()
            self.sync_s += time.perf_counter() - t0


def pending_jobs(jobs: Iterable[Job], store: ResultStore) -> list[Job]:
    done = store.done_keys()
    return [j for j in jobs if j.key not in done]
