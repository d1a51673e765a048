"""Half-typed code: a rule whose facts come from a region with a parse error stays silent there (`Rule.region`)."""

from __future__ import annotations

from pathlib import Path

from akgen_lsp.ascendc.lint import lint_text
from akgen_lsp.ascendc.rules import rule_by_code

SAMPLES = Path(__file__).resolve().parents[2] / "samples"


def _insert_before(text: str, needle: str, line: str) -> str:
    lines = text.splitlines()
    at = next(i for i, x in enumerate(lines) if needle in x)
    return "\n".join([*lines[:at], line, *lines[at:]]) + "\n"


def _codes(text: str) -> list[tuple[str, int]]:
    return [(f.code, f.span.line) for f in lint_text(text, "k.cpp")]


def test_an_unfinished_statement_makes_no_false_queue_finding():
    good = (SAMPLES / "kernels" / "add_custom.cpp").read_text(encoding="utf-8")
    assert _codes(good) == []
    typing = _insert_before(good, "inQueueX.FreeTensor", "        DataCo")  # no ';' yet
    assert _codes(typing) == []  # not "xLocal is never freed": the FreeTensor is still there


def test_a_class_wide_rule_waits_while_any_method_is_half_typed():
    broken = (SAMPLES / "broken" / "akg120_dequeued_not_freed.cpp").read_text(encoding="utf-8")
    assert [c for c, _ in _codes(broken)] == ["AKG120"]
    typing = _insert_before(broken, "void CopyOut", "    AscendC::Data")
    assert "AKG120" not in [c for c, _ in _codes(typing)]
    assert rule_by_code("AKG120").region == "class"  # type: ignore[union-attr]


def test_a_statement_rule_still_reports_a_finished_statement_beside_a_broken_one():
    broken = (SAMPLES / "broken" / "akg101_unknown_api.cpp").read_text(encoding="utf-8")
    expected = _codes(broken)
    assert [c for c, _ in expected] == ["AKG101"]
    line = expected[0][1]
    lines = broken.splitlines()
    typing = "\n".join([*lines[:line], "        AscendC::Ad", *lines[line:]]) + "\n"  # below the finding
    assert _codes(typing) == expected


def test_a_line_left_at_a_qualifier_is_being_typed():
    # "AscendC::" above "outQueueY.EnQue(yLocal);" parses as AscendC::outQueueY.EnQue(yLocal): valid C++, wrong
    # meaning; neither "no member named outQueueY" nor "yLocal is never enqueued" while the line is unfinished
    broken = (SAMPLES / "broken" / "akg120_dequeued_not_freed.cpp").read_text(encoding="utf-8")
    assert [c for c, _ in _codes(broken)] == ["AKG120"]
    typing = _insert_before(broken, "outQueueY.EnQue(yLocal);", "        AscendC::")
    assert _codes(typing) == []  # the class is being edited: its queue facts wait, as for a parse error
    member = _insert_before(broken, "outQueueY.EnQue(yLocal);", "        inQueueX.")
    assert _codes(member) == []
