"""The server keeps serving: bad settings, a request that fails inside a handler, malformed requests."""

from __future__ import annotations

import asyncio
import json

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient

from akgen_lsp.ascendc.lint import lint_text
from akgen_lsp.config import load_settings

from .lsp_helpers import (
    CLIENTS,
    CONFIG,
    FIXTURES,
    fixture_text,
    initialize_params,
    open_document,
    position_of,
    uri_of,
    wait_for_diagnostics,
    wait_for_message,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")

DOC = types.TextDocumentIdentifier


@pytest_lsp.fixture(config=CONFIG, params=CLIENTS, scope="module")
async def bad_options_client(request: pytest.FixtureRequest, lsp_client: LanguageClient):
    result = await lsp_client.initialize_session(
        initialize_params(request.param, {"lint": {"debounce_ms": "soon"}, "arhc": "Ascend910B2"})
    )
    lsp_client.initialize_result = result  # type: ignore[attr-defined]
    yield
    await lsp_client.shutdown_session()


async def test_invalid_initialization_options_are_reported_and_the_server_works(bad_options_client: LanguageClient):
    client = bad_options_client
    message = await wait_for_message(client)
    assert message.type == types.MessageType.Warning
    assert "debounce_ms" in message.message or "arhc" in message.message
    assert "akgen" in message.message
    # still linting, with the defaults
    uri = open_document(client, "broken_add.cpp")
    expected = [f.code for f in lint_text(fixture_text("broken_add.cpp"), "broken_add.cpp")]
    assert expected, "the fixture should have findings"
    assert [d.code for d in await wait_for_diagnostics(client, uri, version=1)] == expected


async def test_capabilities_are_advertised(bad_options_client: LanguageClient):
    caps = bad_options_client.initialize_result.capabilities  # type: ignore[attr-defined]
    assert caps.inline_completion_provider is not None
    assert caps.hover_provider
    assert caps.code_action_provider.resolve_provider is True
    assert types.CodeActionKind.QuickFix in caps.code_action_provider.code_action_kinds
    assert "." in caps.completion_provider.trigger_characters
    assert "(" in caps.signature_help_provider.trigger_characters
    sync = caps.text_document_sync
    assert sync.change == types.TextDocumentSyncKind.Incremental


async def test_a_failing_handler_answers_empty_and_the_server_goes_on(client: LanguageClient):
    missing = uri_of("does_not_exist.cpp")
    # the document is neither open nor on disk: reading it raises inside the handler
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=DOC(uri=missing), position=types.Position(0, 0))
    )
    assert hover is None
    actions = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=DOC(uri=missing),
            range=types.Range(types.Position(0, 0), types.Position(0, 0)),
            context=types.CodeActionContext(diagnostics=[]),
        )
    )
    assert not actions
    uri = open_document(client, "broken_add.cpp")
    assert await wait_for_diagnostics(client, uri, version=1)


async def test_malformed_and_unknown_requests_get_errors_and_the_server_goes_on(client: LanguageClient):
    with pytest.raises(JsonRpcException):
        await _raw_request(client, types.TEXT_DOCUMENT_HOVER, {"textDocument": 42})
    with pytest.raises(JsonRpcException):
        await _raw_request(client, "akgen/noSuchMethod", {})
    text = fixture_text("good_add.cpp")
    uri = open_document(client, "good_add.cpp")
    await wait_for_diagnostics(client, uri, version=1)
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=DOC(uri=uri), position=position_of(text, "DataCopy(xLocal", 2))
    )
    assert hover is not None


async def _raw_request(client: LanguageClient, method: str, params: object, timeout: float = 10.0) -> object:
    """Send a request exactly as given (the client's own serializer refuses malformed params)."""
    msg_id = f"raw-{method}"
    future: asyncio.Future[object] = asyncio.get_running_loop().create_future()
    client.protocol._request_futures[msg_id] = future
    body = json.dumps({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": params}).encode()
    client.protocol.writer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    return await asyncio.wait_for(future, timeout)


async def test_inline_completion_passes_the_services_answer_through(client: LanguageClient):
    """The server answers what the completion service answers for the same text and cursor (one item whose range
    stays on the cursor's line), or an empty list when it has nothing."""
    service_module = pytest.importorskip("akgen_lsp.model.service", reason="the model layer is not installed")
    text = fixture_text("good_add.cpp").replace("inQueueX.FreeTensor(xLocal);", "inQueueX.Fr", 1)
    cursor = position_of(text, "inQueueX.Fr", len("inQueueX.Fr"))
    service = service_module.CompletionService(load_settings(FIXTURES, env={}))
    try:
        expected = await service.complete(text, str(FIXTURES / "good_add.cpp"), cursor.line, cursor.character)
    finally:
        await service.close()
    uri = open_document(client, "good_add.cpp", text=text)
    await wait_for_diagnostics(client, uri, version=1)
    result = await client.text_document_inline_completion_async(
        types.InlineCompletionParams(
            text_document=DOC(uri=uri),
            position=cursor,
            context=types.InlineCompletionContext(trigger_kind=types.InlineCompletionTriggerKind.Invoked),
        )
    )
    assert isinstance(result, types.InlineCompletionList)
    if expected is None or not expected.text:
        assert list(result.items) == []
        return
    (item,) = result.items
    # a call from the catalog is a snippet (its parameters as tab stops); other answers are plain text
    if expected.snippet:
        assert item.insert_text == types.StringValue(value=expected.snippet)
        assert "${1:" in expected.snippet
    else:
        assert item.insert_text == expected.text
    assert item.range is not None and item.range.start.line == item.range.end.line == expected.start_line
    assert item.range.start.character == expected.start_character  # ASCII text: the same in every encoding
