"""One bench run: select tasks, collect candidates, skip what the JSONL store already holds, execute, summarise,
write ``results.jsonl``, ``summary.json`` and ``report.html`` in the output folder."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from akgen_lsp.bench.candidates import answer_candidates, dir_candidates
from akgen_lsp.bench.cann import select_toolchain
from akgen_lsp.bench.executor import Executor, Job, LocalPoolExecutor, ResultStore, SerialExecutor, record_key
from akgen_lsp.bench.pipeline import RunSettings
from akgen_lsp.bench.report import write_report
from akgen_lsp.bench.summary import summarise
from akgen_lsp.bench.tasks import Task, TaskError, discover_tasks, no_tasks_message

SUITE_DIR = Path(__file__).resolve().parent / "suite"


def default_suite() -> Path:
    return SUITE_DIR


RUN_WALL_S = 300.0  # NPUKernelBench's eval.timeout_precision
RUN_CPU_S = 60


@dataclass
class RunOptions:
    suite: Path = field(default_factory=default_suite)
    level: int | None = None
    tasks: Sequence[str] = ()
    mode: str = "static"
    candidates: str = "answers"  # "answers" or a directory
    samples: int | None = None
    jobs: int | None = None
    out: Path = Path("bench-out")
    arch: str = "Ascend910B2"
    timeout_s: float = 900.0
    max_cases: int | None = None
    toolchain: str = "auto"  # sim | cann | auto (cann when ASCEND_HOME_PATH points at a CANN install)
    checks: str = "npu"  # the sim's check mode: npu or cpu-debug (docs/sim.md "Check modes")


def select_tasks(opts: RunOptions) -> list[Task]:
    """The tasks of the run; TaskError, naming where it looked and for what, when there is none."""
    tasks = discover_tasks(opts.suite, level=opts.level, names=list(opts.tasks) or None)
    if not tasks:
        raise TaskError(no_tasks_message(opts.suite, opts.level, list(opts.tasks)))
    return tasks


def make_jobs(opts: RunOptions, tasks: Sequence[Task]) -> list[Job]:
    if opts.candidates == "answers":
        cands = answer_candidates(tasks, opts.samples)
    else:
        cdir = Path(opts.candidates)
        if not cdir.is_dir():
            raise FileNotFoundError(
                f"candidates folder not found: {cdir}; give `answers` or a folder of generated "
                "kernels (see docs/bench.md)"
            )
        cands = dir_candidates(cdir, tasks, opts.samples)
    roots = {t.id: str(t.root) for t in tasks}
    # a case's run may take NPUKernelBench's eval timeout (300 s) of wall clock and 60 s of CPU: on a loaded machine
    # the wall clock of a big case (StridesliceNegConcatV2's 512M elements) passes 60 s, its CPU time does not
    settings = RunSettings(
        mode=opts.mode,
        arch=opts.arch,
        max_cases=opts.max_cases,
        toolchain=opts.toolchain,
        checks=opts.checks,
        run_timeout_s=RUN_WALL_S,
        run_cpu_s=RUN_CPU_S,
    )
    return [Job(roots[c.task_id], c, settings, opts.timeout_s) for c in cands]


def run_bench(
    opts: RunOptions,
    executor: Executor | None = None,
    progress: Callable[[int, int, dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Run (or resume) a bench run and return its summary."""
    if opts.mode not in ("static", "dynamic"):
        raise ValueError(f"unknown mode {opts.mode!r}: use static or dynamic")
    tasks = select_tasks(opts)
    jobs = make_jobs(opts, tasks)
    store = ResultStore(opts.out / "results.jsonl")
    done = store.done_keys()
    todo = [j for j in jobs if j.key not in done]
    total = len(jobs)
    count = [total - len(todo)]

    def on_result(job: Job, rec: dict[str, Any]) -> None:
        store.append(rec)
        count[0] += 1
        if progress:
            progress(count[0], total, rec)

    if executor is None:
        executor = SerialExecutor() if (opts.jobs or 2) == 1 else LocalPoolExecutor(opts.jobs)
    executor.run(todo, on_result)
    wanted = {j.key for j in jobs}
    records = [
        r
        for r in store.load()
        if record_key(r.get("task", ""), int(r.get("sample", 0)), r.get("mode", "static")) in wanted
    ]
    meta = {
        "suite": str(opts.suite),
        "mode": opts.mode,
        "toolchain": select_toolchain(opts.toolchain),
        "arch": opts.arch,
        "candidates_from": opts.candidates,
        "resumed": total - len(todo),
        "checks": opts.checks,
    }
    summary = summarise(records, meta)
    write_report(opts.out, summary)
    return summary
