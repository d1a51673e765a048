"""Hover, completion and signature help end to end, on a correct kernel."""

from __future__ import annotations

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from akgen_lsp.ascendc.catalog import load_catalog
from akgen_lsp.server.features.docs import entry_markdown

from .lsp_helpers import fixture_text, open_document, position_of, wait_for_diagnostics

pytestmark = pytest.mark.asyncio(loop_scope="module")

DOC = types.TextDocumentIdentifier


async def _open_good(client: LanguageClient) -> str:
    uri = open_document(client, "good_add.cpp")
    await wait_for_diagnostics(client, uri, version=1)
    return uri


async def test_hover_on_a_vector_api_shows_its_signature_and_dtypes(client: LanguageClient):
    entry = load_catalog().get("AscendC::Add")
    assert entry is not None and entry.overloads
    uri = await _open_good(client)
    text = fixture_text("good_add.cpp")
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=DOC(uri=uri), position=position_of(text, "Add(zLocal", 1))
    )
    assert hover is not None
    value = hover.contents.value
    assert "```cpp" in value
    assert entry.overloads[-1].signature in value
    for dtype in entry.dtypes_for("2201"):  # Ascend910B2, the default arch
        assert f"`{dtype}`" in value
    assert hover.range is not None and hover.range.end.character - hover.range.start.character == len("Add")


async def test_hover_on_a_method_resolves_the_receiver_class(client: LanguageClient):
    method = load_catalog().member("AscendC::TQue", "AllocTensor")
    assert method is not None
    uri = await _open_good(client)
    text = fixture_text("good_add.cpp")
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=DOC(uri=uri), position=position_of(text, "AllocTensor<half>();", 3))
    )
    assert hover is not None
    assert method.overloads[0].signature in hover.contents.value


async def test_hover_on_a_rule_code_in_a_comment_shows_the_rule(client: LanguageClient):
    text = fixture_text("good_add.cpp").replace("#include", "// see AKG120\n#include", 1)
    uri = open_document(client, "good_add.cpp", text=text)
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=DOC(uri=uri), position=position_of(text, "AKG120", 2))
    )
    assert hover is not None
    assert hover.contents.value.startswith("**AKG120**")
    assert "What it does" in hover.contents.value


async def test_completion_after_the_namespace(client: LanguageClient):
    text = fixture_text("good_add.cpp").replace("        inQueueX.FreeTensor(xLocal);", "        AscendC::")
    uri = open_document(client, "good_add.cpp", text=text)
    result = await client.text_document_completion_async(
        types.CompletionParams(text_document=DOC(uri=uri), position=position_of(text, "AscendC::\n", 9))
    )
    assert result is not None
    labels = {item.label for item in result.items}
    assert {"Add", "DataCopy", "TQue"} <= labels
    add = next(i for i in result.items if i.label == "Add")
    snippets = client.capabilities.text_document.completion.completion_item.snippet_support
    if snippets:
        assert add.insert_text_format == types.InsertTextFormat.Snippet
        assert add.insert_text.startswith("Add(${1:")
    else:
        assert add.insert_text == "Add"
    if add.documentation is None:  # the client resolves documentation lazily (VS Code)
        assert add.data is not None
        add = await client.completion_item_resolve_async(add)
    assert add.documentation is not None and add.documentation.kind == types.MarkupKind.Markdown
    assert add.documentation.value == entry_markdown(load_catalog().get("AscendC::Add"), "Ascend910B2", "8.5", False)


async def test_completion_after_a_queue_lists_its_methods(client: LanguageClient):
    text = fixture_text("good_add.cpp").replace("        inQueueX.FreeTensor(xLocal);", "        inQueueX.")
    uri = open_document(client, "good_add.cpp", text=text)
    result = await client.text_document_completion_async(
        types.CompletionParams(
            text_document=DOC(uri=uri),
            position=position_of(text, "inQueueX.\n", 9),
            context=types.CompletionContext(
                trigger_kind=types.CompletionTriggerKind.TriggerCharacter, trigger_character="."
            ),
        )
    )
    assert result is not None
    labels = {item.label for item in result.items}
    assert {"AllocTensor", "EnQue", "DeQue", "FreeTensor"} <= labels
    assert "DataCopy" not in labels  # a free function, not a member
    assert all(i.kind == types.CompletionItemKind.Method for i in result.items if i.label in {"EnQue", "DeQue"})


async def test_no_completion_inside_a_comment(client: LanguageClient):
    text = fixture_text("good_add.cpp")
    uri = await _open_good(client)
    result = await client.text_document_completion_async(
        types.CompletionParams(text_document=DOC(uri=uri), position=position_of(text, "add of two", 3))
    )
    assert result is None or list(result.items) == []


async def test_signature_help_picks_the_overload_by_argument_count(client: LanguageClient):
    entry = load_catalog().get("AscendC::Add")
    assert entry is not None
    uri = await _open_good(client)
    text = fixture_text("good_add.cpp")
    needle = "Add(zLocal, xLocal, yLocal, "
    help_ = await client.text_document_signature_help_async(
        types.SignatureHelpParams(text_document=DOC(uri=uri), position=position_of(text, needle, len(needle)))
    )
    assert help_ is not None
    assert len(help_.signatures) == len(entry.overloads)
    active = help_.signatures[help_.active_signature]
    assert help_.active_parameter == 3
    # four arguments typed: an overload that takes exactly four
    ov = entry.overloads[help_.active_signature]
    assert ov.min_args <= 4 <= (ov.max_args or 99)
    start, end = active.parameters[3].label
    assert active.label[start:end].endswith(ov.params[3].name)


async def test_signature_help_outside_a_call_is_empty(client: LanguageClient):
    uri = await _open_good(client)
    text = fixture_text("good_add.cpp")
    help_ = await client.text_document_signature_help_async(
        types.SignatureHelpParams(text_document=DOC(uri=uri), position=position_of(text, "private:", 0))
    )
    assert help_ is None
