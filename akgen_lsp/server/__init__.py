"""The akgen language server (pygls). `run_stdio()` and `run_tcp(host, port)` start it; everything else is in
`protocol` (the wiring), `scheduler` (debounce, cancellation, the worker thread), `convert` (findings to LSP values)
and `features/`."""

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
    # pygls logs every message at INFO; keep the editor's log readable
    logging.getLogger("pygls").setLevel(logging.WARNING)


def run_stdio() -> None:
    """Serve one client over stdin/stdout until it exits."""
    from akgen_lsp.server.protocol import create_server

    _configure_logging()
    create_server().start_io()


def run_tcp(host: str, port: int) -> None:
    """Serve clients over TCP (one session per connection) until interrupted."""
    from akgen_lsp.server.protocol import create_server

    _configure_logging()
    create_server().start_tcp(host, port)
