"""`akgen bench`: NPUKernelBench on the sim toolchain, or cann where installed (list, run, report)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from akgen_lsp.cli.generate import GrammarOpt, MemoryOpt, _overrides, print_summary, run_cli
from akgen_lsp.cli.model import BackendOpt, EndpointOpt, ModelOpt, NameOpt, _settings
from akgen_lsp.cli.options import JobsOpt, JsonOpt, SuiteOpt


def register(app: typer.Typer) -> None:
    bench = typer.Typer(help="NPUKernelBench: tasks, runs on the simulator, reports.", no_args_is_help=True)
    app.add_typer(bench, name="bench")

    @bench.command("list")
    def list_cmd(
        suite: SuiteOpt = None,
        level: Annotated[int | None, typer.Option("--level", help="Only this level (1, 2 or 3).")] = None,
        as_json: JsonOpt = False,
    ) -> None:
        """List the tasks of a suite."""
        from akgen_lsp.bench.runner import default_suite
        from akgen_lsp.bench.tasks import TaskError, discover_tasks, no_tasks_message

        try:
            tasks = discover_tasks(suite or default_suite(), level=level)
        except TaskError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        if not tasks:
            typer.echo(f"error: {no_tasks_message(suite or default_suite(), level)}", err=True)
            raise typer.Exit(1)
        rows = []
        for t in tasks:
            try:
                n = len(t.cases())
            except TaskError:
                n = -1
            rows.append(
                {"task": t.id, "op": t.op, "level": t.level_number, "cases": n, "answers": len(t.answers)}
            )
        if as_json:
            typer.echo(json.dumps(rows, indent=2))
            return
        for r in rows:
            typer.echo(f"{r['task']:55s} {r['op']:32s} cases {r['cases']:3d}  answers {r['answers']}")
        typer.echo(f"{len(rows)} tasks")

    @bench.command("run")
    def run_cmd(
        suite: SuiteOpt = None,
        level: Annotated[int | None, typer.Option("--level", help="Only this level.")] = None,
        task: Annotated[
            list[str] | None,
            typer.Option("--task", help="Only this task (op folder name, snake name or id); repeatable."),
        ] = None,
        mode: Annotated[
            str,
            typer.Option(
                "--mode",
                help="static (each case its own instance) or dynamic (host tiling, all cases must pass).",
            ),
        ] = "static",
        candidates: Annotated[
            str,
            typer.Option(
                "--candidates",
                help="`answers` (the reference answers), a "
                "folder of generated kernels, or `model` (the configured model writes them "
                "in rounds: docs/generate.md).",
            ),
        ] = "answers",
        samples: Annotated[
            int | None, typer.Option("--samples", help="At most this many samples per task.")
        ] = None,
        jobs: JobsOpt = None,
        out: Annotated[
            Path,
            typer.Option(
                "--out",
                help="Output folder (results.jsonl, summary.json, "
                "report.html); a rerun resumes from results.jsonl.",
            ),
        ] = Path("bench-out"),
        max_cases: Annotated[
            int | None, typer.Option("--max-cases", help="Only the first N cases of each task.")
        ] = None,
        arch: Annotated[str, typer.Option("--arch", help="Hardware profile.")] = "Ascend910B2",
        toolchain: Annotated[
            str,
            typer.Option(
                "--toolchain",
                help="sim, cann (a CANN install and an NPU), or auto "
                "(cann when ASCEND_HOME_PATH points at a CANN install).",
            ),
        ] = "auto",
        as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
        checks: Annotated[
            str | None,
            typer.Option(
                "--checks",
                help="The simulator's check mode: npu (the hardware's rules; checks only CANN's CPU debug "
                "makes are warnings) or cpu-debug (every CPU-debug check stops the kernel); default: "
                "the setting sim.checks (npu).",
            ),
        ] = None,
        backend: BackendOpt = None,
        model: ModelOpt = None,
        endpoint: EndpointOpt = None,
        name: NameOpt = None,
        rounds: Annotated[
            int | None,
            typer.Option(
                "--rounds", min=1, help="--candidates model: correctness rounds (default: generate.rounds)."
            ),
        ] = None,
        perf_rounds: Annotated[
            int | None,
            typer.Option(
                "--perf-rounds", min=0, help="--candidates model: performance rounds after a kernel passes."
            ),
        ] = None,
        concurrency: Annotated[
            int | None,
            typer.Option(
                "--concurrency",
                min=1,
                help="--candidates model: model requests at once (default: generate.concurrency).",
            ),
        ] = None,
        executor: Annotated[
            str,
            typer.Option(
                "--executor", help="--candidates model: local (a process pool of --jobs), ray or serial."
            ),
        ] = "local",
        memory: MemoryOpt = None,
        grammar: GrammarOpt = None,
    ) -> None:
        """Evaluate candidates on the simulator (or the cann toolchain) and write the results and a report."""
        from akgen_lsp.bench.runner import RunOptions, default_suite, run_bench
        from akgen_lsp.bench.summary import compact
        from akgen_lsp.bench.tasks import TaskError

        if mode not in ("static", "dynamic"):
            typer.echo(f"error: --mode must be static or dynamic, not {mode!r}", err=True)
            raise typer.Exit(2)
        if toolchain not in ("auto", "sim", "cann"):
            typer.echo(f"error: --toolchain must be auto, sim or cann, not {toolchain!r}", err=True)
            raise typer.Exit(2)
        if checks is None:
            from akgen_lsp.config import SettingsError, load_settings

            try:
                checks = str(load_settings(Path.cwd())["sim.checks"])
            except SettingsError as exc:
                typer.echo(f"error: {exc}", err=True)
                raise typer.Exit(2) from None
        if checks not in ("npu", "cpu-debug"):
            typer.echo(f"error: --checks must be npu or cpu-debug, not {checks!r}", err=True)
            raise typer.Exit(2)
        if candidates == "model":
            over = {
                **_overrides(mode, grammar),
                **({"generate.concurrency": concurrency} if concurrency else {}),
            }
            settings = _settings(Path.cwd(), backend, model, endpoint, name, over)
            summary = run_cli(
                settings,
                tasks=list(task or ()),
                suite=suite,
                samples=samples,
                rounds=rounds,
                perf_rounds=perf_rounds,
                max_cases=max_cases or 1,
                level=level,
                out=out,
                memory=memory,
                jobs=jobs,
                executor=executor,
                quiet=as_json,
            )
            if as_json:
                typer.echo(json.dumps(summary, indent=2, default=str))
            else:
                print_summary(summary, out)
            return
        opts = RunOptions(
            suite=suite or default_suite(),
            level=level,
            tasks=tuple(task or ()),
            mode=mode,
            candidates=candidates,
            samples=samples,
            jobs=jobs,
            out=out,
            arch=arch,
            max_cases=max_cases,
            toolchain=toolchain,
            checks=checks,
        )
        try:
            summary = run_bench(opts) if as_json else _run_with_progress(opts)
        except (TaskError, FileNotFoundError, ValueError) as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        if as_json:
            typer.echo(json.dumps(compact(summary), indent=2, default=str))
        else:
            _print_summary(summary, out)

    @bench.command("suites")
    def suites_cmd(
        cann_bench: Annotated[
            Path | None, typer.Option("--cann-bench", help="A checkout of hicann/cann-bench.")
        ] = None,
        multikernelbench: Annotated[
            Path | None, typer.Option("--multikernelbench", help="A checkout of MultiKernelBench.")
        ] = None,
        as_json: JsonOpt = False,
    ) -> None:
        """How many tasks of cann-bench and MultiKernelBench load (read, not run), and why the others do not."""
        from akgen_lsp.bench.other_suites import load_cann_bench, load_mkb
        from akgen_lsp.bench.tasks import TaskError

        if cann_bench is None and multikernelbench is None:
            typer.echo("error: give --cann-bench PATH and/or --multikernelbench PATH", err=True)
            raise typer.Exit(2)
        out: dict[str, Any] = {}
        try:
            if cann_bench is not None:
                tasks, failed = load_cann_bench(cann_bench)
                levels: dict[str, int] = {}
                for t in tasks:
                    levels[f"level{t.level}"] = levels.get(f"level{t.level}", 0) + 1
                out["cann-bench"] = {
                    "loaded": len(tasks),
                    "failed": failed,
                    "levels": levels,
                    "cases": sum(len(t.cases) for t in tasks),
                    "cases_with_baseline": sum(
                        1 for t in tasks for c in t.cases if int(c["case_id"]) in t.baselines
                    ),
                }
            if multikernelbench is not None:
                mkb, failed = load_mkb(multikernelbench)
                cats: dict[str, int] = {}
                for m in mkb:
                    cats[m.category] = cats.get(m.category, 0) + 1
                out["multikernelbench"] = {
                    "loaded": len(mkb),
                    "failed": failed,
                    "categories": cats,
                    "ascendc_examples": sorted(m.op for m in mkb if m.example),
                }
        except TaskError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        if as_json:
            typer.echo(json.dumps(out, indent=2))
            return
        for name, d in out.items():
            groups = d.get("levels") or d.get("categories") or {}
            typer.echo(
                f"{name}: {d['loaded']} tasks load, {len(d['failed'])} do not ("
                + ", ".join(f"{k} {v}" for k, v in groups.items())
                + ")"
            )
            for where, why in d["failed"].items():
                typer.echo(f"  {where}: {why}")

    @bench.command("cann-bench")
    def cann_bench_cmd(
        checkout: Annotated[Path, typer.Argument(help="A checkout of hicann/cann-bench.")],
        answers: Annotated[
            Path | None,
            typer.Option(
                "--answers",
                help="Kernel answers laid out level<N>/<op>/{op_kernel,op_host} (entry <op>_custom).",
            ),
        ] = None,
        references: Annotated[
            bool,
            typer.Option(
                "--references",
                help="Say for every task whether it can be run: "
                "its call maps and golden.py computes its smallest case.",
            ),
        ] = False,
        task: Annotated[
            list[str] | None, typer.Option("--task", help="Only this task (level1/exp or exp).")
        ] = None,
        max_elements: Annotated[
            int, typer.Option("--max-elements", help="Cases with more input elements are counted, not run.")
        ] = 1 << 22,
        out: Annotated[Path, typer.Option("--out", help="Work folder.")] = Path("cann-bench-out"),
        jobs: JobsOpt = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Run kernel answers against cann-bench tasks on the simulator (bench/cannbench.py), or check which tasks
        can be run."""
        from akgen_lsp.bench.cannbench import check_references, run_answers
        from akgen_lsp.bench.tasks import TaskError

        if answers is None and not references:
            typer.echo(
                "error: give --answers DIR (run them) or --references (which tasks can be run)", err=True
            )
            raise typer.Exit(2)
        try:
            if references:
                refs = check_references(checkout, out / "references", list(task or ()))
                if as_json:
                    typer.echo(json.dumps(refs, indent=2))
                else:
                    for tid, why in sorted(refs.items()):
                        typer.echo(f"{tid}: {why}")
                    typer.echo(f"{sum(v == 'ok' for v in refs.values())} of {len(refs)} tasks can be run")
            if answers is not None:
                report = run_answers(
                    checkout, answers, out, tasks=list(task or ()), max_elements=max_elements, jobs=jobs
                )
                report.pop("load_failed", None)
                if as_json:
                    typer.echo(json.dumps(report, indent=2, default=str))
                else:
                    for tid, r in report["tasks"].items():
                        typer.echo(
                            f"{tid}: {r.get('error') or ''}"
                            if "error" in r
                            else f"{tid}: {r.get('passed', 0)}/{r.get('run', 0)} cases pass "
                            f"({len(r['left_out_for_size'])} of {r['cases']} left out for size), "
                            f"score {r.get('score_estimated')} (estimated)"
                        )
        except TaskError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None

    @bench.command("mkb-examples")
    def mkb_cmd(
        checkout: Annotated[Path, typer.Argument(help="A checkout of MultiKernelBench.")],
        size: Annotated[
            list[str] | None,
            typer.Option(
                "--size",
                help="op:name=value, a size global of the "
                "reference (leaky_relu:batch_size=16; a list as 1024,8).",
            ),
        ] = None,
        out: Annotated[Path, typer.Option("--out", help="Work folder.")] = Path("mkb-out"),
        as_json: JsonOpt = False,
    ) -> None:
        """Run MultiKernelBench's AscendC example answers against their tasks on the simulator."""
        from akgen_lsp.bench.multikernelbench import run_examples
        from akgen_lsp.bench.tasks import TaskError

        sizes: dict[str, dict[str, Any]] = {}
        for s in size or ():
            try:
                op, rest = s.split(":", 1)
                name, value = rest.split("=", 1)
                sizes.setdefault(op, {})[name] = (
                    [int(v) for v in value.split(",") if v] if "," in value else int(value)
                )
            except ValueError:
                typer.echo(f"error: --size {s!r}: write op:name=value (leaky_relu:batch_size=16)", err=True)
                raise typer.Exit(2) from None
        try:
            report = run_examples(checkout, out, sizes)
        except TaskError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        if as_json:
            typer.echo(json.dumps(report, indent=2, default=str))
            return
        for op, r in report.items():
            why = r.get("why") or "; ".join(r.get("findings") or [])[:300]
            typer.echo(
                f"{op} {r['sizes']}: {r.get('status')}, {r.get('passed', 0)}/{r.get('cases', 0)} cases pass"
                + (f" ({why})" if why and r.get("status") != "pass" else "")
            )

    @bench.command("report")
    def report_cmd(
        out: Annotated[Path, typer.Argument(help="The output folder of a run (with results.jsonl).")],
        as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
    ) -> None:
        """Rebuild summary.json and report.html from a run's results.jsonl."""
        from akgen_lsp.bench.executor import ResultStore
        from akgen_lsp.bench.report import write_report
        from akgen_lsp.bench.summary import compact, summarise

        store = ResultStore(out / "results.jsonl")
        if not store.path.is_file():
            typer.echo(f"error: no results.jsonl in {out}; run `akgen bench run --out {out}` first", err=True)
            raise typer.Exit(2)
        old: dict[str, Any] = {}
        if (out / "summary.json").is_file():
            try:
                old = json.loads((out / "summary.json").read_text(encoding="utf-8"))
            except json.JSONDecodeError:
                old = {}
        records = store.load()
        if records and all("round" in r and "kind" in r for r in records):  # a run of --candidates model
            from akgen_lsp.generate.summary import summarise_rounds

            keep = ("model", "mode", "rounds", "perf_rounds", "samples_per_instance", "arch", "memory")
            rounds = summarise_rounds(records, {k: old[k] for k in keep if k in old})
            (out / "summary.json").write_text(
                json.dumps({**old, **rounds}, indent=2, default=str), encoding="utf-8"
            )
            if as_json:
                typer.echo(json.dumps(rounds, indent=2, default=str))
            else:
                print_summary(rounds, out)
            return
        meta = {
            k: old[k] for k in ("suite", "mode", "toolchain", "arch", "candidates_from", "checks") if k in old
        }
        summary = summarise(records, meta)
        write_report(out, summary)
        if as_json:
            typer.echo(json.dumps(compact(summary), indent=2, default=str))
        else:
            _print_summary(summary, out)


def _run_with_progress(opts: Any) -> dict[str, Any]:
    from akgen_lsp.bench.runner import run_bench
    from akgen_lsp.cli.output import progress_bar

    with progress_bar("bench") as update:
        return run_bench(
            opts,
            progress=lambda done, total, rec: update(
                done, total, f"{rec.get('task', '')} {rec.get('status', '')}"
            ),
        )


def _print_summary(summary: dict[str, Any], out: Path) -> None:
    from rich.console import Console
    from rich.table import Table

    con = Console()
    tool = str(summary.get("toolchain", "sim"))
    note = "times are estimates" if tool == "sim" else "times are measured on the NPU"
    t = Table(title=f"akgen bench ({tool} toolchain; {note})")
    for col in ("level", "tasks", "compiled", "passed", "score"):
        t.add_column(col, justify="right")
    for lv, d in summary["levels"].items():
        t.add_row(
            lv,
            str(d["tasks"]),
            str(d["compiled"]),
            str(d["passed"]),
            str(summary.get("level_scores", {}).get(lv, "")),
        )
    con.print(t)
    con.print(f"score {summary['score']}  pass@k {summary['pass_at_k']}  errors {summary['error_classes']}")
    con.print(f"wrote {out / 'results.jsonl'}, {out / 'summary.json'}, {out / 'report.html'}")
