"""Code actions end to end: a quick fix applied to the document makes its diagnostic go away.

The findings come from the broken samples (their ``// expect:`` markers are kept true by the samples' own test);
which sample has a safe or an unsafe fix is read from the library, so the tests follow the rules as they grow.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from akgen_lsp.ascendc.lint import lint_text
from akgen_lsp.config import load_settings
from akgen_lsp.findings import Finding

from .lsp_helpers import (
    apply_text_edits,
    broken_samples,
    change_whole,
    edits_for,
    open_sample,
    wait_for_diagnostics,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")
DOC = types.TextDocumentIdentifier


def _sample_with(predicate) -> tuple[Path, Finding]:
    for path in broken_samples():
        text = path.read_text("utf-8")
        if not text.isascii():
            continue
        for finding in lint_text(text, str(path), load_settings(path.parent, env={})):
            if predicate(finding):
                return path, finding
    raise AssertionError("no broken sample has such a finding; the samples should show a fix of each kind")


def _count(diagnostics: list[types.Diagnostic], code: str) -> int:
    return sum(1 for d in diagnostics if d.code == code)


async def _actions(
    client: LanguageClient, uri: str, diagnostic: types.Diagnostic, only: list[str] | None = None
) -> list[types.CodeAction]:
    result = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=DOC(uri=uri),
            range=diagnostic.range,
            context=types.CodeActionContext(diagnostics=[diagnostic], only=only),
        )
    )
    return [a for a in result or [] if isinstance(a, types.CodeAction)]


def _document_changes(client: LanguageClient) -> bool:
    ws = client.capabilities.workspace if client.capabilities else None
    return bool(ws and ws.workspace_edit and ws.workspace_edit.document_changes)


async def _diagnostic_of(client: LanguageClient, uri: str, finding: Finding) -> types.Diagnostic:
    diagnostics = await wait_for_diagnostics(client, uri, version=1)
    return next(d for d in diagnostics if d.code == finding.code and d.range.start.line == finding.span.line - 1)


async def test_safe_single_fix_is_preferred_and_removes_the_diagnostic(client: LanguageClient):
    path, finding = _sample_with(lambda f: len(f.fixes) == 1 and f.fixes[0].safe)
    text = path.read_text("utf-8")
    uri = open_sample(client, path)
    diag = await _diagnostic_of(client, uri, finding)
    before = _count(await wait_for_diagnostics(client, uri, version=1), finding.code)
    actions = await _actions(client, uri, diag, only=[types.CodeActionKind.QuickFix])
    fix = next(a for a in actions if a.title == finding.fixes[0].title)
    assert fix.kind == types.CodeActionKind.QuickFix
    assert fix.is_preferred is True
    edits, version = edits_for(fix.edit, uri)
    if _document_changes(client):
        assert version == 1
    change_whole(client, uri, 2, apply_text_edits(text, edits))
    after = await wait_for_diagnostics(client, uri, version=2)
    assert _count(after, finding.code) == before - 1


async def test_unsafe_fix_is_offered_but_not_preferred(client: LanguageClient):
    path, finding = _sample_with(lambda f: any(not fix.safe for fix in f.fixes))
    text = path.read_text("utf-8")
    uri = open_sample(client, path)
    diag = await _diagnostic_of(client, uri, finding)
    before = _count(await wait_for_diagnostics(client, uri, version=1), finding.code)
    unsafe = next(fix for fix in finding.fixes if not fix.safe)
    action = next(a for a in await _actions(client, uri, diag) if a.title == unsafe.title)
    assert not action.is_preferred
    edits, _ = edits_for(action.edit, uri)
    change_whole(client, uri, 2, apply_text_edits(text, edits))
    after = await wait_for_diagnostics(client, uri, version=2)
    assert _count(after, finding.code) == before - 1


async def test_fix_all_is_resolved_lazily_when_the_client_can(client: LanguageClient):
    path, finding = _sample_with(lambda f: any(fix.safe for fix in f.fixes))
    text = path.read_text("utf-8")
    uri = open_sample(client, path)
    diag = await _diagnostic_of(client, uri, finding)
    actions = await _actions(client, uri, diag, only=[types.CodeActionKind.SourceFixAll])
    assert [a.kind for a in actions] == ["source.fixAll.akgen"]
    action = actions[0]
    resolves = client.capabilities.text_document.code_action.resolve_support
    if resolves and "edit" in resolves.properties:
        assert action.edit is None
        action = await client.code_action_resolve_async(action)
    assert action.edit is not None
    edits, _ = edits_for(action.edit, uri)
    change_whole(client, uri, 2, apply_text_edits(text, edits))
    after = await wait_for_diagnostics(client, uri, version=2)
    remaining = [d for d in after if d.data and any(fix["safe"] for fix in d.data["fixes"])]
    assert remaining == []


async def test_no_actions_away_from_findings(client: LanguageClient):
    path, _ = _sample_with(lambda f: bool(f.fixes))
    uri = open_sample(client, path)
    await wait_for_diagnostics(client, uri, version=1)
    result = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=DOC(uri=uri),
            range=types.Range(types.Position(0, 0), types.Position(0, 2)),
            context=types.CodeActionContext(diagnostics=[], only=[types.CodeActionKind.QuickFix]),
        )
    )
    assert not result


async def test_the_fix_follows_the_clients_diagnostics_not_the_cursor(client: LanguageClient):
    # VS Code asks with the cursor's range (anywhere on the line, or an empty range) and the diagnostic the
    # light bulb belongs to in context.diagnostics: the quick fix must not depend on where the cursor is.
    path, finding = _sample_with(lambda f: bool(f.fixes))
    uri = open_sample(client, path)
    diag = await _diagnostic_of(client, uri, finding)
    titles = {f.title for f in finding.fixes}
    for cursor in (types.Position(diag.range.start.line, 0), diag.range.end):
        result = await client.text_document_code_action_async(
            types.CodeActionParams(
                text_document=DOC(uri=uri),
                range=types.Range(cursor, cursor),
                context=types.CodeActionContext(diagnostics=[diag], only=[types.CodeActionKind.QuickFix]),
            )
        )
        got = {a.title for a in result or [] if isinstance(a, types.CodeAction)}
        assert titles <= got, (cursor, got)
    # Neovim 0.12 sends the diagnostics under the cursor: none at the end of the line; the line decides
    end_of_line = types.Position(diag.range.start.line, 200)
    result = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=DOC(uri=uri), range=types.Range(end_of_line, end_of_line),
            context=types.CodeActionContext(diagnostics=[], only=[types.CodeActionKind.QuickFix]),
        )
    )
    assert titles <= {a.title for a in result or [] if isinstance(a, types.CodeAction)}
    # without context diagnostics (a client that sends none), the range decides
    result = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=DOC(uri=uri), range=diag.range,
            context=types.CodeActionContext(diagnostics=[], only=[types.CodeActionKind.QuickFix]),
        )
    )
    assert titles <= {a.title for a in result or [] if isinstance(a, types.CodeAction)}
