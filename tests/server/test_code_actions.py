"""Code actions end to end: a quick fix applied to the document makes its diagnostic go away."""

from __future__ import annotations

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from .lsp_helpers import (
    apply_text_edits,
    change_whole,
    edits_for,
    fixture_text,
    open_document,
    wait_for_diagnostics,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")

DOC = types.TextDocumentIdentifier
NO_EXTERN_C = fixture_text("good_add.cpp").replace('extern "C" __global__', "__global__")


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


async def test_safe_single_fix_is_preferred_and_removes_the_diagnostic(client: LanguageClient):
    uri = open_document(client, "good_add.cpp", text=NO_EXTERN_C)
    diagnostics = await wait_for_diagnostics(client, uri, version=1)
    diag = next(d for d in diagnostics if d.code == "AKG110")
    actions = await _actions(client, uri, diag, only=[types.CodeActionKind.QuickFix])
    fix = next(a for a in actions if a.diagnostics and a.diagnostics[0].code == "AKG110")
    assert fix.kind == types.CodeActionKind.QuickFix
    assert fix.is_preferred is True
    assert fix.edit is not None
    edits, version = edits_for(fix.edit, uri)
    if _document_changes(client):
        assert version == 1
    fixed = apply_text_edits(NO_EXTERN_C, edits)
    assert 'extern "C"' in fixed
    change_whole(client, uri, 2, fixed)
    after = await wait_for_diagnostics(client, uri, version=2)
    assert not [d for d in after if d.code == "AKG110"]


async def test_unsafe_fix_is_offered_but_not_preferred(client: LanguageClient):
    uri = open_document(client, "broken_add.cpp")
    diagnostics = await wait_for_diagnostics(client, uri, version=1)
    diag = next(d for d in diagnostics if d.code == "AKG120")
    actions = await _actions(client, uri, diag)
    fix = next(a for a in actions if a.kind == types.CodeActionKind.QuickFix)
    assert not fix.is_preferred
    edits, _ = edits_for(fix.edit, uri)
    fixed = apply_text_edits(fixture_text("broken_add.cpp"), edits)
    change_whole(client, uri, 2, fixed)
    after = await wait_for_diagnostics(client, uri, version=2)
    assert not [d for d in after if d.code == "AKG120"]


async def test_fix_all_is_resolved_lazily_when_the_client_can(client: LanguageClient):
    uri = open_document(client, "good_add.cpp", text=NO_EXTERN_C)
    diagnostics = await wait_for_diagnostics(client, uri, version=1)
    diag = next(d for d in diagnostics if d.code == "AKG110")
    actions = await _actions(client, uri, diag, only=[types.CodeActionKind.SourceFixAll])
    assert [a.kind for a in actions] == ["source.fixAll.akgen"]
    action = actions[0]
    resolves = client.capabilities.text_document.code_action.resolve_support
    if resolves and "edit" in resolves.properties:
        assert action.edit is None
        action = await client.code_action_resolve_async(action)
    assert action.edit is not None
    edits, _ = edits_for(action.edit, uri)
    change_whole(client, uri, 2, apply_text_edits(NO_EXTERN_C, edits))
    after = await wait_for_diagnostics(client, uri, version=2)
    assert not [d for d in after if d.code == "AKG110"]


async def test_no_actions_away_from_findings(client: LanguageClient):
    uri = open_document(client, "broken_add.cpp")
    await wait_for_diagnostics(client, uri, version=1)
    result = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=DOC(uri=uri),
            range=types.Range(types.Position(0, 0), types.Position(0, 2)),
            context=types.CodeActionContext(diagnostics=[], only=[types.CodeActionKind.QuickFix]),
        )
    )
    assert not result
