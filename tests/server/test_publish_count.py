"""How many publishDiagnostics a failing save sends, counted on the real server (`akgen serve` over stdio): one for
the failing check's findings, and one more once a fix of them verified (issue #27: at most two for one save; it was
one per source, twice)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from .lsp_helpers import EVENT_BOUND_S, SAMPLES, SERVER, initialize_params, make_client

pytestmark = pytest.mark.asyncio(loop_scope="module")

PUBLISHED: list[types.PublishDiagnosticsParams] = []


def _recording_client() -> LanguageClient:
    """The helpers' client, also keeping every publishDiagnostics in order."""
    client = make_client()
    features = client.protocol.fm.features
    default = features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]

    def record(params: types.PublishDiagnosticsParams) -> None:
        PUBLISHED.append(params)
        default(params)

    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = record
    return client


@pytest_lsp.fixture(config=ClientServerConfig(server_command=SERVER, client_factory=_recording_client),
                    scope="module")
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        initialize_params("visual-studio-code", {"lint": {"debounce_ms": 20}}, root=SAMPLES)
    )
    yield
    await lsp_client.shutdown_session()


def _with_fix(p: types.PublishDiagnosticsParams) -> bool:
    return any(isinstance(d.data, dict) and d.data.get("fixes") for d in p.diagnostics if d.source == "akgen-build")


async def test_a_failing_save_publishes_at_most_twice(client: LanguageClient, tmp_path: Path):
    text = (SAMPLES / "kernels" / "add_custom.cpp").read_text("utf-8")
    text = text.replace("Add(zLocal, xLocal, yLocal", "Add(zLocal, xLocall, yLocal")
    kernel = tmp_path / "kernels" / "add_custom.cpp"
    kernel.parent.mkdir()
    kernel.write_text(text, encoding="utf-8")
    (tmp_path / "akgen.toml").write_text((SAMPLES / "akgen.toml").read_text("utf-8"), encoding="utf-8")
    uri = kernel.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="cpp", version=1, text=text)))

    async def published(predicate) -> None:  # type: ignore[no-untyped-def]
        while not any(p.uri == uri and predicate(p) for p in PUBLISHED):
            await asyncio.sleep(0.05)

    await asyncio.wait_for(published(lambda p: True), EVENT_BOUND_S)  # the lint of the opened text
    before = len(PUBLISHED)
    client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    # the save's check fails (the build error), then the compiler's fix-it verifies and is published with it
    await asyncio.wait_for(published(_with_fix), 600.0)
    await client.text_document_hover_async(types.HoverParams(  # one more round trip: anything queued has arrived
        text_document=types.TextDocumentIdentifier(uri=uri), position=types.Position(line=0, character=0)))
    mine = [p for p in PUBLISHED[before:] if p.uri == uri]
    builds = [[d.code for d in p.diagnostics if d.source == "akgen-build"] for p in mine]
    assert len(mine) <= 2, builds
    assert len(mine) == 2 and builds[0] and not _with_fix(mine[0]) and _with_fix(mine[1]), builds
    assert {p.version for p in mine} == {1}
