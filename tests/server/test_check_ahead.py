"""Check ahead (features/check_ahead.py), end to end over LSP: a pause in typing starts the save check on the
buffer's text; the save of that very text shows its result (at the real file's lines); anything else that changed
in between (typing again, a watched file) makes the save check by itself."""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from .lsp_helpers import CONFIG, SAMPLES, initialize_params
from .test_save_check import DOUBLE_FREE, TASK_TOML

pytestmark = pytest.mark.asyncio(loop_scope="module")

AHEAD_DONE = "akgen: checked k.cpp ahead of its save"
AHEAD_USED = "akgen: k.cpp: the save shows the check made ahead of it"
# the pause before a check ahead starts: a bound on how long the server may take between a didChange and the didSave
# sent right after it ("typed again, then saved" must reach the save before a check ahead of the new text starts;
# at 50 ms a loaded machine lost that race under stress-ng)
AHEAD_MS = 3000


@pytest_lsp.fixture(config=CONFIG, scope="module")
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(initialize_params(
        "visual-studio-code", {"lint": {"debounce_ms": 20}, "check": {"ahead_ms": AHEAD_MS}}, root=SAMPLES))
    yield
    await lsp_client.shutdown_session()


def _kernel(tmp_path: Path) -> tuple[Path, str, int]:
    kernel = tmp_path / "k.cpp"
    shutil.copyfile(DOUBLE_FREE, kernel)
    (tmp_path / "akgen.toml").write_text(TASK_TOML, encoding="utf-8")
    text = kernel.read_text("utf-8")
    marked = next(i for i, line in enumerate(text.splitlines()) if "expect-run" in line)
    return kernel, text, marked


def _open(client: LanguageClient, path: Path, text: str) -> str:
    uri = path.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="cpp", version=1, text=text)))
    return uri


def _type_at_top(client: LanguageClient, uri: str, version: int, typed: str) -> None:
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[types.TextDocumentContentChangePartial(
            range=types.Range(types.Position(0, 0), types.Position(0, 0)), text=typed)]))


def _save(client: LanguageClient, path: Path, uri: str, text: str) -> None:
    path.write_text(text, encoding="utf-8")  # the editor writes the file, then says so
    doc = types.TextDocumentIdentifier(uri=uri)
    client.text_document_will_save(types.WillSaveTextDocumentParams(doc, types.TextDocumentSaveReason.Manual))
    client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=doc))


def _logged(client: LanguageClient, start: str) -> int:
    return sum(1 for m in client.log_messages if m.message.startswith(start))


async def _until_logged(client: LanguageClient, start: str, count: int, timeout: float = 120.0) -> None:
    async def poll() -> None:
        while _logged(client, start) < count:
            await asyncio.sleep(0.05)

    await asyncio.wait_for(poll(), timeout)


async def _run_diagnostics(client: LanguageClient, uri: str, version: int) -> list[types.Diagnostic]:
    async def poll() -> list[types.Diagnostic]:
        while True:
            found = [d for d in client.diagnostics.get(uri, []) if d.source == "akgen-run"]
            if found and client.diagnostic_versions.get(uri) == version:
                return found
            await asyncio.sleep(0.05)

    return await asyncio.wait_for(poll(), 120)


def _close(client: LanguageClient, uri: str) -> None:
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri)))


async def test_the_save_of_the_text_checked_ahead_shows_that_check(client: LanguageClient, tmp_path: Path):
    kernel, text, marked = _kernel(tmp_path)
    uri = _open(client, kernel, text)
    done, used = _logged(client, AHEAD_DONE), _logged(client, AHEAD_USED)
    _type_at_top(client, uri, 2, "// a comment typed\n")
    await _until_logged(client, AHEAD_DONE, done + 1)  # the pause started the check; nothing published by it
    assert not [d for d in client.diagnostics.get(uri, []) if d.source == "akgen-run"]
    _save(client, kernel, uri, "// a comment typed\n" + text)
    diags = await _run_diagnostics(client, uri, 2)
    assert _logged(client, AHEAD_USED) == used + 1
    # the check ran on a copy of the text: its findings are at the real file's lines all the same
    (double_free,) = [d for d in diags if d.code == "SIM-QUE-DOUBLE-FREE"]
    assert double_free.range.start.line == marked + 1
    related = [r.location.uri for d in diags for r in d.related_information or ()]
    assert not [u for u in related if "akgen-check-" in u]
    # and its Chrome trace is the document's last trace
    answer = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="akgen.server.lastTrace", arguments=[uri]))
    assert answer["ok"] is True
    events = json.loads(Path(answer["trace"]).read_text(encoding="utf-8"))["traceEvents"]
    files = {e["args"]["file"] for e in events if e["ph"] == "X"}
    assert files == {str(kernel.resolve())}  # its events are named at the document, not at the checked copy
    _close(client, uri)


async def test_typing_again_or_a_changed_file_makes_the_save_check_itself(client: LanguageClient, tmp_path: Path):
    kernel, text, marked = _kernel(tmp_path)
    uri = _open(client, kernel, text)
    used = _logged(client, AHEAD_USED)
    # typed again after the check ahead: the save is of another text
    done = _logged(client, AHEAD_DONE)
    _type_at_top(client, uri, 2, "// one\n")
    await _until_logged(client, AHEAD_DONE, done + 1)
    _type_at_top(client, uri, 3, "// two\n")
    _save(client, kernel, uri, "// two\n// one\n" + text)
    diags = await _run_diagnostics(client, uri, 3)
    assert [d.range.start.line for d in diags if d.code == "SIM-QUE-DOUBLE-FREE"] == [marked + 2]
    assert _logged(client, AHEAD_USED) == used
    # the same text, but a file the check reads changed meanwhile (the editor's file watcher says so)
    done = _logged(client, AHEAD_DONE)
    _type_at_top(client, uri, 4, "// three\n")
    await _until_logged(client, AHEAD_DONE, done + 1)
    toml = kernel.parent / "akgen.toml"
    toml.write_text(TASK_TOML.replace("[[task]]", "# edited\n[[task]]"), encoding="utf-8")
    client.workspace_did_change_watched_files(types.DidChangeWatchedFilesParams(
        changes=[types.FileEvent(uri=toml.as_uri(), type=types.FileChangeType.Changed)]))
    _save(client, kernel, uri, "// three\n// two\n// one\n" + text)
    diags = await _run_diagnostics(client, uri, 4)
    assert [d.range.start.line for d in diags if d.code == "SIM-QUE-DOUBLE-FREE"] == [marked + 3]
    assert _logged(client, AHEAD_USED) == used
    _close(client, uri)


async def test_no_check_ahead_when_it_is_off(client: LanguageClient, tmp_path: Path):
    kernel, text, _ = _kernel(tmp_path)
    (tmp_path / "akgen.toml").write_text("[check]\nahead = false\n\n" + TASK_TOML, encoding="utf-8")
    uri = _open(client, kernel, text)
    done = _logged(client, AHEAD_DONE)
    _type_at_top(client, uri, 2, "// typed\n")
    await asyncio.sleep(AHEAD_MS / 1000 + 1.0)  # a pause (a check ahead, were it on, would start and be logged)
    _save(client, kernel, uri, "// typed\n" + text)
    await _run_diagnostics(client, uri, 2)
    await asyncio.sleep(0.5)
    assert _logged(client, AHEAD_DONE) == done
    _close(client, uri)
