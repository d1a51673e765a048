"""Span <-> LSP positions through the negotiated codec, and fix selection."""

from __future__ import annotations

import pytest
from lsprotocol import types
from pygls.workspace.position_codec import PositionCodec

from akgen_lsp.findings import Edit, Finding, Fix, Severity, Span
from akgen_lsp.server.convert import Lines, non_overlapping, spans_overlap, to_diagnostic

TEXT = "int a;\n/* 输入 😀 */ Add(x);\nlast"


@pytest.mark.parametrize(
    ("encoding", "expected"),
    [
        (types.PositionEncodingKind.Utf8, len("/* 输入 😀 */ ".encode())),
        (types.PositionEncodingKind.Utf16, len("/* 输入 😀 */ ".encode("utf-16-le")) // 2),
        (types.PositionEncodingKind.Utf32, len("/* 输入 😀 */ ")),
    ],
)
def test_columns_are_converted_with_the_codec(encoding: types.PositionEncodingKind, expected: int):
    lines = Lines(TEXT, PositionCodec(encoding))
    column = TEXT.splitlines()[1].index("Add") + 1
    rng = lines.range(Span("f", 2, column, 2, column + 3))
    assert rng.start == types.Position(1, expected)
    assert rng.end == types.Position(1, expected + 3)
    assert lines.to_span("f", rng) == Span("f", 2, column, 2, column + 3)


def test_positions_past_the_end_are_clamped():
    lines = Lines(TEXT, PositionCodec(types.PositionEncodingKind.Utf16))
    assert lines.position(1, 99) == types.Position(0, len("int a;"))
    assert lines.position(40, 1) == types.Position(2, len("last"))
    assert Lines("", PositionCodec()).position(1, 1) == types.Position(0, 0)


def test_diagnostic_carries_code_source_and_fixes():
    fix = Fix("Insert extern \"C\"", (Edit(Span("f", 1, 1, 1, 1), 'extern "C" '),), safe=True)
    finding = Finding("AKG110", "m", Span("f", 1, 1, 1, 4), Severity.WARNING, error_class="syntax", fixes=(fix,))
    diag = to_diagnostic(finding, Lines(TEXT, PositionCodec()))
    assert diag.code == "AKG110" and diag.source == "akgen-lint"
    assert diag.severity == types.DiagnosticSeverity.Warning
    assert diag.data["error_class"] == "syntax"
    assert diag.data["fixes"][0]["safe"] is True and diag.data["fixes"][0]["edits"][0]["new_text"] == 'extern "C" '


def test_overlapping_fixes_keep_the_first():
    a = Fix("a", (Edit(Span("f", 1, 1, 1, 5), "x"),))
    b = Fix("b", (Edit(Span("f", 1, 3, 1, 8), "y"),))
    c = Fix("c", (Edit(Span("f", 2, 1, 2, 1), "z"),))
    d = Fix("d", (Edit(Span("f", 1, 5, 1, 5), "w"),))  # an insertion where `a` ends does not conflict
    assert [e.new_text for e in non_overlapping([a, b, c, d])] == ["x", "z", "w"]
    assert spans_overlap(Span("f", 1, 1, 1, 5), Span("f", 1, 3, 1, 3))
    assert not spans_overlap(Span("f", 1, 1, 1, 5), Span("f", 2, 1, 2, 2))


def test_a_findings_id_is_stable_and_read_back_from_its_diagnostic() -> None:
    from dataclasses import replace

    from akgen_lsp.findings import Edit, Finding, Fix, Span
    from akgen_lsp.server.convert import Lines, finding_id, to_diagnostic

    f = Finding("CXX", "bad", Span("/k.cpp", 3, 2, 3, 5), source="akgen-build")
    with_fix = replace(f, fixes=(Fix("fix", (Edit(f.span, "x"),)),))
    assert finding_id(f) == finding_id(with_fix)  # a verified fix added later keeps the id the client has
    assert finding_id(replace(f, span=Span("/k.cpp", 4, 2, 4, 5))) != finding_id(f)
    assert to_diagnostic(f, Lines("a\nb\nccccc\n", PositionCodec())).data["id"] == finding_id(f)
