"""End-to-end fixtures: `akgen serve` as a subprocess, driven by pytest-lsp with real editors' capabilities."""

from __future__ import annotations

import pytest
import pytest_lsp
from pytest_lsp import LanguageClient

from .lsp_helpers import CLIENTS, CONFIG, initialize_params


@pytest_lsp.fixture(config=CONFIG, params=CLIENTS, scope="module")
async def client(request: pytest.FixtureRequest, lsp_client: LanguageClient):
    """One server per test module and client kind (VS Code: utf-16, Neovim 0.11: utf-8).

    Tests share it, so each opens its documents under a URI of its own (`open_document` does that) and none of them
    changes the server's settings (test_configuration.py has its own server for that). Modules that use it run in
    the module's event loop: ``pytestmark = pytest.mark.asyncio(loop_scope="module")``.
    """
    await lsp_client.initialize_session(initialize_params(request.param, {"lint": {"debounce_ms": 20}}))
    yield
    await lsp_client.shutdown_session()
