"""Diagnostics end to end: broken samples get what their ``// expect:`` markers say, correct kernels and plain C++
files get none; versions, bursts, incremental edits, closing and position encodings."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from akgen_lsp.ascendc.lint import lint_text
from akgen_lsp.config import load_settings
from akgen_lsp.server.convert import SEVERITY

from .lsp_helpers import (
    SAMPLES,
    broken_samples,
    change_whole,
    expected_markers,
    fixture_text,
    open_document,
    open_sample,
    wait_for_diagnostics,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")
NOT_FREED = SAMPLES / "broken" / "akg120_dequeued_not_freed.cpp"


def _library_findings(path: Path, text: str) -> list:
    return lint_text(text, str(path), load_settings(path.parent, env={}))


async def test_every_broken_sample_gets_the_libraries_diagnostics(client: LanguageClient):
    """The server publishes what the library finds, with the settings of the sample's akgen.toml (whether the
    library finds what the ``// expect:`` markers say is tests/test_samples.py's business)."""
    samples = broken_samples()
    assert samples, "samples/broken has no marked kernels"
    uris = {path: open_sample(client, path) for path in samples}
    total = 0
    for path, uri in uris.items():
        text = path.read_text("utf-8")
        published = await wait_for_diagnostics(client, uri, version=1)
        library = _library_findings(path, text)
        assert sorted((d.range.start.line, d.code, d.message, d.severity) for d in published) == sorted(
            (f.span.line - 1, f.code, f.message, SEVERITY[f.severity]) for f in library
        ), path.name
        total += len(published)
    assert total >= len(samples) // 2  # most broken samples are caught statically


async def test_broken_kernel_diagnostic_is_versioned_and_carries_data(client: LanguageClient):
    text = NOT_FREED.read_text("utf-8")
    (line, code), *_ = expected_markers(text)
    uri = open_sample(client, NOT_FREED, version=3)
    diagnostics = await wait_for_diagnostics(client, uri, version=3)
    diag = next(d for d in diagnostics if d.code == code and d.range.start.line == line)
    assert diag.source == "akgen-lint"
    assert diag.data["code"] == code
    finding = next(f for f in _library_findings(NOT_FREED, text) if f.code == code and f.span.line == line + 1)
    assert len(diag.data["fixes"]) == len(finding.fixes)
    if finding.error_class:
        assert diag.data["error_class"] == finding.error_class


async def test_correct_kernels_get_an_empty_list(client: LanguageClient):
    kernels = [*sorted((SAMPLES / "kernels").glob("*.cpp")), Path(__file__).with_name("fixtures") / "good_add.cpp"]
    for path in kernels:
        uri = open_sample(client, path)
        assert await wait_for_diagnostics(client, uri, version=1) == [], path.name


async def test_plain_cpp_file_is_left_alone(client: LanguageClient):
    plain = open_document(client, "plain.cpp")
    broken = open_sample(client, NOT_FREED)
    # the lints run in order in one worker: once the second is published the first has been decided
    await wait_for_diagnostics(client, broken, version=1)
    assert plain not in client.diagnostics
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=types.TextDocumentIdentifier(uri=plain), position=types.Position(3, 5))
    )
    assert hover is None


async def test_edit_that_fixes_the_kernel_clears_the_diagnostic(client: LanguageClient):
    uri = open_document(client, "good_add.cpp", text=NOT_FREED.read_text("utf-8"))
    assert await wait_for_diagnostics(client, uri, version=1)
    change_whole(client, uri, 2, fixture_text("good_add.cpp"))
    assert await wait_for_diagnostics(client, uri, version=2) == []


async def test_burst_of_edits_publishes_the_last_version(client: LanguageClient):
    uri = open_document(client, "good_add.cpp")
    await wait_for_diagnostics(client, uri, version=1)
    broken = NOT_FREED.read_text("utf-8")
    for version in range(2, 7):
        change_whole(client, uri, version, broken + "\n" * version)
    diagnostics = await wait_for_diagnostics(client, uri, version=6)
    assert sorted(d.code for d in diagnostics) == sorted(code for _, code in expected_markers(broken))


async def test_incremental_change_moves_the_diagnostic(client: LanguageClient):
    uri = open_sample(client, NOT_FREED)
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
    uri = open_sample(client, NOT_FREED)
    assert await wait_for_diagnostics(client, uri, version=1)
    client.text_document_did_close(
        types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri))
    )

    async def cleared() -> None:
        while list(client.diagnostics[uri]):
            await asyncio.sleep(0.02)

    await asyncio.wait_for(cleared(), 10)


async def test_columns_follow_the_negotiated_encoding(client: LanguageClient):
    """A comment with CJK and an emoji before the finding: utf-8 (Neovim) counts 3 and 4 units, utf-16 (VS Code) 1
    and 2, so neither equals the code point column."""
    original = NOT_FREED.read_text("utf-8")
    (line, code), *_ = expected_markers(original)
    lines = original.splitlines(keepends=True)
    indent = len(lines[line]) - len(lines[line].lstrip())
    lines[line] = lines[line][:indent] + "/*输入😀*/ " + lines[line][indent:]
    text = "".join(lines)
    uri = open_sample(client, NOT_FREED, text=text)
    diagnostics = await wait_for_diagnostics(client, uri, version=1)
    diag = next(d for d in diagnostics if d.code == code)
    finding = next(f for f in _library_findings(NOT_FREED, text) if f.code == code)
    prefix = lines[line][: finding.span.column - 1]
    general = client.capabilities.general if client.capabilities else None
    utf8 = bool(general and general.position_encodings and general.position_encodings[0] == "utf-8")
    expected = len(prefix.encode("utf-8")) if utf8 else len(prefix.encode("utf-16-le")) // 2
    assert diag.range.start.character == expected
    assert expected != finding.span.column - 1  # the test means something: units differ from code points
