"""`akgen fix FILE`: the editor's "Fix this build error" from a shell, on the same code path as the server.

The save check (compile, run the task's cases, compare) runs in the same check worker the server uses; then the
deterministic fixes, each verified on the simulator, round after round (`repair.deterministic.repair`); then, when
the kernel still fails and a model is configured, the verified model repair (`repair.model_repair`). It prints the
verified diff (or, with `--apply`, writes it and stores the repairs in the store of repairs). Exit status 0 when the
file ends up passing (it passed already, or `--apply` made it pass), 1 when it does not, 2 for a usage problem.
"""

from __future__ import annotations

import asyncio
import difflib
import json
from pathlib import Path
from typing import Annotated, Any

import typer

from akgen_lsp.cli.model import BackendOpt, EndpointOpt, ModelOpt, NameOpt, _settings

FileArg = Annotated[Path, typer.Argument(help="The kernel file (its task: the NPUKernelBench layout or akgen.toml).")]


def register(app: typer.Typer) -> None:
    app.command("fix")(fix)


def fix(
    file: FileArg,
    task: Annotated[str | None, typer.Option("--task", help="The suite task to check against (AddCustom, or "
                                             "level1/Math/AddCustom) when the file's layout does not say.")] = None,
    backend: BackendOpt = None,
    model: ModelOpt = None,
    endpoint: EndpointOpt = None,
    name: NameOpt = None,
    samples: Annotated[int | None, typer.Option("--samples", min=1, help="Model candidates (fix.samples).")] = None,
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
    say = (lambda m: None) if json_out else (lambda m: typer.echo(m, err=True))
    result = asyncio.run(_fix(file.resolve(), text, settings, task, not no_model, say))
    if result.get("usage_error"):
        typer.echo(f"akgen: {result['usage_error']}", err=True)
        raise typer.Exit(2)
    final = result.pop("_text")
    if apply and final != text:
        file.write_text(final, encoding="utf-8")
        result["applied"] = True
        result["stored"] = _remember(result.pop("_stored"), str(file), settings)
    else:
        result.pop("_stored")
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


def _remember(pending: list[dict[str, Any]], path: str, settings: Any) -> int:
    from akgen_lsp.repair.remember import remember

    n = 0
    for item in pending:
        if remember(item["target"], item["before"], item["after"], path=path, task=item["task"], model=item["model"],
                    provenance="cli", settings=settings) is not None:
            n += 1
    return n


def _summary(outcome: Any) -> dict[str, Any]:
    return {"status": str(outcome.status), "summary": outcome.summary(), "passed_cases": len(outcome.passed),
            "cases": outcome.cases, "estimate_us": outcome.estimate_us,
            "errors": [{"code": f.code, "line": f.span.line, "message": f.message} for f in outcome.errors[:5]]}


async def _fix(path: Path, text: str, settings: Any, task: str | None, use_model: bool, say: Any) -> dict[str, Any]:
    from akgen_lsp.check.result import Status, check_timeout
    from akgen_lsp.check.worker import CheckWorker, checker_for, plain_settings
    from akgen_lsp.model.backends import BackendError
    from akgen_lsp.repair import deterministic
    from akgen_lsp.repair.backend import model_configured, repair_model
    from akgen_lsp.repair.model_repair import model_repair
    from akgen_lsp.repair.verify import repairable

    worker = CheckWorker()
    timeout = check_timeout(float(settings["toolchain.timeout_s"]))
    checker = checker_for(worker, plain_settings(settings), timeout, task_name=task)
    try:
        say(f"akgen: checking {path.name}")
        before = await checker(str(path), text)
        if not before.has_task:
            problem = next((f.message for f in before.findings), None)
            return {"usage_error": problem or (f"{path.name} has no task, so there is nothing to verify a fix "
                                               "against; give --task NAME or add a [[task]] to akgen.toml")}
        if before.status is Status.PASS:
            return _result(path, text, text, before, before, [], None)
        say(f"akgen: {before.summary()} ({before.status}); trying the certain fixes")
        det = await deterministic.repair(text, str(path), checker, settings, before=before,
                                         jobs=int(settings["fix.jobs"]))
        final, outcome, repaired = det.text, det.outcome, None
        stored = [{"target": vf.finding, "before": prev, "after": vf.text, "model": "deterministic",
                   "task": before.figures.task}
                  for vf, prev in zip(det.applied, [text, *[a.text for a in det.applied]], strict=False)]
        target = next((f for f in outcome.findings if repairable(f)), None)
        if not det.passes and use_model and target is not None and model_configured(settings):
            try:
                rm = repair_model(settings, path.parent)
            except BackendError as exc:
                return {"usage_error": str(exc)}
            assert rm is not None
            if rm.route:
                say(f"akgen: {rm.route}")
            say(f"akgen: asking {rm.label} for {settings['fix.samples']} candidates")
            try:
                await rm.backend.load()
                repaired = await model_repair(det.text, str(path), target, outcome, rm.backend, checker, settings,
                                              spec=rm.spec, model_name=rm.label,
                                              progress=lambda message, _pct: say(f"akgen: {message}"))
            except BackendError as exc:
                say(f"akgen: {rm.label}: {exc}")
            finally:
                await rm.backend.close()
            if repaired is not None and repaired.best is not None and repaired.best.verdict is not None:
                stored.append({"target": target, "before": det.text, "after": repaired.best.text,
                               "model": rm.label, "task": before.figures.task})
                final, outcome = repaired.best.text or final, repaired.best.verdict.outcome
        out = _result(path, text, final, before, outcome, det.applied, repaired)
        out["_stored"] = stored
        return out
    finally:
        await worker.close()


def _result(path: Path, text: str, final: str, before: Any, after: Any, applied: list[Any], repaired: Any
            ) -> dict[str, Any]:
    from akgen_lsp.check.result import Status

    diff = "".join(difflib.unified_diff(text.splitlines(keepends=True), final.splitlines(keepends=True),
                                        f"a/{path.name}", f"b/{path.name}"))
    model = None
    if repaired is not None:
        model = {"model": repaired.model, "message": repaired.message(),
                 "candidates": [{"index": c.index, "verified": c.ok, "why": c.verdict.reason if c.verdict else c.problem,
                                 "generate_s": round(c.generate_s, 3), "verify_s": round(c.verify_s, 3)}
                                for c in repaired.candidates]}
    return {"path": str(path), "task": before.figures.task, "before": _summary(before),
            "fixes": [{"title": vf.fix.title, "fixer": vf.proposal.fixer, "finding": vf.finding.code}
                      for vf in applied],
            "model": model, "after": _summary(after), "passes": after.status is Status.PASS, "diff": diff,
            "applied": False, "stored": 0, "_text": final, "_stored": []}

