"""The light cursor analysis behind hover, completion and signature help."""

from __future__ import annotations

from akgen_lsp.ascendc.catalog import load_catalog
from akgen_lsp.server.features import analysis
from akgen_lsp.server.features.completion import overload_snippet, template_params
from akgen_lsp.server.features.signature import active_overload

from .lsp_helpers import fixture_text


def test_word_and_qualifier():
    line = "    AscendC::TPosition::VECIN; que->AllocTensor<half>(); this->inQueueX.DeQue"
    word = analysis.word_at(line, line.index("VECIN") + 2)
    assert word is not None and word.text == "VECIN"
    q = analysis.qualified_before(line, word.start, word.text)
    assert (q.operator, q.qualifier) == ("::", "AscendC::TPosition")
    word = analysis.word_at(line, line.index("AllocTensor"))
    assert analysis.qualified_before(line, word.start).operator == "->"
    word = analysis.word_at(line, len(line))  # the cursor right after the word
    q = analysis.qualified_before(line, word.start, word.text)
    assert (word.text, q.operator, q.qualifier) == ("DeQue", ".", "inQueueX")


def test_comments_and_strings():
    assert analysis.in_comment_or_string('x = 1; // Add')
    assert analysis.in_comment_or_string('printf("Add(')
    assert analysis.in_comment_or_string("/* Add")
    assert not analysis.in_comment_or_string('s = "a\\"b"; Add(')
    assert not analysis.in_comment_or_string("/* c */ Add(")


def test_enclosing_call_counts_top_level_commas_only():
    text = 'DataCopy(dst, src[Min(a, b)], "x, y", GetLen<half, 2>(n), '
    call = analysis.enclosing_call(text, len(text))
    assert call is not None
    assert call.callee.name == "DataCopy" and call.active_argument == 4
    text = "que.AllocTensor<half>("
    call = analysis.enclosing_call(text, len(text))
    assert (call.callee.name, call.callee.operator, call.callee.qualifier) == ("AllocTensor", ".", "que")
    assert analysis.enclosing_call("if (a, ", 7) is None
    assert analysis.enclosing_call("Add(a); b", 9) is None


def test_receiver_classes_from_declarations():
    catalog = load_catalog()
    text = fixture_text("good_add.cpp")
    compute = text.index("Compute(int32_t progress)")
    expected = {"inQueueY": "TQue", "outQueueZ": "TQue", "pipe": "TPipe", "zGm": "GlobalTensor", "yLocal": "LocalTensor"}
    for name, cls in expected.items():
        entry = analysis.receiver_class(text, compute, name, catalog)
        assert entry is not None and entry.short == cls, name
    assert analysis.receiver_class(text, compute, "tileNum", catalog) is None
    assert analysis.receiver_class(text, compute, "nothing", catalog) is None


def test_auto_takes_the_return_type_of_the_method():
    catalog = load_catalog()
    method = catalog.member("AscendC::TQue", "AllocTensor")
    assert method is not None and method.overloads[0].returns.startswith("LocalTensor")
    text = "TQue<TPosition::VECIN, 1> q;\nauto t = q.AllocTensor<half>();\nt."
    entry = analysis.receiver_class(text, len(text), "t", catalog)
    assert entry is not None and entry.short == "LocalTensor"


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
