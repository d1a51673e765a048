"""`akgen sim run MANIFEST.json [--out DIR] [--json]`: compile and run a kernel on the CPU simulator."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Annotated

import typer

from akgen_lsp.findings import render_text


def register(app: typer.Typer) -> None:
    sim = typer.Typer(help="Compile and run AscendC kernels on the CPU simulator (with checks and a 910B estimate).",
                      no_args_is_help=True)

    @sim.command("run")
    def run(
        manifest: Annotated[Path, typer.Argument(help="The run manifest (JSON): sources, kernel, block_dim, args.")],
        out: Annotated[Path | None, typer.Option("--out", help="Folder for outputs, trace.json and result.json.")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
        checks: Annotated[str | None, typer.Option(
            "--checks", help="npu (the hardware's rules: checks only CANN's CPU debug makes are warnings) or "
                             "cpu-debug (every CPU-debug check stops the kernel); default: the manifest's `checks`, "
                             "else npu.")] = None,
    ) -> None:
        """Compile and run the kernel of MANIFEST; exit status 0 only when the status is "ok"."""
        import dataclasses

        from akgen_lsp.sim.manifest import CHECK_MODES, Manifest, ManifestError, load_manifest
        from akgen_lsp.sim.toolchain import SimToolchain

        if checks is not None and checks not in CHECK_MODES:
            typer.echo(f"error: --checks must be npu or cpu-debug, not {checks!r}", err=True)
            raise typer.Exit(2)
        target: Manifest | Path = manifest
        if checks is not None:
            with contextlib.suppress(ManifestError):  # a bad manifest: run_manifest reports it as a finding
                target = dataclasses.replace(load_manifest(manifest), checks=checks)
        result = SimToolchain().run_manifest(target, out)
        payload = result.to_json()
        if out is not None:
            out.mkdir(parents=True, exist_ok=True)
            (out / "result.json").write_text(json.dumps(payload, indent=2), encoding="utf-8")
        if as_json:
            typer.echo(json.dumps(payload, indent=2))
        else:
            for f in result.findings:
                text = None
                with contextlib.suppress(OSError):
                    text = Path(f.span.path).read_text(encoding="utf-8", errors="replace")
                typer.echo(render_text(f, text))
            est = result.estimate or {}
            if est.get("us") is not None:
                typer.echo(f"estimate: {est['us']:.2f} us on {est.get('arch')} (bound: {est.get('bound')}; "
                           f"{est.get('blocks')} blocks in {est.get('waves')} wave(s)) - an estimate, not a measurement")
            for name, path in result.outputs.items():
                typer.echo(f"output {name}: {path}")
            if result.trace:
                typer.echo(f"trace: {result.trace}")
            for w in result.warnings:
                typer.echo(f"note: {w}")
            typer.echo(f"status: {result.status}")
        raise typer.Exit(0 if result.ok else 1)

    @sim.command("run-program")
    def run_program_cmd(
        program: Annotated[Path, typer.Argument(help="A single-source program (.asc): host main() plus kernels.")],
        args: Annotated[list[str] | None, typer.Argument(help="The program's own arguments (after --).")] = None,
        workdir: Annotated[Path | None, typer.Option(
            "--workdir", help="The program's working directory (its relative input/output paths); default: here.")
        ] = None,
        timeout: Annotated[float, typer.Option("--timeout", help="Wall-clock limit in seconds.")] = 120.0,
        define: Annotated[list[str] | None, typer.Option(
            "-D", "--define", help="A macro for the compile, NAME or NAME=VALUE (repeatable).")] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
        checks: Annotated[str, typer.Option(
            "--checks", help="npu (the hardware's rules: checks only CANN's CPU debug makes are warnings) or "
                             "cpu-debug (every CPU-debug check stops the kernel).")] = "npu",
    ) -> None:
        """Compile PROGRAM whole (host code and kernels, `<<<>>>` launches run on the simulator) and run it in
        WORKDIR; exit status 0 only when the status is "ok"."""
        from akgen_lsp.sim.program import run_program

        if checks not in ("npu", "cpu-debug"):
            typer.echo(f"error: --checks must be npu or cpu-debug, not {checks!r}", err=True)
            raise typer.Exit(2)
        defines = {d.split("=", 1)[0]: (d.split("=", 1)[1] if "=" in d else "1") for d in define or []}
        result = run_program(program, workdir, timeout_s=timeout, defines=defines, args=args or [], checks=checks)
        if as_json:
            typer.echo(json.dumps(result.to_json(), indent=2))
        else:
            if result.stdout:
                typer.echo(result.stdout.rstrip())
            for f in result.findings:
                text = None
                with contextlib.suppress(OSError):
                    text = Path(f.span.path).read_text(encoding="utf-8", errors="replace")
                typer.echo(render_text(f, text))
            for la in result.launches:
                est = la.get("estimate") or {}
                us = f"{est['us']:.2f} us estimated" if est.get("us") is not None else "no estimate"
                typer.echo(f"launch {la['launch']} (line {la['line']}): {la['blocks']} blocks, "
                           f"{la['failed_blocks']} failed, {us}")
            for w in result.warnings:
                typer.echo(f"note: {w}")
            typer.echo(f"status: {result.status} (exit code {result.exit_code})")
        raise typer.Exit(0 if result.ok else 1)

    app.add_typer(sim, name="sim")
