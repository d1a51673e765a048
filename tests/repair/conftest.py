"""Fixtures of the repair tests: a private copy of a small workspace (one kernel with its task) to break and mend."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

WORKSPACE = Path(__file__).with_name("fixtures") / "ws"


@pytest.fixture
def ws(tmp_path: Path) -> Path:
    """A copy of fixtures/ws (abs.cpp + akgen.toml) the test may break."""
    dst = tmp_path / "ws"
    shutil.copytree(WORKSPACE, dst)
    return dst


def original() -> str:
    return (WORKSPACE / "abs.cpp").read_text(encoding="utf-8")


def broken(*pairs: tuple[str, str]) -> str:
    """abs.cpp with each (old, new) replaced once (the old text must be there)."""
    text = original()
    for old, new in pairs:
        assert old in text, old
        text = text.replace(old, new, 1)
    return text
