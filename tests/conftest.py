"""Shared fixtures."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "samples"


@pytest.fixture
def repo() -> Path:
    return REPO


@pytest.fixture
def samples() -> Path:
    return SAMPLES
