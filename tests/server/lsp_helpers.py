"""Helpers for the end-to-end server tests (documents, waiting for diagnostics, positions)."""

from __future__ import annotations

import asyncio
import itertools
import re
import sys
from pathlib import Path
from typing import Any

from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient, client_capabilities
from pytest_lsp.client import make_test_lsp_client

FIXTURES = Path(__file__).with_name("fixtures")
SAMPLES = Path(__file__).resolve().parents[2] / "samples"
EXPECT_RE = re.compile(r"//\s*expect:\s*(.*?)\s*$")
SERVER = [sys.executable, "-c", "from akgen_lsp.cli import main; main()", "serve"]
CLIENTS = ["visual-studio-code", "neovim"]
# how long a wait for the server's publication may last before the test fails: a bound, not a timing (the waits
# return at the event). A fresh server's first lint loads the catalog and the parser: over 15 s under stress-ng.
EVENT_BOUND_S = 180.0


def make_client() -> LanguageClient:
    """pytest-lsp's client, also recording the version of each publishDiagnostics."""
    client = make_test_lsp_client()
    versions: dict[str, int | None] = {}
    client.diagnostic_versions = versions  # type: ignore[attr-defined]
    features = client.protocol.fm.features
    default = features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]

    def record(params: types.PublishDiagnosticsParams) -> None:
        versions[params.uri] = params.version
        default(params)

    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = record
    return client


CONFIG = ClientServerConfig(server_command=SERVER, client_factory=make_client)


def fixture_text(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


_opened = itertools.count(1)


def uri_of(name: str) -> str:
    return (FIXTURES / name).as_uri()


def unique_uri(name: str) -> str:
    """A URI of its own for a fixture (servers are shared between tests): ``.../fixtures/opened-7/good_add.cpp``."""
    return (FIXTURES / f"opened-{next(_opened)}" / name).as_uri()


def initialize_params(spec: str, options: Any = None, root: Path = FIXTURES) -> types.InitializeParams:
    return types.InitializeParams(
        capabilities=client_capabilities(spec),
        root_uri=root.as_uri(),
        workspace_folders=[types.WorkspaceFolder(uri=root.as_uri(), name=root.name)],
        initialization_options=options,
    )


def expected_markers(text: str) -> list[tuple[int, str]]:
    """The ``// expect: AKG120`` markers of a sample (the samples' own test keeps them true): (0-based line, code)."""
    out = []
    for number, line in enumerate(text.splitlines()):
        m = EXPECT_RE.search(line)
        if m:
            out.extend((number, code) for code in re.findall(r"AKG\d{3}", m.group(1)))
    return out


def broken_samples() -> list[Path]:
    """Broken samples with static markers (runtime-only samples excluded)."""
    return sorted(
        p
        for p in (SAMPLES / "broken").rglob("*")
        if p.suffix in (".cpp", ".asc") and "runtime" not in p.parts and expected_markers(p.read_text("utf-8"))
    )


def open_sample(client: LanguageClient, path: Path, text: str | None = None, version: int = 1) -> str:
    """Open a sample under a fresh URI next to it (so the nearest akgen.toml still applies); returns the URI."""
    uri = (path.parent / f"opened-{next(_opened)}" / path.name).as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id="cpp", version=version, text=path.read_text("utf-8") if text is None else text
            )
        )
    )
    return uri


def open_file(client: LanguageClient, path: Path, text: str, version: int = 1) -> str:
    """Write `text` to `path` and open it at its own URI (a task folder's kernel: the server finds its task from the
    path); returns the URI."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    uri = path.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="cpp", version=version, text=text)))
    return uri


def record_apply_edit(client: LanguageClient, into: list[types.ApplyWorkspaceEditParams]) -> None:
    """Answer the server's ``workspace/applyEdit`` requests as applied, each kept in `into` (before initialize)."""

    @client.feature(types.WORKSPACE_APPLY_EDIT)
    def apply(params: types.ApplyWorkspaceEditParams) -> types.ApplyWorkspaceEditResult:
        into.append(params)
        return types.ApplyWorkspaceEditResult(applied=True)


def open_document(client: LanguageClient, name: str, text: str | None = None, version: int = 1) -> str:
    """Open fixture `name` (or `text` under its name) under a fresh URI; returns the URI."""
    uri = unique_uri(name)
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=uri, language_id="cpp", version=version, text=fixture_text(name) if text is None else text
            )
        )
    )
    return uri


async def wait_for_diagnostics(
    client: LanguageClient, uri: str, version: int | None = None, timeout: float = EVENT_BOUND_S
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


def apply_text_edits(text: str, edits: list[types.TextEdit]) -> str:
    """Apply LSP edits to an ASCII text (where utf-8, utf-16 and code point columns agree)."""
    assert text.isascii(), "the helper needs ASCII text"
    starts = [0]
    for i, ch in enumerate(text):
        if ch == "\n":
            starts.append(i + 1)

    def offset(p: types.Position) -> int:
        return min(starts[p.line] + p.character, len(text)) if p.line < len(starts) else len(text)

    for edit in sorted(edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        text = text[: offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end) :]
    return text


def edits_for(edit: types.WorkspaceEdit, uri: str) -> tuple[list[types.TextEdit], int | None]:
    """The text edits of `uri` in a workspace edit, and the document version it was made for (if versioned)."""
    if edit.document_changes:
        out: list[types.TextEdit] = []
        version = None
        for change in edit.document_changes:
            assert isinstance(change, types.TextDocumentEdit)
            if change.text_document.uri == uri:
                out.extend(change.edits)
                version = change.text_document.version
        return out, version
    assert edit.changes is not None
    return list(edit.changes.get(uri, [])), None


def change_whole(client: LanguageClient, uri: str, version: int, text: str) -> None:
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)],
        )
    )


async def wait_for_message(client: LanguageClient, timeout: float = EVENT_BOUND_S) -> types.ShowMessageParams:
    async def poll() -> types.ShowMessageParams:
        while not client.messages:
            await asyncio.sleep(0.02)
        return client.messages[0]

    return await asyncio.wait_for(poll(), timeout)


async def until(predicate: Any, timeout: float = 240.0) -> Any:
    """The first true value of `predicate()`, polled every 50 ms (asyncio.TimeoutError after `timeout` s)."""
    async def poll() -> Any:
        while True:
            value = predicate()
            if value:
                return value
            await asyncio.sleep(0.05)

    return await asyncio.wait_for(poll(), timeout)
