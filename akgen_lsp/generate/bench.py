"""A generation run over tasks: `akgen generate --task T` (one task) and `akgen bench run --candidates model` (a
suite). For every instance (a task in dynamic shape, each of its cases in static shape, as NPUKernelBench's
``fixed_case_<c>`` instances) and sample, an `Attempt`; `loop.run_rounds` drives them all against one backend, the
round's answers evaluated through the bench's `Executor`. Every round is appended to ``OUT/results.jsonl`` as it
finishes; running the same command again replays the rounds found there (no model call, no evaluation) and goes
on where the run stopped. At the end: each sample's best kernel in the answer layout (``OUT/kernels/<Op>/<S>/
op_kernel/<op>.cpp``, and in dynamic shape its ``op_host/``, which `akgen bench run --candidates OUT/kernels`
scores again), the training data
(`training`), and ``OUT/summary.json`` (`summary.summarise_rounds`).
"""

from __future__ import annotations

import asyncio
import json
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from akgen_lsp.ascendc.arch import load_arch
from akgen_lsp.ascendc.catalog import load_catalog
from akgen_lsp.bench.executor import Executor, ResultStore, SerialExecutor
from akgen_lsp.bench.pipeline import RunSettings
from akgen_lsp.bench.runner import default_suite
from akgen_lsp.bench.tasks import Task, TaskError, discover_tasks, no_tasks_message
from akgen_lsp.config import Settings
from akgen_lsp.errors.store import RepairStore
from akgen_lsp.generate.attempt import Attempt, LoopConfig
from akgen_lsp.generate.evaluators import ExecutorEvaluator
from akgen_lsp.generate.loop import Progress, replay, round_line, run_rounds, token_counter
from akgen_lsp.generate.memory import ExperienceMemory
from akgen_lsp.generate.summary import summarise_rounds
from akgen_lsp.generate.training import write_training
from akgen_lsp.model.backends.base import Backend
from akgen_lsp.model.registry import ModelSpec


@dataclass
class GenerateOptions:
    suite: Path = field(default_factory=default_suite)
    level: int | None = None
    tasks: Sequence[str] = ()
    cases: Sequence[int] = ()  # static shape: only these cases (default: the first `max_cases` of each task)
    max_cases: int | None = 1
    samples: int = 1
    out: Path = Path("generate-out")
    arch: str = "Ascend910B2"
    memory: Path | None = None  # the repair store the experience memory reads and writes (None: no memory)
    example: str = ""
    model: str = "model"  # the model's name in the summary and the training data
    toolchain: str = "auto"
    checks: str = "npu"
    eval_timeout_s: float = 900.0
    eval_max_cases: int | None = (
        None  # dynamic shape: run only the first N cases of a task (benchmarks, smoke runs)
    )


def _instances(task: Task, opts: GenerateOptions, mode: str) -> list[int | None]:
    if mode == "dynamic":
        return [None]
    ids = [c.case_id for c in task.cases()]
    if opts.cases:
        missing = [c for c in opts.cases if c not in ids]
        if missing:
            raise TaskError(
                f"task {task.id} has no case {missing[0]}; its cases are "
                f"{', '.join(str(i) for i in ids[:12])}"
            )
        return list(opts.cases)
    return list(ids[: opts.max_cases] if opts.max_cases else ids)


def make_attempts(
    tasks: Sequence[Task],
    opts: GenerateOptions,
    cfg: LoopConfig,
    settings: Settings,
    memory: ExperienceMemory | None,
) -> tuple[list[Attempt], list[dict[str, str]]]:
    """The attempts of the run, and the tasks left out with the reason (no api_desc.md, no test cases)."""
    arch = load_arch(opts.arch)
    catalog = load_catalog()
    attempts: list[Attempt] = []
    skipped: list[dict[str, str]] = []
    for t in tasks:
        try:
            for case in _instances(t, opts, cfg.mode):
                for s in range(opts.samples):
                    attempts.append(
                        Attempt(
                            t,
                            arch,
                            cfg,
                            settings,
                            case_id=case,
                            sample=s,
                            example=opts.example,
                            memory=memory,
                            catalog=catalog,
                        )
                    )
        except TaskError as exc:
            if len(tasks) == 1:
                raise
            skipped.append({"task": t.id, "reason": str(exc)})
    return attempts, skipped


def grammar_for(grammars: Sequence[str]) -> Callable[[int, Attempt], str | None] | None:
    """Round r's grammar: the r-th of `grammars`, the last one for later rounds (None without any)."""
    gs = [g for g in grammars if g]
    if not gs:
        return None
    return lambda r, _a: gs[min(r, len(gs) - 1)]


def loop_config(
    settings: Settings, backend: Backend, spec: ModelSpec | None = None, **over: Any
) -> LoopConfig:
    """The loop's configuration from the settings (``generate.*``), the model's context (the backend's, else the
    registry's) and its chat template; `over` replaces any field (the command line's options)."""
    n_ctx = getattr(backend, "n_ctx", None)
    context = (
        int(n_ctx) if isinstance(n_ctx, int) and n_ctx > 0 else (spec.context if spec is not None else 32768)
    )
    cfg = LoopConfig(
        rounds=max(1, int(settings["generate.rounds"])),
        perf_rounds=max(0, int(settings["generate.perf_rounds"])),
        mode=str(settings["bench.mode"]),
        max_tokens=int(settings["generate.max_tokens"]),
        temperature=float(settings["generate.temperature"]),
        top_p=float(settings["model.top_p"]),
        timeout_s=float(settings["generate.timeout_s"]),
        context=context,
        concurrency=max(1, int(settings["generate.concurrency"])),
        think=bool(spec.think) if spec is not None else False,
        chat_template=spec.chat_template if spec is not None else "qwen3",
        grammar=grammar_for([str(g) for g in settings["generate.grammar"]]),
    )
    return replace(cfg, **{k: v for k, v in over.items() if v is not None})


def run_generation(
    opts: GenerateOptions,
    cfg: LoopConfig,
    backend: Backend,
    settings: Settings,
    *,
    executor: Executor | None = None,
    progress: Progress | None = None,
    on_line: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """`generation` in an event loop of its own."""
    return asyncio.run(
        generation(opts, cfg, backend, settings, executor=executor, progress=progress, on_line=on_line)
    )


async def generation(
    opts: GenerateOptions,
    cfg: LoopConfig,
    backend: Backend,
    settings: Settings,
    *,
    executor: Executor | None = None,
    progress: Progress | None = None,
    on_line: Callable[[dict[str, Any]], None] | None = None,
) -> dict[str, Any]:
    """Run (or resume) a generation run with a loaded `backend`; returns its summary (see the module docstring)."""
    tasks = discover_tasks(opts.suite, level=opts.level, names=list(opts.tasks) or None)
    if not tasks:
        raise TaskError(no_tasks_message(opts.suite, opts.level, list(opts.tasks)))
    store = RepairStore(opts.memory) if opts.memory is not None else None
    memory = ExperienceMemory(store, model=opts.model) if store is not None else None
    attempts, skipped = make_attempts(tasks, opts, cfg, settings, memory)
    results = ResultStore(
        opts.out / "results.jsonl", fsync_each=False
    )  # flushed per round, fsynced at the end
    stored: dict[tuple[str, str, int, str], list[dict[str, Any]]] = defaultdict(list)
    for line in results.load():
        key = (
            str(line.get("task")),
            str(line.get("case")),
            int(line.get("sample", 0)),
            str(line.get("mode")),
        )
        stored[key].append(line)
    count = token_counter(backend)
    resumed = 0
    for a in attempts:
        lines = stored.get((a.task.id, str(a.case_id), a.sample, cfg.mode))
        if lines:
            replay(a, lines, opts.arch, count)
            resumed += len(a.rounds)

    def on_round(a: Attempt, r: Any) -> None:
        line = round_line(a, r)
        results.append(line)
        if on_line is not None:
            on_line(line)

    psettings = RunSettings(
        arch=opts.arch,
        toolchain=opts.toolchain,
        checks=opts.checks,
        mode=cfg.mode,
        max_cases=opts.eval_max_cases,
    )
    evaluate = ExecutorEvaluator(executor or SerialExecutor(), psettings, opts.eval_timeout_s)
    try:
        await run_rounds(attempts, backend, evaluate, cfg, on_round=on_round, progress=progress)
    finally:
        results.close()
    written = {
        "rounds_written": len(results.write_s),
        "write_s": [round(x, 6) for x in results.write_s],
        "sync_s": round(results.sync_s, 6),
    }
    return finish_run(attempts, opts, cfg, skipped, resumed, memory, written)


def _sealed_last(lines: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    from akgen_lsp.generate.loop import _seal_key, sealed

    key = _seal_key()
    last: dict[tuple[str, str, str, str, str], dict[str, Any]] = {}
    for line in lines:
        if sealed(line, key):
            last[tuple(str(line.get(k)) for k in ("task", "case", "sample", "mode", "round"))] = line  # type: ignore[index]
    return list(last.values())


def finish_run(
    attempts: Sequence[Attempt],
    opts: GenerateOptions,
    cfg: LoopConfig,
    skipped: Sequence[dict[str, str]],
    resumed: int,
    memory: ExperienceMemory | None,
    written: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The kernels, the training data and the summary of a run whose attempts are over; `written` is what this
    run's results file cost (the seconds of each round's line, in the order written, and the final fsync)."""
    kernels = opts.out / "kernels"
    best: list[dict[str, Any]] = []
    for a in attempts:
        if a.best is None or a.best.code is None:
            continue
        name = a.task.name if a.case_id is None else f"{a.task.name}/fixed_case_{a.case_id}"
        folder = kernels / name / str(a.sample) / "op_kernel"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"{a.task.op}.cpp").write_text(a.best.code.rstrip() + "\n", encoding="utf-8")
        host = a.host_files(a.best)  # dynamic shape: its op_host beside op_kernel, as an answer folder has it
        if host:
            (folder.parent / "op_host").mkdir(exist_ok=True)
            for fname, text in host.items():
                (folder.parent / "op_host" / fname).write_text(text.rstrip() + "\n", encoding="utf-8")
        best.append(
            {
                "task": a.task.id,
                "case": a.case_id,
                "sample": a.sample,
                "round": a.best.index,
                "estimate_us": a.best.outcome.estimate_us if a.best.outcome else None,
                "path": str(folder / f"{a.task.op}.cpp"),
            }
        )
    training = write_training(attempts, opts.out / "training", opts.model)
    # only this user's sealed lines count (a planted or edited line reports nothing), the last line of each round
    lines = _sealed_last(ResultStore(opts.out / "results.jsonl").load())
    meta = {
        "model": opts.model,
        "mode": cfg.mode,
        "rounds": cfg.rounds,
        "perf_rounds": cfg.perf_rounds,
        "samples_per_instance": opts.samples,
        "arch": opts.arch,
        "resumed_rounds": resumed,
        "memory": str(opts.memory) if opts.memory else None,
        "memory_added": memory.added if memory is not None else 0,
        "skipped": list(skipped),
    }
    summary = summarise_rounds(lines, meta)
    summary["stopped"] = sorted(set(summary["stopped"]) | {a.stopped for a in attempts if a.stopped})
    summary["best"] = best
    summary["training"] = training
    if written is not None:
        summary["results_file"] = written
    summary["attempts"] = [
        {
            "task": a.task.id,
            "case": a.case_id,
            "sample": a.sample,
            "rounds": len(a.rounds),
            "passed_at": a.passed_at,
            "stopped": a.stopped,
            "best": a.best.summary() if a.best else None,
            "history": [r.summary() for r in a.rounds],
        }
        for a in attempts
    ]
    (opts.out / "summary.json").write_text(json.dumps(summary, indent=2, default=str), encoding="utf-8")
    return summary
