"""End-to-end fixtures: `akgen serve` as a subprocess, driven by pytest-lsp with real editors' capabilities."""

from __future__ import annotations

import pytest
import pytest_lsp
from pytest_lsp import LanguageClient

from .lsp_helpers import CLIENTS, CONFIG, initialize_params


@pytest_lsp.fixture(config=CONFIG, params=CLIENTS)
async def client(request: pytest.FixtureRequest, lsp_client: LanguageClient):
    """A session with one real client's capabilities (VS Code: utf-16, Neovim 0.11: utf-8)."""
    await lsp_client.initialize_session(initialize_params(request.param, {"lint": {"debounce_ms": 20}}))
    yield
    await lsp_client.shutdown_session()
