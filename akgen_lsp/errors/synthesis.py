"""Verified mutants of correct kernels (step 4 of `akgen errors synthesize`).

For each source kernel (a task's reference answer in the bundled suite, any folder of tasks in NPUKernelBench's
layout, a checkout of NPUKernelBench) the operators of `errors.mutations` propose realistic mistakes; at most
`per_kernel` of them, spread over the operators, are written as candidates and run through the bench's own pipeline
(compile, every selected case on the simulator, compare) by the bench's `Executor` (the local process pool, or Ray),
so a mutant is confined like any candidate and a hang or a crash is a record, never the end of the run. The linter
runs on each mutant too: a mistake the simulator's g++ accepts but the real toolchain or the chip refuses (a name of
a later CANN version, std::vector in device code) fails there.

A mutant is kept only when it really fails: the bench does not pass it, or the linter finds an error the original
does not have. Its record keeps the real findings, their blocks (classified), the primary block (the one a repair
starts from), what failed it, and the repair: the inverse edit, i.e. the original text, and the unified diff.
Records are appended to ``mutants.jsonl`` as they finish (fsynced), so an interrupted run resumes where it stopped.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from akgen_lsp.ascendc.catalog import Catalog, load_catalog
from akgen_lsp.ascendc.lint import lint_text
from akgen_lsp.bench.executor import Executor, Job, LocalPoolExecutor, ResultStore, SerialExecutor
from akgen_lsp.bench.pipeline import Candidate, RunSettings
from akgen_lsp.bench.ray_executor import RayExecutor
from akgen_lsp.bench.tasks import Answer, Task, discover_tasks, tasks_dir
from akgen_lsp.config import defaults
from akgen_lsp.errors.classify import Classifier
from akgen_lsp.errors.mutations import OBSERVABLE, Mutation, MutationContext, mutations, pick
from akgen_lsp.errors.store import unified_diff
from akgen_lsp.findings import Severity, finding_from_json
from akgen_lsp.logs.blocks import ErrorBlock
from akgen_lsp.logs.findings import block_from_finding, blocks_from_finding_json
from akgen_lsp.safety import copy_tree, read_regular

MUTANT_ORIGIN = "mutant"
HELPER_MAX_BYTES = 16 << 20  # a helper header copied beside a mutant
FAILED_STATUSES = ("parse_error", "compile_error", "runtime_error", "timeout", "wrong_answer", "no_work")


@dataclass
class SynthOptions:
    sources: Sequence[Path]
    out: Path
    per_kernel: int | None = 12
    operators: Sequence[str] | None = None
    jobs: int | None = None
    max_cases: int | None = 4
    mode: str = "static"
    arch: str = "Ascend910B2"
    cann_version: str = "8.5"
    checks: str = "npu"
    timeout_s: float = 300.0
    level: int | None = None
    tasks: Sequence[str] = ()


@dataclass
class SourceKernel:
    task: Task
    answer: Answer
    suite: Path
    text: str

    @property
    def id(self) -> str:
        return f"{self.task.id}#{self.answer.index}"


@dataclass
class PlannedMutant:
    source: SourceKernel
    mutation: Mutation
    id: str
    sample: int
    kernel: Path
    host_dir: Path | None
    lint_new: list[dict[str, Any]] = field(default_factory=list)


def source_kernels(opts: SynthOptions) -> list[SourceKernel]:
    """The reference answers of the tasks under each source folder (a suite, a checkout, a tasks folder)."""
    out = []
    for src in opts.sources:
        root = tasks_dir(Path(src))
        for task in discover_tasks(root, level=opts.level, names=list(opts.tasks) or None):
            for ans in task.answers:
                if ans.kernel is None or not ans.kernel.is_file():
                    continue
                out.append(
                    SourceKernel(task, ans, root, ans.kernel.read_text(encoding="utf-8", errors="replace"))
                )
    return out


def _mutant_id(src: SourceKernel, m: Mutation) -> str:
    return hashlib.sha1(f"{src.id}\0{m.key}".encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _lint_errors(text: str, path: str, cann: str, catalog: Catalog) -> list[dict[str, Any]]:
    settings = defaults().with_overrides({"cann.version": cann}, "akgen errors synthesize")
    return [
        {
            "code": f.code,
            "message": f.message,
            "line": f.span.line,
            "column": f.span.column,
            "error_class": f.error_class,
            "path": path,
            "severity": f.severity.value,
            "source": f.source,
        }
        for f in lint_text(text, path, settings, catalog)
        if f.severity is Severity.ERROR
    ]


def plan(opts: SynthOptions, catalog: Catalog | None = None) -> list[PlannedMutant]:
    """The mutants to run: written under ``OUT/mutants/<id>/`` (the kernel folder with the mutated kernel; the
    answer's host folder is used as it is), with the lint errors the mutation adds."""
    catalog = catalog or load_catalog()
    planned = []
    for src in source_kernels(opts):
        ctx = MutationContext(src.text, str(src.answer.kernel), catalog, opts.cann_version)
        base_lint = {
            (d["code"], d["message"]) for d in _lint_errors(src.text, "k.cpp", opts.cann_version, catalog)
        }
        for m in pick(mutations(ctx, opts.operators), opts.per_kernel):
            mid = _mutant_id(src, m)
            kdir = opts.out / "mutants" / mid / "op_kernel"
            kernel = kdir / src.answer.kernel.name  # type: ignore[union-attr]
            if not kernel.is_file():
                kdir.mkdir(parents=True, exist_ok=True)
                for f in src.answer.kernel_dir.iterdir():  # helper headers beside the kernel come along
                    if f.name == kernel.name:
                        continue
                    try:  # a regular file inside the kernel's folder: a link to a file outside is not followed
                        (kdir / f.name).write_bytes(
                            read_regular(f, HELPER_MAX_BYTES, root=src.answer.kernel_dir)
                        )
                    except OSError:
                        continue
                kernel.write_text(m.apply(src.text), encoding="utf-8")
            host = src.answer.root / "op_host"
            new_lint = [
                d
                for d in _lint_errors(m.apply(src.text), str(kernel), opts.cann_version, catalog)
                if (d["code"], d["message"]) not in base_lint
            ]
            planned.append(
                PlannedMutant(
                    src,
                    m,
                    mid,
                    int(mid[:12], 16) % (10**12) + 1000,
                    kernel,
                    host if host.is_dir() else None,
                    new_lint,
                )
            )
    return planned


def bench_settings(opts: SynthOptions, task: Task | None = None) -> RunSettings:
    """The bench settings of the mutants of `task`: its cases spread over its dtypes (`spread_cases`)."""
    base = RunSettings(
        mode=opts.mode,
        arch=opts.arch,
        max_cases=opts.max_cases,
        checks=opts.checks,
        toolchain="sim",
        compile_timeout_s=min(120.0, opts.timeout_s),
        run_timeout_s=min(60.0, opts.timeout_s),
        stop_at_failure=True,
    )
    if task is None or opts.max_cases is None:
        return base
    ids = spread_cases(task, opts.max_cases)
    return dataclasses.replace(base, case_ids=ids, max_cases=None) if ids else base


def spread_cases(task: Task, n: int) -> tuple[int, ...] | None:
    """Up to `n` case ids: the first case of each dtype first (a mistake in a branch for one dtype fails only
    there), then the following cases in order. None when the task's cases cannot be read."""
    try:
        cases = task.cases()
    except Exception:  # the bench reports a bad CSV itself
        return None
    first: list[int] = []
    seen: set[str] = set()
    for c in cases:
        dt = str(c.get("dtype", ""))
        if dt not in seen:
            seen.add(dt)
            first.append(c.case_id)
    rest = [c.case_id for c in cases if c.case_id not in first]
    return tuple((first + rest)[:n])


def make_executor(name: str, jobs: int | None) -> Executor:
    if name == "serial" or jobs == 1:
        return SerialExecutor()
    if name == "ray":
        return RayExecutor(num_cpus=jobs)
    if name != "local":
        raise ValueError(f"unknown executor {name!r}: use local, ray or serial")
    return LocalPoolExecutor(jobs)


def _primary(blocks: list[ErrorBlock], kernel: str) -> ErrorBlock | None:
    """The block a repair starts from: the first error at the kernel's own lines, preferring a check of the
    simulator or a compile error over the bench's generic "wrong numbers" verdict."""
    errors = [b for b in blocks if b.severity == "error"]
    for pool in (
        [b for b in blocks if b.file == kernel and b.code not in ("BENCH-PRECISION",)],
        [b for b in errors if b.file == kernel],
        errors,
        blocks,
    ):
        if pool:
            return pool[0]
    return None


def check_originals(
    planned: Sequence[PlannedMutant], opts: SynthOptions, executor: Executor
) -> dict[str, str]:
    """Run each source kernel as it is, with its mutants' cases (``OUT/originals.jsonl``, resumable): only a kernel
    that passes is a correct kernel to mutate. Returns the failing ones (source id -> status)."""
    store = ResultStore(opts.out / "originals.jsonl")
    jobs: dict[str, tuple[Job, str]] = {}
    for pm in planned:
        src = pm.source
        if any(sid == src.id for _j, sid in jobs.values()):
            continue
        host = src.answer.root / "op_host"
        job = Job(
            str(src.task.root),
            Candidate(src.task.id, src.answer.index, src.answer.kernel, host if host.is_dir() else None),
            bench_settings(opts, src.task),
            opts.timeout_s,
        )
        jobs[job.key] = (job, src.id)
    done = {
        f"{r['task']}#{r.get('sample', 0)}#{r.get('mode', 'static')}": r for r in store.load() if "task" in r
    }

    def on_result(job: Job, rec: dict[str, Any]) -> None:
        store.append(rec)
        done[job.key] = rec

    executor.run([job for key, (job, _sid) in jobs.items() if key not in done], on_result)
    return {
        sid: str(done.get(key, {}).get("status", "missing"))
        for key, (_job, sid) in jobs.items()
        if done.get(key, {}).get("status") != "pass"
    }


def mutant_record(pm: PlannedMutant, rec: dict[str, Any], classifier: Classifier) -> dict[str, Any]:
    """The line of ``mutants.jsonl`` for one mutant: the bench record's essentials, the blocks, the verdict."""
    status = str(rec.get("status", "harness_error"))
    kernel = str(pm.kernel)
    findings = list(rec.get("findings") or [])
    origin = {
        "task": pm.source.task.id,
        "level": pm.source.task.level_number,
        "mutation": pm.mutation.operator,
        "mutant": pm.id,
    }
    blocks = blocks_from_finding_json(findings, origin, errors_only=False)
    lint_blocks = [block_from_finding_dict(d, origin) for d in pm.lint_new]
    blocks = classifier.classify_all(blocks + lint_blocks)
    # a failure with no error finding says nothing about the mutation (a build killed from outside, a tool that
    # could not start): not a sample, whatever the status
    silent = status in FAILED_STATUSES and not any(
        b.severity == "error" for b in blocks if b.code not in lint_codes(pm)
    )
    sim_failed = status in FAILED_STATUSES and not silent
    failed_by = "+".join(x for x, on in (("sim", sim_failed), ("lint", bool(pm.lint_new))) if on)
    harness = status in ("harness_error", "skipped") or (silent and not pm.lint_new)
    primary = (
        _primary([b for b in blocks if b.code != "BENCH-SKIP"], kernel)
        if (failed_by and not harness)
        else None
    )
    if primary is not None:
        primary.label = pm.mutation.error_class if pm.mutation.operator in OBSERVABLE else None
    src = pm.source
    return {
        "task": src.task.id,
        "sample": pm.sample,
        "mode": rec.get("mode", "static"),
        "id": pm.id,
        "source": src.id,
        "suite": str(src.suite),
        "op": src.task.op,
        "level": src.task.level_number,
        "kernel_file": f"op_kernel/{pm.kernel.name}",
        "mutant_path": kernel,
        "source_path": str(src.answer.kernel),
        "operator": pm.mutation.operator,
        "injected_class": pm.mutation.error_class,
        "observable": pm.mutation.operator in OBSERVABLE,
        "description": pm.mutation.description,
        "explanation": pm.mutation.explanation,
        "line": pm.mutation.line,
        "status": status,
        "compiled": bool(rec.get("compiled")),
        "passed_cases": rec.get("passed_cases", 0),
        "cases": rec.get("cases", 0),
        "failed_by": failed_by or None,
        "kept": bool(failed_by) and not harness,
        "harness_problem": harness,
        "findings": findings,
        "lint": pm.lint_new,
        "blocks": [b.to_json() for b in blocks],
        "primary": primary.to_json() if primary else None,
        "classified_as": primary.error_class if primary else None,
        "diff": unified_diff(src.text, pm.mutation.apply(src.text), f"op_kernel/{pm.kernel.name}"),
        "timings": rec.get("timings", {}),
    }


def lint_codes(pm: PlannedMutant) -> set[str]:
    return {str(d["code"]) for d in pm.lint_new}


def block_from_finding_dict(d: dict[str, Any], origin: dict[str, Any]) -> ErrorBlock:
    return block_from_finding(finding_from_json(d), origin=origin)


@dataclass
class SynthRun:
    planned: int
    ran: int  # mutants run now (the others were in mutants.jsonl already)
    resumed: int
    kept: int  # kept mutants of the whole plan
    kept_now: int  # kept among those run now
    records: list[dict[str, Any]]
    seconds: float
    failing_sources: dict[str, str] = field(default_factory=dict)  # source kernel -> its status: not mutated

    @property
    def verified_per_minute(self) -> float | None:
        """Mutants verified to fail per minute of this run (None when nothing ran)."""
        return round(self.kept_now / (self.seconds / 60.0), 1) if self.ran and self.seconds > 0 else None


def run_synthesis(
    opts: SynthOptions,
    executor: Executor | None = None,
    progress: Callable[[int, int, dict[str, Any]], None] | None = None,
) -> SynthRun:
    """Plan, run (or resume) and record every mutant; returns the records of this plan (kept or not)."""
    t0 = time.perf_counter()
    catalog = load_catalog()
    classifier = Classifier(catalog, opts.cann_version)
    planned = plan(opts, catalog)
    executor = executor or make_executor("local", opts.jobs)
    failing = check_originals(planned, opts, executor)
    planned = [pm for pm in planned if pm.source.id not in failing]
    store = ResultStore(opts.out / "mutants.jsonl")
    per_task: dict[str, RunSettings] = {}
    jobs = {}
    for pm in planned:
        task = pm.source.task
        settings = per_task.setdefault(task.id, bench_settings(opts, task))
        job = Job(
            str(task.root),
            Candidate(task.id, pm.sample, pm.kernel, pm.host_dir, origin=MUTANT_ORIGIN),
            settings,
            opts.timeout_s,
        )
        jobs[job.key] = (job, pm)
    done = store.done_keys()
    todo = [j for k, (j, _) in jobs.items() if k not in done]
    count = [len(jobs) - len(todo)]
    kept_now = [0]

    def on_result(job: Job, rec: dict[str, Any]) -> None:
        row = mutant_record(jobs[job.key][1], rec, classifier)
        store.append(row)
        count[0] += 1
        kept_now[0] += bool(row["kept"])
        if progress:
            progress(count[0], len(jobs), row)

    executor.run(todo, on_result)
    wanted = set(jobs)
    records = [r for r in store.load() if f"{r.get('task')}#{r.get('sample')}#{r.get('mode')}" in wanted]
    return SynthRun(
        len(planned),
        len(todo),
        len(jobs) - len(todo),
        sum(1 for r in records if r.get("kept")),
        kept_now[0],
        records,
        time.perf_counter() - t0,
        failing,
    )


def export_candidates(
    records: Iterable[dict[str, Any]], out: Path, kept_only: bool = True, link: bool = False
) -> int:
    """The mutants as a folder of generated candidates in the layout `akgen bench run --candidates DIR` reads
    (``<Task>/<sample>/op_kernel/<op>.cpp`` and the answer's ``op_host/``), one sample number per mutant of a task;
    returns how many were written. With `link`, ``op_kernel`` is a symbolic link to the mutant's folder: the
    simulator resolves it, so the builds of the synthesis are found in its cache again."""
    n = 0
    per_task: dict[str, int] = {}
    for r in records:
        if kept_only and not r.get("kept"):
            continue
        mutant = Path(r["mutant_path"])
        if not mutant.is_file():
            continue
        name = str(r["task"]).rsplit("/", 1)[-1]
        s = per_task.get(name, 0)
        per_task[name] = s + 1
        dst = out / name / str(s)
        dst.mkdir(parents=True, exist_ok=True)
        if link:
            if not (dst / "op_kernel").exists():
                (dst / "op_kernel").symlink_to(mutant.parent.resolve(), target_is_directory=True)
        else:
            copy_tree(mutant.parent, dst / "op_kernel")
        host = Path(r["source_path"]).parent.parent / "op_host"
        if host.is_dir() and link:
            if not (dst / "op_host").exists():
                (dst / "op_host").symlink_to(host.resolve(), target_is_directory=True)
        elif host.is_dir():
            copy_tree(host, dst / "op_host")
        (dst / "mutant.json").write_text(
            json.dumps({k: r.get(k) for k in ("id", "operator", "injected_class", "description")}),
            encoding="utf-8",
        )
        n += 1
    return n
