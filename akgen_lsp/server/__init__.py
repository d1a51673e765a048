"""The akgen language server (pygls). `run_stdio()` and `run_tcp(host, port)` start it; everything else is in
`protocol` (the wiring), `session` (settings per folder, diagnostics per document and source), `scheduler`
(debounce, cancellation, the worker thread), `convert` (findings to LSP values) and `features/` (hover, completion,
signature help, code actions, inline completion over the catalog and the model service; no transport there).

Adding a diagnostic source (build and run on save)::

    async def build_check(ls: AkgenServer, doc: TextDocument, settings: Settings) -> None:
        findings = ...                      # compile in a subprocess; CancelledError: kill its process group
        ls.publish_findings(doc.uri, "build", findings, version=doc.version)

    server.save_checks["build"] = build_check

Each source keeps its own diagnostics per document and the client gets the merge (lint, build, run); findings made
for an older version of the text are dropped; their fixes become quick fixes like the lint's.
"""

from __future__ import annotations

import logging
import os
import sys


def _configure_logging() -> None:
    level = os.environ.get("AKGEN_LOG_LEVEL", "info").upper()
    logging.basicConfig(
        stream=sys.stderr,
        level=getattr(logging, level, logging.INFO),
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    # pygls logs every message at INFO, and a cancel that crossed its answer at WARNING: keep the editor's log readable
    logging.getLogger("pygls").setLevel(logging.ERROR)


def run_stdio(client_process_id: int | None = None) -> None:
    """Serve one client over stdin/stdout until it exits (or until process `client_process_id` dies)."""
    from akgen_lsp.server import framing
    from akgen_lsp.server.protocol import create_server

    _configure_logging()
    server = create_server()
    server.watch_client(client_process_id)
    server.forward_logs()
    framing.start_io(server)  # pygls's loop with bounded framing that resynchronises


def run_socket(port: int, client_process_id: int | None = None, host: str = "127.0.0.1") -> None:
    """Serve one client that listens on `host:port` (vscode-languageclient's socket transport: the server connects)."""
    import socket

    from akgen_lsp.server import framing
    from akgen_lsp.server.peer import check_tcp_peer
    from akgen_lsp.server.protocol import create_server

    _configure_logging()
    conn = socket.create_connection((host, port))
    check_tcp_peer(
        conn
    )  # the client listening on the port is the user's own editor, not another user's listener
    server = create_server()
    server.watch_client(client_process_id)
    framing.start_io(server, conn.makefile("rb"), conn.makefile("wb"))


def run_pipe(name: str, client_process_id: int | None = None) -> None:
    """Serve one client over its named pipe (a unix socket path: vscode-languageclient's pipe transport)."""
    import socket

    from akgen_lsp.server import framing
    from akgen_lsp.server.peer import check_unix_peer
    from akgen_lsp.server.protocol import create_server

    _configure_logging()
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    conn.connect(name)
    check_unix_peer(conn)
    server = create_server()
    server.watch_client(client_process_id)
    framing.start_io(server, conn.makefile("rb"), conn.makefile("wb"))


def run_tcp(host: str, port: int, token: str) -> None:
    """Serve clients over TCP (one session per connection) until interrupted; a connection whose first line is not
    ``Akgen-Token: <token>`` is closed unanswered."""
    from akgen_lsp.server import framing
    from akgen_lsp.server.protocol import create_server

    _configure_logging()
    framing.start_tcp(create_server(), host, port, token=token)
