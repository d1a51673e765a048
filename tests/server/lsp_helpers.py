"""Helpers for the end-to-end server tests (documents, waiting for diagnostics, positions)."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

from lsprotocol import types
from pytest_lsp import LanguageClient, client_capabilities

FIXTURES = Path(__file__).with_name("fixtures")
SERVER = [sys.executable, "-c", "from akgen_lsp.cli import main; main()", "serve"]
CLIENTS = ["visual-studio-code", "neovim"]


def fixture_text(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def uri_of(name: str) -> str:
    return (FIXTURES / name).as_uri()


def initialize_params(spec: str, options: Any = None, root: Path = FIXTURES) -> types.InitializeParams:
    return types.InitializeParams(
        capabilities=client_capabilities(spec),
        root_uri=root.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name=root.name)],
        initialization_options=options,
    )


def open_document(client: LanguageClient, name: str, text: str | None = None, version: int = 1) -> str:
    uri = uri_of(name)
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id="cpp", version=version, text=fixture_text(name) if text is None else text
            )
        )
    )
    return uri


async def wait_for_diagnostics(
    client: LanguageClient, uri: str, version: int | None = None, timeout: float = 15.0
) -> list[types.Diagnostic]:
    """Wait until diagnostics for `uri` (for `version`, when given) have been published."""

    async def poll() -> list[types.Diagnostic]:
        while True:
            if uri in client.diagnostics and (version is None or client.diagnostic_versions.get(uri) == version):
                return list(client.diagnostics[uri])
            await asyncio.sleep(0.02)

    return await asyncio.wait_for(poll(), timeout)


def position_of(text: str, needle: str, offset_in_needle: int = 0) -> types.Position:
    """The code point position of `needle` in `text` (ASCII fixtures: the same in utf-8 and utf-16)."""
    index = text.index(needle) + offset_in_needle
    line = text.count("\n", 0, index)
    column = index - (text.rfind("\n", 0, index) + 1)
    return types.Position(line=line, character=column)
