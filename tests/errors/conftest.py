"""Fixtures of the errors tests: the log fixtures and their hand labels."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from akgen_lsp.logs.blocks import ErrorBlock

FIXTURES = Path(__file__).parent / "fixtures"
LOGS = FIXTURES / "logs"
KERNELS = FIXTURES / "kernels"


def hand_labels() -> dict[str, list[tuple[str | int, str]]]:
    return {k: [(m, c) for m, c in v] for k, v in json.loads((LOGS / "labels.json").read_text()).items()}


def label_blocks(name: str, blocks: list[ErrorBlock]) -> list[ErrorBlock]:
    """Each labelled entry of `name` marks the first block it matches (a message substring or a line number);
    every entry must match one block."""
    out = []
    for match, cls in hand_labels()[name]:
        hit = next((b for b in blocks if b not in out and (b.line == match if isinstance(match, int)
                                                           else str(match) in b.message)), None)
        assert hit is not None, f"{name}: no block for label {match!r}: {[b.message for b in blocks]}"
        hit.label = cls
        out.append(hit)
    return out


@pytest.fixture
def isolated_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A cache folder of its own (the repair store lives there)."""
    monkeypatch.setenv("AKGEN_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path / "cache"
