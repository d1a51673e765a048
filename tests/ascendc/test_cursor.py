"""The syntax layer's reader of half-typed text at a position (`syntax.cursor`): words, qualifiers, receivers' classes
(from the parse where it holds the text, else the text scan), enclosing calls."""

from __future__ import annotations

from pathlib import Path

from akgen_lsp.ascendc.catalog import load_catalog
from akgen_lsp.ascendc.syntax import cursor, parse

FIXTURE = Path(__file__).resolve().parents[1] / "server" / "fixtures" / "good_add.cpp"


def fixture_text(name: str) -> str:
    return (FIXTURE.parent / name).read_text(encoding="utf-8")


def test_word_and_qualifier():
    line = "    AscendC::TPosition::VECIN; que->AllocTensor<half>(); this->inQueueX.DeQue"
    word = cursor.word_at(line, line.index("VECIN") + 2)
    assert word is not None and word.text == "VECIN"
    q = cursor.qualified_before(line, word.start, word.text)
    assert (q.operator, q.qualifier) == ("::", "AscendC::TPosition")
    word = cursor.word_at(line, line.index("AllocTensor"))
    assert cursor.qualified_before(line, word.start).operator == "->"
    word = cursor.word_at(line, len(line))  # the cursor right after the word
    q = cursor.qualified_before(line, word.start, word.text)
    assert (word.text, q.operator, q.qualifier) == ("DeQue", ".", "inQueueX")


def test_comments_and_strings():
    assert cursor.in_comment_or_string('x = 1; // Add')
    assert cursor.in_comment_or_string('printf("Add(')
    assert cursor.in_comment_or_string("/* Add")
    assert not cursor.in_comment_or_string('s = "a\\"b"; Add(')
    assert not cursor.in_comment_or_string("/* c */ Add(")


def test_enclosing_call_counts_top_level_commas_only():
    text = 'DataCopy(dst, src[Min(a, b)], "x, y", GetLen<half, 2>(n), '
    call = cursor.enclosing_call(text, len(text))
    assert call is not None
    assert call.callee.name == "DataCopy" and call.active_argument == 4
    text = "que.AllocTensor<half>("
    call = cursor.enclosing_call(text, len(text))
    assert (call.callee.name, call.callee.operator, call.callee.qualifier) == ("AllocTensor", ".", "que")
    assert cursor.enclosing_call("if (a, ", 7) is None
    assert cursor.enclosing_call("Add(a); b", 9) is None


def test_receiver_classes_from_declarations():
    catalog = load_catalog()
    text = fixture_text("good_add.cpp")
    compute = text.index("Compute(int32_t progress)")
    expected = {"inQueueY": "TQue", "outQueueZ": "TQue", "pipe": "TPipe", "zGm": "GlobalTensor", "yLocal": "LocalTensor"}
    for name, cls in expected.items():
        entry = cursor.receiver_class(text, compute, name, catalog)
        assert entry is not None and entry.short == cls, name
    assert cursor.receiver_class(text, compute, "tileNum", catalog) is None
    assert cursor.receiver_class(text, compute, "nothing", catalog) is None


def test_auto_takes_the_return_type_of_the_method():
    catalog = load_catalog()
    method = catalog.member("AscendC::TQue", "AllocTensor")
    assert method is not None and method.overloads[0].returns.startswith("LocalTensor")
    text = "TQue<TPosition::VECIN, 1> q;\nauto t = q.AllocTensor<half>();\nt."
    entry = cursor.receiver_class(text, len(text), "t", catalog)
    assert entry is not None and entry.short == "LocalTensor"



def test_the_parse_knows_which_declaration_is_visible():
    # the member queue q is declared at the end of the class; an earlier method has a local TBuf named q. The text
    # scan takes the nearest declaration before the cursor (the local TBuf); the parse knows the member is meant.
    text = (
        '#include "kernel_operator.h"\nusing namespace AscendC;\nclass K {\npublic:\n'
        "    __aicore__ inline void A() { TBuf<TPosition::VECCALC> q; q.Get<float>(); }\n"
        "    __aicore__ inline void B() { auto t = q.AllocTensor<float>(); q.FreeTensor(t); }\n"
        "private:\n    TQue<TPosition::VECIN, 1> q;\n};\n"
    )
    catalog = load_catalog()
    at = text.index("q.FreeTensor")
    assert cursor.receiver_class(text, at, "q", catalog).short == "TBuf"  # the scan alone
    parsed = parse(text, "k.cpp")
    assert cursor.receiver_class(text, at, "q", catalog, parsed).short == "TQue"
    # typing after the receiver ("q." just typed): the parse of the text before the edit still answers
    typing = text[: at + 2] + "Fr" + text[at + 2 :]
    assert cursor.receiver_class(typing, at + 4, "q", catalog, parsed).short == "TQue"
    # a parse of another text before the receiver is not used
    other = parse(text.replace("class K", "class KK"), "k.cpp")
    assert cursor.receiver_class(text, at, "q", catalog, other).short == "TBuf"
