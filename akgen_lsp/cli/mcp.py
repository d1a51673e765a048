"""`akgen mcp`: the Model Context Protocol server for coding agents (akgen_lsp/mcp; docs/agents.md)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    app.command("mcp")(mcp_cmd)


def mcp_cmd(
    root: Annotated[
        list[Path] | None,
        typer.Option(
            "--root",
            help="A folder the tools may use when the client sends no MCP roots (repeatable; default: the "
            "working directory).",
        ),
    ] = None,
    http: Annotated[
        bool,
        typer.Option(
            "--http",
            help="Serve streamable HTTP on a loopback address (with a bearer token) instead of stdio.",
        ),
    ] = False,
    host: Annotated[str, typer.Option("--host", help="--http: the loopback address.")] = "127.0.0.1",
    port: Annotated[int, typer.Option("--port", help="--http: the port.")] = 8765,
    token_file: Annotated[
        Path | None,
        typer.Option(
            "--token-file",
            help="--http: the bearer token's file (mode 0600; made when missing). Default: a new token "
            "for this run, printed on stderr.",
        ),
    ] = None,
    no_warm: Annotated[
        bool, typer.Option("--no-warm", help="Do not start the check worker before the first check.")
    ] = False,
) -> None:
    """Serve akgen's tools (lint, check, fix, explain, report, sim_run, run_program, bench) to a coding agent over
    the Model Context Protocol: stdio by default, or streamable HTTP on loopback with --http."""
    import secrets

    from akgen_lsp.mcp.app import build_server
    from akgen_lsp.mcp.transport import TransportError, check_loopback, read_token, serve_http

    roots = [r.resolve() for r in root or []]
    for r in roots:
        if not r.is_dir():
            typer.echo(f"akgen mcp: --root {r} is not a folder; give an existing folder", err=True)
            raise typer.Exit(2)
    server = build_server(roots, warm=not no_warm)
    if not http:
        server.run("stdio")
        return
    try:
        check_loopback(host)
        if token_file is not None:
            token = read_token(token_file)
        else:
            token = secrets.token_urlsafe(32)
            typer.echo(f"akgen mcp: token {token}", err=True)
    except (TransportError, OSError) as exc:
        typer.echo(f"akgen mcp: {exc}", err=True)
        raise typer.Exit(2) from None
    serve_http(server, host, port, token)
