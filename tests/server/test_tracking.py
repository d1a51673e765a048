"""Findings follow edits: moved below the edited lines, dropped on them, kept above (`server.tracking`)."""

from __future__ import annotations

from lsprotocol import types
from pygls.workspace.position_codec import PositionCodec

from akgen_lsp.findings import Edit, Finding, Fix, Span
from akgen_lsp.server import tracking

TEXT = "line0\nline1 call();\nline2\n    entry();\nline4\n"
UTF16 = PositionCodec(types.PositionEncodingKind.Utf16)


def _f(line: int, col: int = 1, end: int = 5, fix: bool = False) -> Finding:
    fixes = (Fix("f", (Edit(Span("k", line, col, line, end), "x"),)),) if fix else ()
    return Finding("C", "m", Span("k", line, col, line, end), fixes=fixes)


def _change(l0: int, c0: int, l1: int, c1: int, text: str) -> types.TextDocumentContentChangePartial:
    return types.TextDocumentContentChangePartial(range=types.Range(types.Position(l0, c0), types.Position(l1, c1)),
                                                  text=text)


def _moved(findings: list[Finding], *changes: types.TextDocumentContentChangeEvent, text: str = TEXT,
           codec: PositionCodec = UTF16) -> tuple[list[Finding], str]:
    moves, new = tracking.changes_in_code_points(text, changes, codec)
    return tracking.move_findings(findings, moves), new


def test_lines_typed_above_move_a_finding_down():
    out, new = _moved([_f(4, 5, 12)], _change(0, 0, 0, 0, "// a\n// b\n"))
    assert [(f.span.line, f.span.column) for f in out] == [(6, 5)]
    assert new.splitlines()[5] == "    entry();"


def test_enter_at_the_end_of_a_line_keeps_that_line_s_finding():
    out, _ = _moved([_f(2), _f(4)], _change(1, 13, 1, 13, "\n    "))
    assert [f.span.line for f in out] == [2, 5]


def test_a_finding_on_an_edited_line_is_dropped_and_one_above_stays():
    out, _ = _moved([_f(1), _f(2), _f(4)], _change(1, 6, 1, 10, "x"))
    assert [f.span.line for f in out] == [1, 4]


def test_deleting_whole_lines_moves_the_next_one_up():
    out, _ = _moved([_f(2), _f(3), _f(4, fix=True)], _change(1, 0, 3, 0, ""))
    assert [f.span.line for f in out] == [2]
    assert out[0].fixes and out[0].fixes[0].edits[0].span.line == 2


def test_columns_are_code_points_after_a_wide_character_in_utf16():
    text = "// 中文 😀\n    DataCopy(x);\n"
    # the client inserts "y" after the emoji (utf-16 column 7 = after 2 + 2 units of the emoji... code point 6)
    out, new = _moved([_f(2, 5, 13)], _change(0, 8, 0, 8, "y\n"), text=text)
    assert new.splitlines()[0] == "// 中文 😀y"
    assert [(f.span.line, f.span.column) for f in out] == [(3, 5)]


def test_a_whole_document_change_keeps_the_unchanged_lines_findings():
    new = "inserted\n" + TEXT.replace("line2", "LINE2")
    out, got = _moved([_f(2), _f(3), _f(4)], types.TextDocumentContentChangeWholeDocument(text=new))
    assert got == new
    assert [f.span.line for f in out] == [3, 5]
