"""`akgen info`: what the tool runs with (server version, toolchain, compiler, sandbox tool, model), as the editors'
health checks show it (`:checkhealth akgen`, the VS Code status menu)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer

from akgen_lsp.cli.options import JsonOpt


def register(app: typer.Typer) -> None:
    @app.command()
    def info(
        path: Annotated[
            Path | None, typer.Argument(help="A file or folder whose akgen.toml applies.")
        ] = None,
        as_json: JsonOpt = False,
    ) -> None:
        """Report the environment: akgen version, toolchain, g++, sandbox, model. Exit 1 when something is missing."""
        from akgen_lsp.config import SettingsError, load_settings
        from akgen_lsp.server.features.info import environment

        folder = path if path is None or path.is_dir() else path.parent
        try:
            settings = load_settings(folder or Path.cwd())
        except SettingsError as exc:
            sys.stderr.write(f"error: {exc}\n")
            raise typer.Exit(2) from None
        report = environment(settings, (path or Path.cwd()).resolve())
        if as_json:
            sys.stdout.write(json.dumps(report, indent=2) + "\n")
        else:
            for name, entry in report.items():
                mark = "ok " if entry["ok"] else "NOT"
                sys.stdout.write(f"{mark} {name:10} {entry['what']}: {entry['detail']}\n")
        if not all(e["ok"] for e in report.values()):
            raise typer.Exit(1)
