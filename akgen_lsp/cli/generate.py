"""`akgen generate`: the closed loop on one task (generate -> simulate -> feedback, rounds until it passes), and the
pieces `akgen bench run --candidates model` shares with it (the model from the settings, the loop's options, the
printed summary)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from akgen_lsp.cli.model import BackendOpt, EndpointOpt, ModelOpt, NameOpt, _settings

GrammarOpt = Annotated[
    list[Path] | None,
    typer.Option(
        "--grammar",
        help="A GBNF grammar file the answers must follow; repeat it for round 0, 1, ... (the last one for "
        "later rounds): demos and tests with a known answer (llama_cpp or a llama.cpp server).",
    ),
]
MemoryOpt = Annotated[
    bool | None,
    typer.Option(
        "--memory/--no-memory",
        help="The experience memory (verified repairs and improvements in the store of "
        "repairs, fix.store, retrieved into later prompts); default: generate.memory.",
    ),
]


def register(app: typer.Typer) -> None:
    app.command("generate")(generate_cmd)


def generate_cmd(
    task: Annotated[
        str,
        typer.Option(
            "--task", help="The task: its op folder name (AbsMath), snake name or id (level1/Math/AbsMath)."
        ),
    ],
    suite: Annotated[
        Path | None,
        typer.Option(
            "--suite",
            help="A checkout of NPUKernelBench or a suite folder "
            "(default: bench.suite, else the bundled suite).",
        ),
    ] = None,
    backend: BackendOpt = None,
    model: ModelOpt = None,
    endpoint: EndpointOpt = None,
    name: NameOpt = None,
    samples: Annotated[
        int | None, typer.Option("--samples", min=1, help="Samples (default: generate.samples).")
    ] = None,
    rounds: Annotated[
        int | None,
        typer.Option("--rounds", min=1, help="Correctness rounds at most (default: generate.rounds)."),
    ] = None,
    perf_rounds: Annotated[
        int | None,
        typer.Option(
            "--perf-rounds", min=0, help="Performance rounds after it passes (default: generate.perf_rounds)."
        ),
    ] = None,
    mode: Annotated[
        str | None,
        typer.Option(
            "--mode",
            help="static (kernel only, one case per instance) or "
            "dynamic (kernel + host tiling, every case); default: bench.mode.",
        ),
    ] = None,
    case: Annotated[
        list[int] | None,
        typer.Option("--case", help="Static shape: the case(s) to generate for (default: the first)."),
    ] = None,
    out: Annotated[
        Path,
        typer.Option(
            "--out", help="Output folder (results.jsonl, summary.json, kernels/, training/); a rerun resumes."
        ),
    ] = Path("generate-out"),
    grammar: GrammarOpt = None,
    memory: MemoryOpt = None,
    max_tokens: Annotated[
        int | None, typer.Option("--max-tokens", min=1, help="Most tokens of one answer.")
    ] = None,
    example: Annotated[
        Path | None,
        typer.Option("--example", help="An example kernel for the prompt (NPUKernelBench shows AddCustom)."),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the summary as JSON.")] = False,
) -> None:
    """Generate a kernel for TASK with the model, run it on the simulator and feed the errors back until it passes."""
    settings = _settings(Path.cwd(), backend, model, endpoint, name, _overrides(mode, grammar))
    summary = run_cli(
        settings,
        tasks=[task],
        suite=suite,
        samples=samples,
        rounds=rounds,
        perf_rounds=perf_rounds,
        cases=case or (),
        max_cases=1,
        out=out,
        memory=memory,
        max_tokens=max_tokens,
        example=example,
        quiet=as_json,
    )
    if as_json:
        typer.echo(json.dumps(summary, indent=2, default=str))
    else:
        print_summary(summary, out)
    raise typer.Exit(0 if any(a.get("passed_at") is not None for a in summary.get("attempts", [])) else 1)


def _overrides(mode: str | None, grammar: list[Path] | None) -> dict[str, Any]:
    over: dict[str, Any] = {}
    if mode is not None:
        if mode not in ("static", "dynamic"):
            typer.echo(f"akgen: --mode must be static or dynamic, not {mode!r}", err=True)
            raise typer.Exit(2)
        over["bench.mode"] = mode
    if grammar:
        texts = []
        for g in grammar:
            try:
                texts.append(g.read_text(encoding="utf-8"))
            except OSError as exc:
                typer.echo(f"akgen: cannot read the grammar {g}: {exc.strerror or exc}", err=True)
                raise typer.Exit(2) from None
        over["generate.grammar"] = texts
    return over


def run_cli(
    settings: Any,
    *,
    tasks: list[str],
    suite: Path | None,
    samples: int | None,
    rounds: int | None,
    perf_rounds: int | None,
    cases: Any = (),
    max_cases: int | None = 1,
    level: int | None = None,
    out: Path,
    memory: bool | None,
    max_tokens: int | None = None,
    example: Path | None = None,
    jobs: int | None = None,
    executor: str = "serial",
    quiet: bool = False,
) -> dict[str, Any]:
    """Load the configured model and run the loop; errors a user can act on end the command with status 2."""
    import asyncio

    from akgen_lsp.bench.executor import close_executor
    from akgen_lsp.bench.ray_executor import RayUnavailable
    from akgen_lsp.bench.runner import default_suite
    from akgen_lsp.bench.tasks import TaskError
    from akgen_lsp.errors.synthesis import make_executor
    from akgen_lsp.generate.bench import GenerateOptions, generation, loop_config
    from akgen_lsp.model.backends import BackendError
    from akgen_lsp.repair.backend import HOW_TO_CONFIGURE, repair_model
    from akgen_lsp.repair.remember import store_for

    try:
        rm = repair_model(settings, Path.cwd(), kind="generation")
    except BackendError as exc:
        typer.echo(f"akgen: {exc}", err=True)
        raise typer.Exit(2) from None
    if rm is None:
        typer.echo(
            "akgen: "
            + HOW_TO_CONFIGURE.replace(
                '"Fix with KernelGen-LM" is not offered', "there is nothing to generate with"
            ),
            err=True,
        )
        raise typer.Exit(2)
    if rm.route and not quiet:
        typer.echo(f"akgen: {rm.route}", err=True)
    use_memory = bool(settings["generate.memory"]) if memory is None else memory
    store_path = store_for(settings).path if use_memory else None
    example_text = ""
    if example is not None:
        try:
            example_text = example.read_text(encoding="utf-8")
        except OSError as exc:
            typer.echo(f"akgen: cannot read the example {example}: {exc.strerror or exc}", err=True)
            raise typer.Exit(2) from None
    bench_suite = suite or (
        Path(str(settings["bench.suite"])) if settings["bench.suite"] else default_suite()
    )
    opts = GenerateOptions(
        suite=bench_suite,
        level=level,
        tasks=tasks,
        cases=list(cases),
        max_cases=max_cases,
        samples=samples or int(settings["generate.samples"]),
        out=out,
        arch=str(settings["arch"]),
        memory=store_path,
        example=example_text,
        model=rm.label,
        toolchain=str(settings["toolchain.name"]) if settings["toolchain.name"] != "none" else "sim",
        checks=str(settings["sim.checks"]),
    )

    def say(message: str) -> None:
        if not quiet:
            typer.echo(f"akgen: {message}", err=True)

    async def main() -> dict[str, Any]:
        await rm.backend.load()
        runner = make_executor(executor, jobs)  # one for the run: Ray starts once, not per round
        try:
            cfg = loop_config(
                settings,
                rm.backend,
                rm.spec if rm.spec.known else None,
                rounds=rounds,
                perf_rounds=perf_rounds,
                max_tokens=max_tokens,
            )
            return await generation(opts, cfg, rm.backend, settings, executor=runner, progress=say)
        finally:
            close_executor(runner)
            await rm.backend.close()

    try:
        return asyncio.run(main())
    except (BackendError, TaskError, RayUnavailable, ValueError) as exc:
        typer.echo(f"akgen: {exc}", err=True)
        raise typer.Exit(2) from None


def print_summary(summary: dict[str, Any], out: Path) -> None:
    from rich.console import Console
    from rich.table import Table

    from akgen_lsp.generate.summary import pass_table

    con = Console()
    for a in summary.get("attempts", []):
        where = f" case {a['case']}" if a.get("case") is not None else ""
        con.print(f"[bold]{a['task']}{where} sample {a['sample']}[/bold]")
        for i, h in enumerate(a.get("history", [])):
            con.print(f"  round {i}: {h}")
        if a.get("stopped"):
            con.print(f"  stopped: {a['stopped']}")
    t = Table(title=f"pass@k after each round ({summary.get('model')}; times are simulator estimates)")
    for col in ("level", "round", "instances", "comp@1", "comp@10", "pass@1", "pass@10"):
        t.add_column(col, justify="right")
    for row in summary.get("pass_at_k", []):
        t.add_row(
            str(row["level"]),
            str(row["round"]),
            str(row["instances"]),
            f"{row['compile']['1']:.3f}",
            f"{row['compile']['10']:.3f}",
            f"{row['correct']['1']:.3f}",
            f"{row['correct']['10']:.3f}",
        )
    con.print(t)
    con.print("\n".join(pass_table(summary)))
    con.print(
        f"score {summary.get('score')}  fast_p {summary.get('fast_p')}  loop overhead "
        f"{summary.get('loop_overhead_ratio', 0):.2%} of the wall time"
    )
    for note in summary.get("notes", []):
        con.print(f"note: {note}")
    con.print(f"wrote {out / 'results.jsonl'}, {out / 'summary.json'}, {out / 'kernels'}, {out / 'training'}")
