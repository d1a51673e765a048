"""Diagnostics end to end: a broken kernel gets them, a correct kernel and a plain C++ file do not."""

from __future__ import annotations

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from akgen_lsp.ascendc.lint import lint_text
from akgen_lsp.server.convert import SEVERITY

from .lsp_helpers import fixture_text, open_document, wait_for_diagnostics

pytestmark = pytest.mark.asyncio(loop_scope="module")

async def test_broken_kernel_gets_a_versioned_diagnostic_with_data(client: LanguageClient):
    uri = open_document(client, "broken_add.cpp", version=3)
    diagnostics = await wait_for_diagnostics(client, uri, version=3)
    akg120 = [d for d in diagnostics if d.code == "AKG120"]
    assert akg120, diagnostics
    diag = akg120[0]
    # the same finding the library reports, with its severity mapped
    expected = next(f for f in lint_text(fixture_text("broken_add.cpp"), "broken_add.cpp") if f.code == "AKG120")
    assert diag.severity == SEVERITY[expected.severity]
    assert diag.message == expected.message
    assert diag.source == "akgen-lint"
    assert "xLocal" in diag.message
    line = fixture_text("broken_add.cpp").splitlines()[diag.range.start.line]
    assert "inQueueX.DeQue" in line
    assert diag.data["code"] == "AKG120"
    assert diag.data["fixes"] and diag.data["fixes"][0]["title"]


async def test_correct_kernel_gets_an_empty_list(client: LanguageClient):
    uri = open_document(client, "good_add.cpp")
    assert await wait_for_diagnostics(client, uri, version=1) == []


async def test_plain_cpp_file_is_left_alone(client: LanguageClient):
    plain = open_document(client, "plain.cpp")
    broken = open_document(client, "broken_add.cpp")
    # the lints run in order in one worker: once the second is published the first has been decided
    await wait_for_diagnostics(client, broken, version=1)
    assert plain not in client.diagnostics
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=plain), position=types.Position(3, 5))
    )
    assert hover is None


async def test_edit_that_fixes_the_kernel_clears_the_diagnostic(client: LanguageClient):
    uri = open_document(client, "broken_add.cpp")
    assert await wait_for_diagnostics(client, uri, version=1)
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=fixture_text("good_add.cpp"))],
        )
    )
    assert await wait_for_diagnostics(client, uri, version=2) == []


async def test_burst_of_edits_publishes_the_last_version(client: LanguageClient):
    uri = open_document(client, "good_add.cpp")
    await wait_for_diagnostics(client, uri, version=1)
    broken = fixture_text("broken_add.cpp")
    for version in range(2, 7):
        client.text_document_did_change(
            types.DidChangeTextDocumentParams(
                text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
                content_changes=[types.TextDocumentContentChangeWholeDocument(text=broken + "\n" * version)],
            )
        )
    diagnostics = await wait_for_diagnostics(client, uri, version=6)
    assert [d.code for d in diagnostics] == ["AKG120"]


async def test_incremental_change_moves_the_diagnostic(client: LanguageClient):
    uri = open_document(client, "broken_add.cpp")
    before = await wait_for_diagnostics(client, uri, version=1)
    line = before[0].range.start.line
    client.text_document_did_change(
        types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
            content_changes=[
                types.TextDocumentContentChangePartial(
                    range=types.Range(types.Position(0, 0), types.Position(0, 0)), text="// one more line\n"
                )
            ],
        )
    )
    after = await wait_for_diagnostics(client, uri, version=2)
    assert after[0].range.start.line == line + 1


async def test_close_clears_the_diagnostics(client: LanguageClient):
    uri = open_document(client, "broken_add.cpp")
    assert await wait_for_diagnostics(client, uri, version=1)
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )
    await client.wait_for_notification(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    assert list(client.diagnostics[uri]) == []


async def test_columns_follow_the_negotiated_encoding(client: LanguageClient):
    """A CJK comment before the finding: 3 units per character in utf-8 (Neovim), 1 in utf-16 (VS Code)."""
    text = fixture_text("broken_add.cpp").replace(
        "LocalTensor<half> xLocal = inQueueX.DeQue", "LocalTensor<half> xLocal = /*输入*/ inQueueX.DeQue"
    )
    uri = open_document(client, "broken_add.cpp", text=text)
    diagnostics = await wait_for_diagnostics(client, uri, version=1)
    diag = next(d for d in diagnostics if d.code == "AKG120")
    line = text.splitlines()[diag.range.start.line]
    code_points = line.index("DeQue")
    general = client.capabilities.general if client.capabilities else None
    utf8 = bool(general and general.position_encodings and general.position_encodings[0] == "utf-8")
    expected = len(line[:code_points].encode("utf-8")) if utf8 else len(line[:code_points].encode("utf-16-le")) // 2
    assert diag.range.start.character == expected
