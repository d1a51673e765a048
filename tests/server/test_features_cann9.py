"""Hover, completion and signature help for the CANN 9.x families (Reg/MicroAPI, SIMT, the C API asc_*), whose
entries are generated from the asc-devkit headers' declarations (catalog/names/asc_devkit_signatures.tsv)."""

from __future__ import annotations

import pytest
from lsprotocol import types
from pytest_lsp import LanguageClient

from akgen_lsp.ascendc.catalog import load_catalog

from .lsp_helpers import open_document, position_of

pytestmark = pytest.mark.asyncio(loop_scope="module")

DOC = types.TextDocumentIdentifier

KERNEL = """#include "kernel_operator.h"
using namespace AscendC;

__simd_vf__ inline void AddVF(__ubuf__ float* x, __ubuf__ float* z, uint16_t repeat)
{
    MicroAPI::RegTensor<float> a;
    MicroAPI::MaskReg mask = MicroAPI::CreateMask<float>();
    MicroAPI::Add(a, a, a, mask);
    MicroAPI::
}

__aicore__ inline void Copy(__ubuf__ float* dst, __gm__ float* src)
{
    asc_copy_gm2ub(dst, src, 0);
}
"""


def _generated(name: str):
    entry = load_catalog().get(name)
    assert entry is not None and entry.extra.get("generated") and entry.overloads
    return entry


async def test_hover_on_a_register_api_shows_the_headers_signature(client: LanguageClient):
    entry = _generated("AscendC::MicroAPI::Add")
    uri = open_document(client, "cann9_reg.cpp", text=KERNEL)
    hover = await client.text_document_hover_async(
        types.HoverParams(text_document=DOC(uri=uri), position=position_of(KERNEL, "Add(a, a", 1))
    )
    assert hover is not None
    value = hover.contents.value
    assert "```cpp" in value and entry.overloads[0].signature in value
    assert "kernel_reg_compute_vec_binary_intf.h" in value


async def test_completion_after_microapi_lists_the_register_api_with_snippets(client: LanguageClient):
    uri = open_document(client, "cann9_reg.cpp", text=KERNEL)
    result = await client.text_document_completion_async(
        types.CompletionParams(text_document=DOC(uri=uri), position=position_of(KERNEL, "MicroAPI::\n", 10))
    )
    assert result is not None
    items = {item.label: item for item in result.items}
    assert {"Add", "Mul", "Exp", "Duplicate"} <= set(items)
    add = items["Add"]
    assert add.kind == types.CompletionItemKind.Function and "MaskReg& mask" in (add.detail or "")
    snippets = client.capabilities.text_document.completion.completion_item.snippet_support
    if snippets:
        assert add.insert_text.startswith("Add(${1:")


async def test_completion_at_statement_start_offers_the_c_api(client: LanguageClient):
    text = KERNEL.replace("    asc_copy_gm2ub(dst, src, 0);\n", "    asc_copy_\n")
    uri = open_document(client, "cann9_c_api.cpp", text=text)
    result = await client.text_document_completion_async(
        types.CompletionParams(text_document=DOC(uri=uri), position=position_of(text, "asc_copy_\n", 9))
    )
    assert result is not None
    labels = {item.label for item in result.items}
    assert {"asc_copy_gm2ub", "asc_copy_ub2gm"} <= labels


async def test_signature_help_on_a_c_api_call_lists_its_overloads(client: LanguageClient):
    entry = _generated("asc_copy_gm2ub")
    uri = open_document(client, "cann9_sig.cpp", text=KERNEL)
    needle = "asc_copy_gm2ub(dst, src, "
    help_ = await client.text_document_signature_help_async(
        types.SignatureHelpParams(text_document=DOC(uri=uri), position=position_of(KERNEL, needle, len(needle)))
    )
    assert help_ is not None
    assert {s.label for s in help_.signatures} == {o.label() for o in entry.overloads}
    assert help_.active_parameter == 2
    active = entry.overloads[help_.active_signature]
    assert len(active.params) >= 3
