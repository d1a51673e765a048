"""The MCP lint's parses: an unchanged file is linted on its last parse (models kept), an edited one incrementally,
and the parse an edit replaces lets go of its models."""

from __future__ import annotations

from pathlib import Path

from akgen_lsp.ascendc.lint import lint_text
from akgen_lsp.config import defaults
from akgen_lsp.mcp.knowledge import Parses, lint

BROKEN = (Path(__file__).resolve().parents[2] / "samples" / "broken" / "akg120_dequeued_not_freed.cpp").read_text(
    encoding="utf-8"
)


def test_parses_reuse_an_unchanged_file_and_drop_a_replaced_parse() -> None:
    parses = Parses()
    settings = defaults()
    first = lint(BROKEN, "k.cpp", settings, parses)
    assert first["findings"]
    kept = parses.parse(BROKEN, "k.cpp")
    assert kept.memo.get("declarations") is not None  # the lint's models are still there
    assert lint(BROKEN, "k.cpp", settings, parses) == first
    assert parses.parse(BROKEN, "k.cpp") is kept
    edited = BROKEN.replace("FreeTensor", "FreeTensr", 1)
    after = lint(edited, "k.cpp", settings, parses)
    assert not kept.memo  # replaced: its models are gone
    assert [f["code"] for f in after["findings"]] == [f.code for f in lint_text(edited, "k.cpp")]
