"""`akgen sim run MANIFEST.json [--out DIR] [--json]`: compile and run a kernel on the CPU simulator."""

from __future__ import annotations

import contextlib
import json
from pathlib import Path
from typing import Annotated

import typer

from akgen_lsp.findings import render_text


def register(app: typer.Typer) -> None:
    sim = typer.Typer(
        help="Compile and run AscendC kernels on the CPU simulator (with checks and a 910B estimate).",
        no_args_is_help=True,
    )

    @sim.command("run")
    def run(
        manifest: Annotated[
            Path, typer.Argument(help="The run manifest (JSON): sources, kernel, block_dim, args.")
        ],
        out: Annotated[
            Path | None, typer.Option("--out", help="Folder for outputs, trace.json and result.json.")
        ] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
        checks: Annotated[
            str | None,
            typer.Option(
                "--checks",
                help="npu (the hardware's rules: checks only CANN's CPU debug makes are warnings) or "
                "cpu-debug (every CPU-debug check stops the kernel); default: the manifest's `checks`, "
                "else npu.",
            ),
        ] = None,
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
                typer.echo(
                    f"estimate: {est['us']:.2f} us on {est.get('arch')} (bound: {est.get('bound')}; "
                    f"{est.get('blocks')} blocks in {est.get('waves')} wave(s)) - an estimate, not a measurement"
                )
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
        program: Annotated[
            Path | None,
            typer.Argument(
                help="The program: a single-source .asc (host main() plus kernels), a CPU-debug main, or a folder of "
                "sources (each .cpp its own translation unit)."
            ),
        ] = None,
        args: Annotated[
            list[str] | None, typer.Argument(help="The program's own arguments (after --).")
        ] = None,
        source: Annotated[
            list[Path] | None,
            typer.Option(
                "--source",
                help="Another source or folder of the program (repeatable): a sample's main.cpp, kernel .cpp, "
                "host tiling .cpp, compiled separately and linked.",
            ),
        ] = None,
        include: Annotated[
            list[Path] | None,
            typer.Option("-I", "--include-dir", help="A folder of the program's headers (repeatable)."),
        ] = None,
        workdir: Annotated[
            Path | None,
            typer.Option(
                "--workdir",
                help="The program's working directory (its relative input/output paths); default: here.",
            ),
        ] = None,
        timeout: Annotated[float, typer.Option("--timeout", help="Wall-clock limit in seconds.")] = 120.0,
        define: Annotated[
            list[str] | None,
            typer.Option("-D", "--define", help="A macro for the compile, NAME or NAME=VALUE (repeatable)."),
        ] = None,
        as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
        checks: Annotated[
            str,
            typer.Option(
                "--checks",
                help="npu (the hardware's rules: checks only CANN's CPU debug makes are warnings) or "
                "cpu-debug (every CPU-debug check stops the kernel).",
            ),
        ] = "npu",
    ) -> None:
        """Compile PROGRAM (host code and kernels; several sources or a folder are separate translation units,
        linked; `<<<>>>` launches and ICPU_RUN_KF run on the simulator) and run it in WORKDIR; exit status 0 only
        when the status is "ok"."""
        from akgen_lsp.sim.program import run_program

        if checks not in ("npu", "cpu-debug"):
            typer.echo(f"error: --checks must be npu or cpu-debug, not {checks!r}", err=True)
            raise typer.Exit(2)
        sources = ([program] if program is not None else []) + list(source or [])
        if not sources:
            typer.echo(
                "error: give the program: a source file or folder, or --source for each of its files",
                err=True,
            )
            raise typer.Exit(2)
        defines = {d.split("=", 1)[0]: (d.split("=", 1)[1] if "=" in d else "1") for d in define or []}
        result = run_program(
            sources,
            workdir,
            timeout_s=timeout,
            defines=defines,
            args=args or [],
            checks=checks,
            include_dirs=include or [],
        )
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
                typer.echo(
                    f"launch {la['launch']} (line {la['line']}): {la['blocks']} blocks, "
                    f"{la['failed_blocks']} failed, {us}"
                )
            for w in result.warnings:
                typer.echo(f"note: {w}")
            typer.echo(f"status: {result.status} (exit code {result.exit_code})")
        raise typer.Exit(0 if result.ok else 1)

    @sim.command("toolkit")
    def toolkit_cmd(
        print_path: Annotated[
            bool, typer.Option("--print-path", help="Print only the toolkit's folder.")
        ] = False,
        env: Annotated[
            bool, typer.Option("--env", help="Print the shell exports of its setenv.bash.")
        ] = False,
    ) -> None:
        """Make (once) and show the simulator's CANN toolkit: an ASCEND_HOME_PATH-style folder whose CMake packages
        (tikicpulib, ascendc.cmake, find_package(ASC)) build a CANN sample's own CMakeLists for the CPU simulator."""
        from akgen_lsp.sim.toolkit import ToolkitError, ensure_toolkit, environment

        try:
            root = ensure_toolkit()
        except ToolkitError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(1) from None
        if print_path:
            typer.echo(str(root))
        elif env:
            for key, value in environment(root).items():
                typer.echo(f'export {key}="{value}"')
        else:
            typer.echo(f"toolkit: {root}")
            typer.echo(
                f"use it as a CANN install: `source {root}/bin/setenv.bash` (or ASCEND_HOME_PATH={root}), then "
                "the sample's own `bash run.sh -r cpu -v Ascend910B1`, or cmake with "
                f"-DASCEND_CANN_PACKAGE_PATH={root} -DRUN_MODE=cpu; the binary runs its kernels on the "
                "simulator and prints findings and estimates on stderr"
            )

    @sim.command("op-test")
    def op_test_cmd(
        opdir: Annotated[
            Path,
            typer.Argument(
                help="An operator folder of an ops-math / ops-nn style repository (or a file in it)."
            ),
        ],
        soc: Annotated[
            str, typer.Option("--soc", help="The SoC whose AddOpTestCase cases run.")
        ] = "Ascend910B1",
        include: Annotated[
            list[Path] | None, typer.Option("-I", "--include", help="More include folders.")
        ] = None,
        define: Annotated[
            list[str] | None,
            typer.Option("-D", "--define", help="Macros for every compile of the UT: NAME or NAME=VALUE."),
        ] = None,
        timeout: Annotated[
            float, typer.Option("--timeout", help="Seconds for each step (configure, build, a run).")
        ] = 900.0,
        as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON.")] = False,
        log: Annotated[bool, typer.Option("--log", help="Print the build and test output too.")] = False,
    ) -> None:
        """Build an operator's kernel unit test (tests/ut/op_kernel, AddOpTestCase) with the repository's own
        CMakeLists against the simulator's toolkit and run it in the sandbox, its data scripts included; exit
        status 0 only when every case passes, nothing was found and no golden comparison failed."""
        from akgen_lsp.sim.op_test import OpTestError, run_op_test

        try:
            result = run_op_test(
                opdir,
                soc=soc,
                timeout_s=timeout,
                include_dirs=[p.resolve() for p in include or []],
                defines=list(define or []),
            )
        except OpTestError as exc:
            typer.echo(f"error: {exc}", err=True)
            raise typer.Exit(2) from None
        if as_json:
            typer.echo(json.dumps(result.to_json(), indent=2))
        else:
            if log:
                typer.echo(result.log)
            for f in result.findings:
                text = None
                with contextlib.suppress(OSError):
                    text = Path(f.span.path).read_text(encoding="utf-8", errors="replace")
                typer.echo(render_text(f, text))
            for c in result.cases:
                typer.echo(
                    f"{'PASS' if c.passed else 'FAIL'} {c.name}" + (f": {c.message}" if c.message else "")
                )
            typer.echo(result.summary())
        raise typer.Exit(0 if result.ok else 1)

    app.add_typer(sim, name="sim")
