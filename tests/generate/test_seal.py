"""The seal of a generation run's round lines (akgen_lsp/generate/loop.py): a resumed run trusts a line only when
this user's key sealed its verdict together with its answer's content hash (docs/security.md)."""

from __future__ import annotations

from pathlib import Path

import pytest

from akgen_lsp import safety
from akgen_lsp.generate.bench import _sealed_last
from akgen_lsp.generate.loop import line_seal, sealed

pytestmark = pytest.mark.hostile

LINE = {"task": "level1/Math/AbsMath", "case": None, "sample": 0, "mode": "static", "round": 0, "kind": "generate",
        "status": "compile_error", "compiled": False, "correct": False, "passed_cases": 0, "cases": 4,
        "answer": "```cpp\nint x\n```"}


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AKGEN_CACHE_DIR", str(tmp_path / "cache"))
    safety._checked.clear()


def signed(**changes: object) -> dict[str, object]:
    line = {**LINE, **changes}
    line["seal"] = line_seal(line)
    return line


def test_a_line_this_user_wrote_is_believed() -> None:
    assert sealed(signed())


def test_a_line_without_a_seal_is_not_believed() -> None:
    assert not sealed(dict(LINE))


@pytest.mark.parametrize("change", [{"correct": True}, {"status": "pass"}, {"passed_cases": 4},
                                    {"answer": "```cpp\n// another kernel\n```"}, {"round": 1}])
def test_an_edited_line_is_not_believed(change: dict[str, object]) -> None:
    assert not sealed({**signed(), **change})


def test_a_line_sealed_with_another_users_key_is_not_believed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AKGEN_CACHE_DIR", str(tmp_path / "their-cache"))
    safety._checked.clear()
    theirs = signed(correct=True, status="pass")
    monkeypatch.setenv("AKGEN_CACHE_DIR", str(tmp_path / "cache"))
    safety._checked.clear()
    assert not sealed(theirs)


def test_the_summary_counts_only_sealed_lines_and_the_last_of_each_round() -> None:
    planted = {**LINE, "status": "pass", "correct": True}
    first, redone = signed(status="compile_error"), signed(status="wrong_answer", compiled=True)
    kept = _sealed_last([planted, first, redone])
    assert kept == [redone]
