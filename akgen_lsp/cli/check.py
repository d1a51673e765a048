"""`akgen check`: placeholder registration; the full command is written by the CLI work."""

from __future__ import annotations

import typer


def register(app: typer.Typer) -> None:
    @app.command()
    def check() -> None:
        """Lint AscendC files (in progress)."""
        raise typer.Exit(0)
