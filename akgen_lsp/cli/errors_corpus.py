"""`akgen errors synthesize` and `akgen errors bench`: the corpus of broken kernels made from correct ones (SFT
samples, DPO pairs) and the repair benchmark run on it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from akgen_lsp.cli.options import ArchOpt, CannOpt, JobsOpt, settings_with


def register(errors: typer.Typer) -> None:
    """Add the corpus commands to the `akgen errors` group."""

    @errors.command("synthesize")
    def synthesize_cmd(
        out: Annotated[
            Path,
            typer.Option(
                "--out",
                help="Output folder (mutants/, mutants.jsonl, sft/, dpo/, "
                "repairs.jsonl, manifest.json); a rerun resumes.",
            ),
        ],
        sources: Annotated[
            list[Path] | None,
            typer.Option(
                "--from",
                help="A folder of tasks with reference answers: "
                "the bundled suite, a checkout of NPUKernelBench (its "
                "tasks/), any folder in that layout; repeatable.",
            ),
        ] = None,
        runs: Annotated[
            list[Path] | None,
            typer.Option(
                "--from-runs",
                help="A bench run folder (`akgen bench run "
                "--candidates DIR --out RUN`): each failing sample with a "
                "later passing sample of its task is a repair; repeatable.",
            ),
        ] = None,
        per_kernel: Annotated[
            int,
            typer.Option(
                "--per-kernel", help="At most this many mutants per source kernel, spread over the operators."
            ),
        ] = 12,
        jobs: JobsOpt = None,
        executor: Annotated[
            str,
            typer.Option(
                "--executor", help="local (a process pool), ray (pip install 'akgen-lsp\\[ray]') or serial."
            ),
        ] = "local",
        ray_address: Annotated[
            str | None,
            typer.Option("--ray-address", help="A Ray cluster to run on (default: start a local Ray)."),
        ] = None,
        max_cases: Annotated[
            int,
            typer.Option(
                "--max-cases",
                help="Cases run per mutant (0: all): the first case of each dtype, then the next ones.",
            ),
        ] = 4,
        operators: Annotated[
            str | None,
            typer.Option("--operators", help="Comma-separated operators (default: all; see docs/errors.md)."),
        ] = None,
        level: Annotated[int | None, typer.Option("--level", help="Only tasks of this level.")] = None,
        task: Annotated[list[str] | None, typer.Option("--task", help="Only this task; repeatable.")] = None,
        into_store: Annotated[
            bool,
            typer.Option(
                "--into-store",
                help="Also add the repairs to the local store of "
                "repairs (reports find them as similar errors).",
            ),
        ] = False,
        from_store: Annotated[
            bool,
            typer.Option(
                "--from-store",
                help="Also write the repairs users accepted "
                "(the store of repairs: fix.store, else the user cache) as SFT "
                "samples, OUT/sft/store.jsonl.",
            ),
        ] = False,
        cann: CannOpt = None,
        arch: ArchOpt = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print the counts as JSON.")] = False,
    ) -> None:
        """Mutate correct kernels with realistic mistakes, keep those that really fail on the simulator (or the
        linter), and write SFT samples, DPO pairs and a manifest."""
        from akgen_lsp.bench.executor import close_executor
        from akgen_lsp.bench.ray_executor import RayExecutor, RayUnavailable
        from akgen_lsp.bench.tasks import TaskError
        from akgen_lsp.errors.dataset import build_dataset
        from akgen_lsp.errors.history import HistoryError, history_records
        from akgen_lsp.errors.mutations import OPERATORS
        from akgen_lsp.errors.store import RepairStore, RepairStoreError, default_path
        from akgen_lsp.errors.synthesis import (
            SynthOptions,
            SynthRun,
            make_executor,
            run_synthesis,
            source_kernels,
        )

        ops = [o.strip() for o in operators.split(",")] if operators else None
        unknown = [o for o in ops or () if o not in OPERATORS]
        if unknown:
            typer.echo(
                f"error: unknown operator {unknown[0]!r}; the operators are {', '.join(OPERATORS)}", err=True
            )
            raise typer.Exit(2)
        if executor not in ("local", "ray", "serial"):
            typer.echo(f"error: --executor must be local, ray or serial, not {executor!r}", err=True)
            raise typer.Exit(2)
        sources = sources or []
        if not sources and not runs and not from_store:
            typer.echo(
                "error: give --from (folders of tasks with answers), --from-runs (bench run folders) or "
                "--from-store (the repairs users accepted)",
                err=True,
            )
            raise typer.Exit(2)
        missing = [s for s in sources if not s.is_dir()]
        if missing:
            typer.echo(f"error: {missing[0]} is not a folder of tasks", err=True)
            raise typer.Exit(2)
        settings = settings_with(arch, cann)
        opts = SynthOptions(
            sources=sources,
            out=out,
            per_kernel=per_kernel or None,
            operators=ops,
            jobs=jobs,
            max_cases=max_cases or None,
            arch=str(settings["arch"]),
            cann_version=str(settings["cann.version"]),
            checks=str(settings["sim.checks"]),
            level=level,
            tasks=tuple(task or ()),
        )
        runner = (
            RayExecutor(address=ray_address, num_cpus=jobs)
            if executor == "ray"
            else make_executor(executor, jobs)
        )
        user_samples = 0
        try:
            if from_store:
                from akgen_lsp.errors.store_samples import write_store_samples
                from akgen_lsp.repair.remember import store_path

                store_file = store_path(settings) or default_path()
                if not store_file.is_file():
                    raise RepairStoreError(
                        f"there is no store of repairs at {store_file}: accept a repair in the "
                        "editor or run `akgen fix --apply` first, or set fix.store"
                    )
                user_samples = write_store_samples(RepairStore(store_file), out, settings)
            if not sources and not runs:
                counts = {"store_samples": user_samples}
                typer.echo(
                    json.dumps(counts, indent=2)
                    if as_json
                    else f"{user_samples} SFT samples from the store of repairs: {out / 'sft' / 'store.jsonl'}"
                )
                return
            if sources and not source_kernels(opts):
                typer.echo(
                    f"error: nothing to mutate: no reference answer in {', '.join(map(str, sources))}"
                    f"{' (level ' + str(level) + ')' if level is not None else ''}"
                    f"{' (task ' + ', '.join(task) + ')' if task else ''}; looked for tasks with "
                    "<Op>/answer/<N>/op_kernel/<op>.cpp beside <Op>/validation/, at tasks/level*/<Category>/"
                    "<Op> below each folder or at it as a level, category or task folder",
                    err=True,
                )
                raise typer.Exit(1)
            if sources:
                run = run_synthesis(opts, runner) if as_json else _synthesize_with_progress(opts, runner)
            else:
                run = SynthRun(0, 0, 0, 0, 0, [], 0.0)
            history = [r for d in runs or () for r in history_records(d, out)]
            store = RepairStore() if into_store else None
            report = build_dataset(
                [*run.records, *history],
                out,
                {
                    **{k: str(v) for k, v in opts.__dict__.items()},
                    "executor": executor,
                    "from_runs": [str(d) for d in runs or ()],
                    "sources_not_passing": run.failing_sources,
                },
                settings,
                store,
            )
        except (TaskError, RayUnavailable, RepairStoreError, HistoryError, ValueError) as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        finally:
            close_executor(runner)  # Ray, started once for the run's batches (originals, mutants)
        counts = {
            "planned": run.planned,
            "ran": run.ran,
            "resumed": run.resumed,
            "kept": run.kept,
            "sources_not_passing": run.failing_sources,
            **({"store_samples": user_samples} if from_store else {}),
            "history_repairs": sum(1 for r in history if r["kept"]),
            "seconds": round(run.seconds, 1),
            "verified_per_minute": run.verified_per_minute,
            **report.to_json(),
        }
        if as_json:
            typer.echo(json.dumps(counts, indent=2))
            return
        if run.failing_sources:
            typer.echo(
                f"{len(run.failing_sources)} source kernels do not pass as they are and were not mutated: "
                + ", ".join(f"{k} ({v})" for k, v in sorted(run.failing_sources.items())[:8])
            )
        typer.echo(
            f"{run.planned} mutants ({run.ran} run now, {run.resumed} from {out / 'mutants.jsonl'}), "
            f"{run.kept} really fail; {report.samples} SFT samples and {report.dpo_pairs} DPO pairs after "
            f"removing {report.dropped_exact} exact and {report.dropped_near} near duplicates"
        )
        for split, c in report.splits.items():
            typer.echo(f"  {split}: {c.get('sft', 0)} SFT, {c.get('dpo', 0)} DPO")
        if from_store:
            typer.echo(f"  store: {user_samples} SFT (the repairs users accepted)")
        typer.echo(f"wrote {out / 'sft'}, {out / 'dpo'}, {out / 'repairs.jsonl'}, {out / 'manifest.json'}")
        if not run.kept and not any(r["kept"] for r in history) and not user_samples:
            typer.echo(
                "error: no sample was made: no mutant failed on the simulator and no run had a repair",
                err=True,
            )
            raise typer.Exit(1)

    @errors.command("bench")
    def bench_cmd(
        corpus: Annotated[
            Path, typer.Option("--corpus", help="The --out folder of `akgen errors synthesize`.")
        ],
        fixer: Annotated[
            str, typer.Option("--fixer", help="deterministic, model, both, or a registered fixer.")
        ] = "deterministic",
        samples: Annotated[
            int, typer.Option("--samples", help="Candidates per broken kernel (k of pass@k).")
        ] = 1,
        split: Annotated[
            str, typer.Option("--split", help="test (held out), validation, train or all.")
        ] = "test",
        jobs: JobsOpt = None,
        out: Annotated[
            Path | None,
            typer.Option(
                "--out", help="Where candidates and repair_results.jsonl go (default: CORPUS/repair-bench)."
            ),
        ] = None,
        max_cases: Annotated[
            int,
            typer.Option(
                "--max-cases",
                help="Cases each candidate runs (0: all, the default: a repair must pass its task).",
            ),
        ] = 0,
        grammar: Annotated[
            Path | None,
            typer.Option("--grammar", help="A GBNF grammar the model's answers must follow (llama.cpp)."),
        ] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print the results as JSON.")] = False,
    ) -> None:
        """Measure repairs: does a fixer restore each broken kernel to compiling and passing its cases?"""
        from akgen_lsp.errors.fixers import ModelFixer, fixer_names
        from akgen_lsp.errors.repair_bench import CorpusError, run_repair_bench
        from akgen_lsp.model.backends import BackendError

        names = ["deterministic", "model"] if fixer == "both" else [fixer]
        unknown = [n for n in names if n not in fixer_names()]
        if unknown:
            typer.echo(
                f"error: unknown fixer {unknown[0]!r}; the fixers are {', '.join(fixer_names())} (or both)",
                err=True,
            )
            raise typer.Exit(2)
        if split not in ("test", "validation", "train", "all"):
            typer.echo(f"error: --split must be test, validation, train or all, not {split!r}", err=True)
            raise typer.Exit(2)
        from akgen_lsp.repair.bench_fixer import VerifiedFixer

        objects: dict[str, Any] = {
            "deterministic": VerifiedFixer(max_cases=max_cases or None)
        }  # the editor's fixes
        if grammar is not None and not grammar.is_file():
            typer.echo(f"error: grammar file not found: {grammar}", err=True)
            raise typer.Exit(2)
        model_fixer = ModelFixer(grammar=grammar.read_text(encoding="utf-8") if grammar is not None else None)
        objects["model"] = model_fixer
        settings = settings_with(None, None)
        routed_model: dict[str, Any] | None = None
        try:
            if "model" in names:  # the repair kind's pick (model routing), said once for the run
                routed, spec, note = model_fixer.routed(settings)
                routed_model = {
                    "name": spec.name if spec.known else None,
                    "path": routed["model.path"] or None,
                    "endpoint": routed["model.endpoint"] or None,
                    "route": note,
                }
                if note:
                    typer.echo(f"akgen: repair: {note}", err=True)
            result = run_repair_bench(
                corpus,
                [fixer],
                max(1, samples),
                split,
                out,
                jobs,
                settings,
                fixer_objects=objects,
                max_cases=max_cases or None,
            )
        except (CorpusError, BackendError, ValueError) as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        finally:
            model_fixer.close()  # its backend served every broken kernel of the run
        if routed_model is not None:
            result["model"] = routed_model
        if as_json:
            typer.echo(json.dumps(result, indent=2))
            return
        _print_repairs(result)


def _print_repairs(result: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    con = Console()
    k = result["samples"]
    for name, rows in result["fixers"].items():
        t = Table(
            title=f"repairs by {name} on the {result['split']} split ({result['broken']} broken kernels)"
        )
        for col in ("class", "broken", "top-1", f"pass@{k}", "proposed", "verified", "not verified"):
            t.add_column(col, justify="left" if col == "class" else "right")
        for cls, r in rows.items():
            t.add_row(
                cls,
                str(r["broken"]),
                f"{r['top1']:.3f}",
                f"{r[f'pass@{k}']:.3f}",
                str(r["proposed"]),
                str(r["verified"]),
                str(r["not_verified"]),
            )
        con.print(t)
    con.print("only verified candidates would be offered in the editor: offered but not verified = 0")


def _synthesize_with_progress(opts: Any, executor: Any) -> Any:
    from akgen_lsp.cli.output import progress_bar
    from akgen_lsp.errors.synthesis import run_synthesis

    with progress_bar("synthesize", "planning") as update:

        def progress(done: int, total: int, row: dict[str, Any]) -> None:
            verdict = "kept" if row.get("kept") else "passes (dropped)"
            update(done, total, f"{row.get('task', '').rsplit('/', 1)[-1]} {row.get('operator')}: {verdict}")

        return run_synthesis(opts, executor, progress=progress)
