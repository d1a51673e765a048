"""Certain fixes of a build error, verified on the simulator before the editor offers them, and the hover of a build
error when no model is configured (a server without a model, driven by pytest-lsp as VS Code)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from akgen_lsp.repair.backend import HOW_TO_CONFIGURE

from .lsp_helpers import CONFIG, initialize_params
from .test_repair import ORIGINAL, _actions, _apply, _errors, _open, _save, _until, workspace

__all__ = ["workspace"]  # the module's copy of the repair workspace (a fixture)

pytestmark = pytest.mark.asyncio(loop_scope="module")

UNTYPED = ORIGINAL.replace("inQueueX.AllocTensor<half>()", "inQueueX.AllocTensor()")


@pytest_lsp.fixture(config=CONFIG, scope="module")
async def client(lsp_client: LanguageClient, workspace: Path):
    await lsp_client.initialize_session(initialize_params("visual-studio-code", {"lint": {"debounce_ms": 20}},
                                                          root=workspace))
    yield
    await lsp_client.shutdown_session()


async def test_a_build_error_gets_its_verified_fix_and_no_model_action(client: LanguageClient,
                                                                       workspace: Path) -> None:
    uri = _open(client, workspace / "abs.cpp", UNTYPED)
    _save(client, uri)
    first = await _until(lambda: _errors(client, uri, "akgen-build"))
    assert first

    async def fix_offered() -> list[types.CodeAction]:
        found = []
        for d in _errors(client, uri, "akgen-build"):
            found += [a for a in await _actions(client, uri, d) if "verified" in a.title]
        return found

    fixes: list[types.CodeAction] = []
    for _ in range(600):  # the fixes are published once they verified (a check of each fixed text)
        fixes = await fix_offered()
        if fixes:
            break
        await asyncio.sleep(0.1)
    (fix,) = [a for a in fixes if a.title.startswith("Write AllocTensor<half>()")]
    assert "— verified: compiles, 1/1 cases pass" in fix.title
    assert fix.is_preferred  # one certain fix, the only one that verified
    assert fix.edit is not None and _apply(UNTYPED, fix.edit) == ORIGINAL
    d = _errors(client, uri, "akgen-build")[0]
    assert not [a for a in await _actions(client, uri, d) if a.title.startswith("Fix with")]  # no model configured
    hover = await client.text_document_hover_async(types.HoverParams(
        text_document=types.TextDocumentIdentifier(uri=uri), position=d.range.start))
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    assert HOW_TO_CONFIGURE in hover.contents.value
