"""Helpers of completion and signature help: snippets, the active overload, plain documentation."""

from __future__ import annotations

from akgen_lsp.ascendc.catalog import load_catalog
from akgen_lsp.server.features.completion import overload_snippet, template_params
from akgen_lsp.server.features.signature import active_overload

from .lsp_helpers import fixture_text


def test_snippets_keep_only_what_cannot_be_deduced():
    assert template_params("template <TPosition pos, int32_t depth, auto mask = 0>") == [
        ("pos", False),
        ("depth", False),
        ("mask", True),
    ]
    catalog = load_catalog()
    alloc = catalog.member("AscendC::TQue", "AllocTensor")
    no_args = next(ov for ov in alloc.overloads if not ov.params)
    assert overload_snippet("AllocTensor", no_args) == "AllocTensor<${1:T}>()$0"
    add = catalog.get("AscendC::Add")
    count_form = min(add.overloads, key=lambda ov: len(ov.params))
    assert overload_snippet("Add", count_form).startswith("Add(${1:dst}, ${2:src0}")


def test_active_overload_follows_the_argument_count():
    add = load_catalog().get("AscendC::Add")
    overloads = list(add.overloads)
    four = active_overload(overloads, 3)
    assert overloads[four].accepts(4)
    six = active_overload(overloads, 5)
    assert overloads[six].accepts(6)


def test_signature_follows_the_classes_of_the_typed_arguments():
    from akgen_lsp.config import defaults
    from akgen_lsp.server.features.signature import signature_help

    catalog = load_catalog()
    text = fixture_text("good_add.cpp")

    def active_label(needle: str) -> str:
        index = text.index(needle) + len(needle)
        line = text.count("\n", 0, index)
        help_ = signature_help(text, line, index - (text.rfind("\n", 0, index) + 1), defaults(), catalog)
        assert help_ is not None
        return help_.signatures[help_.active_signature].label

    # a queue as the first argument: not the TBuf overload, whatever the catalog's order
    init = catalog.member("AscendC::TPipe", "InitBuffer")
    if init is not None and any("TBuf" in ov.signature for ov in init.overloads):
        assert "TBuf" not in active_label("pipe.InitBuffer(inQueueX, ")
    # GM <- UB: the overload whose destination is a GlobalTensor
    copy = catalog.get("AscendC::DataCopy")
    if copy is not None and any(ov.signature.count("GlobalTensor") for ov in copy.overloads):
        label = active_label("DataCopy(zGm[progress * this->tileLength], zLocal, ")
        assert label.index("GlobalTensor") < label.index("LocalTensor")


def test_plain_documentation_for_clients_without_markdown():
    from lsprotocol import types

    from akgen_lsp.config import defaults
    from akgen_lsp.server.features.completion import complete, plain_documentation

    text = "#include \"kernel_operator.h\"\nvoid f() {\n    AscendC::\n}\n"
    items = complete(text, 2, len("    AscendC::"), defaults(), load_catalog())
    item = next(i for i in items if i.label == "Add")
    plain = plain_documentation(item)
    assert isinstance(item.documentation, types.MarkupContent)  # the cached item is left as it was
    assert plain.documentation == item.documentation.value and plain.label == item.label
