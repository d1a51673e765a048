"""workspace/didChangeConfiguration: new settings apply to open documents; bad values are reported.

This test changes the server's settings, so it has a server of its own.
"""

from __future__ import annotations

import asyncio
import json

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from .lsp_helpers import (
    CLIENTS,
    CONFIG,
    EVENT_BOUND_S,
    fixture_text,
    initialize_params,
    open_document,
    wait_for_diagnostics,
    wait_for_message,
)

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_lsp.fixture(config=CONFIG, params=CLIENTS, scope="module")
async def client(request: pytest.FixtureRequest, lsp_client: LanguageClient):
    await lsp_client.initialize_session(initialize_params(request.param, {"lint": {"debounce_ms": 20}}))
    yield
    await lsp_client.shutdown_session()


async def test_configuration_change_applies_and_bad_values_are_reported(client: LanguageClient):
    uri = open_document(client, "broken_add.cpp")
    codes = sorted({d.code for d in await wait_for_diagnostics(client, uri, version=1)})
    assert codes
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"akgen": {"lint": {"ignore": codes}}})
    )
    # the re-lint publishes the same version again, now without them
    async def cleared() -> None:
        while list(client.diagnostics.get(uri, ())):
            await asyncio.sleep(0.02)

    await asyncio.wait_for(cleared(), EVENT_BOUND_S)
    client.workspace_did_change_configuration(
        types.DidChangeConfigurationParams(settings={"akgen": {"lint": {"enable": "yes"}}})
    )
    message = await wait_for_message(client)
    assert "lint.enable" in message.message


async def test_a_changed_akgen_toml_is_picked_up(client: LanguageClient, tmp_path_factory: pytest.TempPathFactory):
    folder = tmp_path_factory.mktemp("ws")
    kernel = folder / "no_extern_c.cpp"
    kernel.write_text(fixture_text("no_extern_c.cpp"), encoding="utf-8")
    uri = kernel.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="cpp", version=1, text=kernel.read_text())
        )
    )
    codes = sorted({d.code for d in await wait_for_diagnostics(client, uri, version=1)})
    assert codes
    config = folder / "akgen.toml"
    config.write_text(f"[lint]\nignore = {json.dumps(codes)}\n", encoding="utf-8")
    client.workspace_did_change_watched_files(
        types.DidChangeWatchedFilesParams(
            changes=[types.FileEvent(uri=config.as_uri(), type=types.FileChangeType.Created)]
        )
    )

    async def cleared() -> None:
        while list(client.diagnostics.get(uri, ())):
            await asyncio.sleep(0.02)

    await asyncio.wait_for(cleared(), EVENT_BOUND_S)


async def test_a_broken_akgen_toml_is_reported_and_the_defaults_used(
    client: LanguageClient, tmp_path_factory: pytest.TempPathFactory
):
    folder = tmp_path_factory.mktemp("broken_config")
    (folder / "akgen.toml").write_text("[lint\nignore = 3\n", encoding="utf-8")
    kernel = folder / "broken_add.cpp"
    kernel.write_text(fixture_text("broken_add.cpp"), encoding="utf-8")
    client.messages.clear()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(
                uri=kernel.as_uri(), language_id="cpp", version=1, text=kernel.read_text(encoding="utf-8")
            )
        )
    )
    assert await wait_for_diagnostics(client, kernel.as_uri(), version=1)  # linted with the defaults
    message = await wait_for_message(client)
    assert "akgen.toml" in message.message and "not valid TOML" in message.message
