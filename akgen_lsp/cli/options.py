"""The options several `akgen` commands take, declared once (typer ``Annotated`` aliases: a command writes
``arch: ArchOpt = None``), and the settings a command reads with its command-line overrides."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

JsonOpt = Annotated[bool, typer.Option("--json", help="Print JSON.")]
ArchOpt = Annotated[str | None, typer.Option("--arch", help="Hardware profile.")]
CannOpt = Annotated[str | None, typer.Option("--cann", help="CANN version the kernels target.")]
JobsOpt = Annotated[
    int | None, typer.Option("--jobs", help="Worker processes (default: the number of cores).")
]
SuiteOpt = Annotated[
    Path | None,
    typer.Option(
        "--suite", help="A checkout of NPUKernelBench or a suite folder (default: the bundled suite)."
    ),
]


def settings_with(arch: str | None = None, cann: str | None = None) -> Any:
    """The settings of the current folder with ``--arch`` and ``--cann`` over them; a bad setting exits (2) with
    its message."""
    from akgen_lsp.config import SettingsError, load_settings

    try:
        settings = load_settings(Path.cwd())
        over = {k: v for k, v in (("arch", arch), ("cann.version", cann)) if v}
        return settings.with_overrides(over, "the command line") if over else settings
    except SettingsError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from None
