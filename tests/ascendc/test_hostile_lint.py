"""Hostile text for the static checks (docs/security.md, "Resources"): the patterns that were super-linear on 48 KB
(an unclosed string of escaped quotes, `<<<` without `>>>`, deep brackets, long `::` chains) keep their meaning on
ordinary code, and a file nested deeper than any kernel is skipped with one finding that says so. The times are in
benchmarks/lint_pathological.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from akgen_lsp.ascendc.lint import MAX_NESTING, _bracket_depth, lint_text
from akgen_lsp.ascendc.syntax.codeview import code_view
from akgen_lsp.ascendc.syntax.masking import _LAUNCH_RE

pytestmark = pytest.mark.hostile

SAMPLE = Path(__file__).resolve().parents[2] / "samples" / "broken" / "akg101_unknown_api.cpp"


def test_an_unclosed_string_is_blanked_to_its_line_end_only() -> None:
    text = 'x = "abc\\"def\ny = 1; // c\nz = "ok";'
    view = code_view(text)
    assert len(view) == len(text)
    assert view.splitlines()[0].strip() == "x ="
    assert "y = 1;" in view and "c" not in view.splitlines()[1] and "ok" not in view and view.endswith(";")


def test_an_unclosed_comment_runs_to_the_end() -> None:
    view = code_view("a; /* open\nb;")
    assert view.startswith("a;") and "b" not in view


def test_digit_separators_do_not_blank_the_rest_of_the_line() -> None:
    assert "y" in code_view("int x = 1'000; int y;")


@pytest.mark.parametrize("text", ["k<<<8, nullptr, stream>>>(x)", "k<<<Foo<2>::n, 0, s>>>(x)",
                                  "k<<<blockDim>>>(a, b)"])
def test_launch_configurations_are_still_found(text: str) -> None:
    m = _LAUNCH_RE.search(text)
    assert m is not None and m.group().endswith(">>>")


def test_a_run_of_angle_brackets_has_no_launch() -> None:
    assert _LAUNCH_RE.search("<" * 5000) is None


def test_bracket_depth() -> None:
    assert _bracket_depth("f(a[1], {2}) { g((x)); }") == 3
    assert _bracket_depth(")))(((") == 3


def test_a_file_nested_deeper_than_any_kernel_is_skipped_with_one_finding() -> None:
    text = SAMPLE.read_text("utf-8") + "\n" + "(" * 48_000 + "\n"
    findings = lint_text(text, "k.cpp")
    assert [f.code for f in findings] == ["AKG000"]
    assert f"more than {MAX_NESTING}" in findings[0].message


@pytest.mark.parametrize("unit", ["::", "&", "<", '"\\'])
def test_48kb_of_hostile_text_still_reports_the_real_finding(unit: str) -> None:
    text = SAMPLE.read_text("utf-8").replace("AscendC::Softmax(", unit * (48_000 // len(unit)) + "\nAscendC::Softmax(",
                                              1)
    codes = {f.code for f in lint_text(text, "k.cpp")}
    assert "AKG000" not in codes
