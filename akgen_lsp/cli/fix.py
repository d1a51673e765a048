"""`akgen fix FILE`: the editor's "Fix this build error" from a shell, on the same code path as the server.

The save check (compile, run the task's cases, compare) runs in the same check worker the server uses; then the
deterministic fixes, each verified on the simulator, round after round (`repair.deterministic.repair`); then, when
the kernel still fails and a model is configured, the verified model repair (`repair.model_repair`). It prints the
verified diff (or, with `--apply`, writes it and stores the repairs in the store of repairs). Exit status 0 when the
file ends up passing (it passed already, or `--apply` made it pass), 1 when it does not, 2 for a usage problem.
"""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Annotated, Any

import typer

from akgen_lsp.cli.model import BackendOpt, EndpointOpt, ModelOpt, NameOpt, _settings

FileArg = Annotated[
    Path, typer.Argument(help="The kernel file (its task: the NPUKernelBench layout or akgen.toml).")
]


def register(app: typer.Typer) -> None:
    app.command("fix")(fix)


def fix(
    file: FileArg,
    task: Annotated[
        str | None,
        typer.Option(
            "--task",
            help="The suite task to check against (AddCustom, or "
            "level1/Math/AddCustom) when the file's layout does not say.",
        ),
    ] = None,
    backend: BackendOpt = None,
    model: ModelOpt = None,
    endpoint: EndpointOpt = None,
    name: NameOpt = None,
    samples: Annotated[
        int | None, typer.Option("--samples", min=1, help="Model candidates (fix.samples).")
    ] = None,
    no_model: Annotated[bool, typer.Option("--no-model", help="Only the deterministic fixes.")] = False,
    apply: Annotated[bool, typer.Option("--apply", help="Write the verified repair to FILE.")] = False,
    json_out: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
) -> None:
    """Check FILE, then fix it with verified fixes (deterministic ones first, then the model's) and print the diff."""
    if not file.is_file():
        typer.echo(f"akgen: {file}: no such file; give the kernel's path", err=True)
        raise typer.Exit(2)
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        typer.echo(f"akgen: cannot read {file}: {exc}", err=True)
        raise typer.Exit(2) from None
    extra: dict[str, Any] = {"fix.samples": samples} if samples else {}
    settings = _settings(file.resolve().parent, backend, model, endpoint, name, extra)
    say = (lambda m: None) if json_out else (lambda m: typer.echo(f"akgen: {m}", err=True))
    from akgen_lsp.repair.flow import NoTask

    try:
        run = asyncio.run(_fix(file.resolve(), text, settings, task, not no_model, say))
    except NoTask as exc:
        typer.echo(f"akgen: {exc}", err=True)
        raise typer.Exit(2) from None
    if run.model_error:
        typer.echo(f"akgen: {run.model_error}", err=True)
        raise typer.Exit(2)
    result = {**run.report(), "applied": False, "stored": 0}
    if apply and run.final != text:
        file.write_text(run.final, encoding="utf-8")
        result["applied"] = True
        result["stored"] = run.remember(settings, "cli")
    ends_passing = result["before"]["status"] == "pass" or (result["applied"] and result["passes"])
    if json_out:
        typer.echo(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        _print(result, file, apply)
    raise typer.Exit(0 if ends_passing else 1)


def _print(result: dict[str, Any], file: Path, apply: bool) -> None:
    before, after = result["before"], result["after"]
    if before["status"] == "pass":
        typer.echo(f"{file}: passes ({before['summary']}); nothing to fix")
        return
    typer.echo(f"{file}: {before['summary']} ({before['status']})")
    for f in result["fixes"]:
        typer.echo(f"  fixed: {f['title']}")
    m = result.get("model")
    if m:
        typer.echo(f"  {m['message']}")
    if result["diff"]:
        typer.echo(result["diff"].rstrip("\n"))
    if result["passes"] and result["diff"]:
        done = "applied" if result["applied"] else "run again with --apply to write it"
        typer.echo(f"{file}: {after['summary']} with the repair ({done})")
    elif not result["diff"] and before["status"] != "pass":
        typer.echo(f"{file}: no verified repair")


async def _fix(path: Path, text: str, settings: Any, task: str | None, use_model: bool, say: Any) -> Any:
    """The one fix flow (repair/flow.py) on a check worker of this command's own."""
    from akgen_lsp.check.result import check_timeout
    from akgen_lsp.check.worker import CheckWorker, checker_for, plain_settings
    from akgen_lsp.repair.flow import fix_flow

    worker = CheckWorker()
    timeout = check_timeout(float(settings["toolchain.timeout_s"]))
    checker = checker_for(worker, plain_settings(settings), timeout, task_name=task)
    try:
        return await fix_flow(path, text, checker, settings, use_model=use_model, say=say)
    finally:
        await worker.close()
