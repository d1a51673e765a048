"""`akgen trust add|remove|list`: the user's list of trusted folders (docs/security.md). A trusted folder's
akgen.toml may name the compiler, the model server and its key, limits and the repair store; an untrusted one may
set only data (tasks, the arch, lint rules), and the keys it may not set are named on stderr when they are ignored."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    group = typer.Typer(
        help="Trust a project folder (its akgen.toml may then name programs, servers and limits).",
        no_args_is_help=True,
    )
    app.add_typer(group, name="trust")

    @group.command("add")
    def add(path: Annotated[Path, typer.Argument(help="The project folder to trust.")] = Path(".")) -> None:
        """Trust PATH and every folder inside it."""
        from akgen_lsp import trust
        from akgen_lsp.cli.output import err, out

        try:
            folder = trust.add_trusted(path)
        except OSError as exc:
            err(f"error: {exc}")
            raise typer.Exit(2) from None
        out(
            f"trusted {folder} (its akgen.toml may now set every key; `akgen trust remove {folder}` undoes it)"
        )

    @group.command("remove")
    def remove(path: Annotated[Path, typer.Argument(help="A folder of the trust list.")] = Path(".")) -> None:
        """Stop trusting PATH."""
        from akgen_lsp import trust
        from akgen_lsp.cli.output import err, out

        try:
            removed = trust.remove_trusted(path)
        except OSError as exc:
            err(f"error: {exc}")
            raise typer.Exit(2) from None
        if not removed:
            err(f"{path.resolve()} is not in the trust list; `akgen trust list` shows it")
            raise typer.Exit(1)
        out(f"no longer trusted: {path.resolve()}")

    @group.command("list")
    def list_() -> None:
        """Print the trusted folders, one a line."""
        from akgen_lsp import trust
        from akgen_lsp.cli.output import out

        for folder in trust.trusted_folders():
            out(str(folder))
        if not trust.trusted_folders():
            sys.stderr.write(
                f"no trusted folders ({trust.config_dir() / trust.TRUST_LIST}); "
                "`akgen trust add PATH` adds one\n"
            )
