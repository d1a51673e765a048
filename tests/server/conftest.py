"""End-to-end fixtures: `akgen serve` as a subprocess, driven by pytest-lsp with real editors' capabilities."""

from __future__ import annotations

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient
from pytest_lsp.client import make_test_lsp_client

from .lsp_helpers import CLIENTS, SERVER, initialize_params


def make_client() -> LanguageClient:
    """pytest-lsp's client, also recording the version of each publishDiagnostics."""
    client = make_test_lsp_client()
    versions: dict[str, int | None] = {}
    client.diagnostic_versions = versions  # type: ignore[attr-defined]
    features = client.protocol.fm.features
    default = features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]

    def record(params: types.PublishDiagnosticsParams) -> None:
        versions[params.uri] = params.version
        default(params)

    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = record
    return client


CONFIG = ClientServerConfig(server_command=SERVER, client_factory=make_client)


@pytest_lsp.fixture(config=CONFIG, params=CLIENTS)
async def client(request: pytest.FixtureRequest, lsp_client: LanguageClient):
    """A session with one real client's capabilities (VS Code: utf-16, Neovim 0.11: utf-8)."""
    await lsp_client.initialize_session(initialize_params(request.param, {"lint": {"debounce_ms": 20}}))
    yield
    await lsp_client.shutdown_session()
