"""Fixtures of tests/mcp (the helpers are in mcp_helpers.py: this folder has no __init__.py, so that its name does
not hide the MCP SDK's `mcp` package)."""

from __future__ import annotations

from pathlib import Path

import pytest
from mcp_helpers import copy_samples


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    return copy_samples(tmp_path)
