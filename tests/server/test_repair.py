""""Fix this build error" end to end: `akgen serve` driven by pytest-lsp as VS Code, a kernel with a task, the tiny
GGUF forced by a GBNF grammar to answer a known repair through real llama.cpp inference (the registry knows the
tiny model as akgen-tiny, so its action reads "Fix with KernelGen-LM"; KernelGen-LM's reads "Fix with KernelGen-LM-4B")."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import LanguageClient

from akgen_lsp.check.process import descendants
from akgen_lsp.errors.store import RepairStore
from akgen_lsp.model.tiny import literal_grammar, write_tiny_gguf

from .lsp_helpers import CONFIG, initialize_params
from .lsp_helpers import until as _until

pytestmark = pytest.mark.asyncio(loop_scope="module")

WS = Path(__file__).resolve().parents[1] / "repair" / "fixtures" / "ws"
ORIGINAL = (WS / "abs.cpp").read_text(encoding="utf-8")
BROKEN = ORIGINAL.replace("Abs(yLocal, xIn, TILE_LENGTH);", "AscendC::Absolute(yLocal, xIn, TILE_LENGTH);")
ANSWER = f"Absolute is not an Ascend C API: the absolute value is Abs.\n\n```cpp\n{ORIGINAL.rstrip()}\n```\n"
UNTYPED = ORIGINAL.replace("inQueueX.AllocTensor<half>()", "inQueueX.AllocTensor()")


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("repair-ws")
    shutil.copytree(WS, root, dirs_exist_ok=True)
    return root


@pytest.fixture(scope="module")
def tiny(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_tiny_gguf(tmp_path_factory.mktemp("gguf") / "repair-model.gguf", n_ctx=16384)


@pytest_lsp.fixture(config=CONFIG, scope="module")
async def client(lsp_client: LanguageClient, workspace: Path, tiny: Path):
    options = {"lint": {"debounce_ms": 20},
               "model": {"backend": "llama_cpp", "path": str(tiny), "n_ctx": 16384, "n_threads": 1},
               "fix": {"samples": 1, "max_tokens": 2400, "grammar": literal_grammar(ANSWER),
                       "store": str(workspace / "repairs.sqlite")}}
    await lsp_client.initialize_session(initialize_params("visual-studio-code", options, root=workspace))
    yield
    await lsp_client.shutdown_session()


def _open(client: LanguageClient, path: Path, text: str) -> str:
    path.write_text(text, encoding="utf-8")
    uri = path.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="cpp", version=1, text=text)))
    return uri


def _change(client: LanguageClient, path: Path, uri: str, version: int, text: str) -> None:
    path.write_text(text, encoding="utf-8")
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))


def _save(client: LanguageClient, uri: str) -> None:
    client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))


def _errors(client: LanguageClient, uri: str, source: str) -> list[types.Diagnostic]:
    return [d for d in client.diagnostics.get(uri, []) if d.source == source
            and d.severity == types.DiagnosticSeverity.Error]


async def _actions(client: LanguageClient, uri: str, diagnostic: types.Diagnostic) -> list[types.CodeAction]:
    found = await client.text_document_code_action_async(types.CodeActionParams(
        text_document=types.TextDocumentIdentifier(uri=uri), range=diagnostic.range,
        context=types.CodeActionContext(diagnostics=[diagnostic], only=[types.CodeActionKind.QuickFix])))
    return [a for a in found or [] if isinstance(a, types.CodeAction)]


def _apply(text: str, edit: types.WorkspaceEdit) -> str:
    (change,) = edit.document_changes or []
    assert isinstance(change, types.TextDocumentEdit)
    lines = text.splitlines(keepends=True)
    starts = [0]
    for line in lines:
        starts.append(starts[-1] + len(line))
    for e in sorted(change.edits, key=lambda e: (e.range.start.line, e.range.start.character), reverse=True):
        assert isinstance(e, types.TextEdit)
        a = starts[e.range.start.line] + e.range.start.character  # ASCII text: utf-16 units are characters
        b = starts[e.range.end.line] + e.range.end.character
        text = text[:a] + e.new_text + text[b:]
    return text


async def test_save_list_resolve_apply_and_the_diagnostics_clear(client: LanguageClient, workspace: Path) -> None:
    path = workspace / "abs.cpp"
    uri = _open(client, path, BROKEN)
    _save(client, uri)
    (build,) = await _until(lambda: _errors(client, uri, "akgen-build"))
    assert "Absolute" in build.message
    actions = await _actions(client, uri, build)
    model = [a for a in actions if a.title == "Fix with KernelGen-LM"]
    assert len(model) == 1 and model[0].edit is None and not model[0].is_preferred  # the list waits for nothing
    resolved = await client.code_action_resolve_async(model[0])
    assert resolved.edit is not None, [m.message for m in client.messages]
    assert resolved.title.startswith("Fix with KernelGen-LM: compiles, 1/1 cases pass") and not resolved.is_preferred
    (change,) = resolved.edit.document_changes or []
    assert isinstance(change, types.TextDocumentEdit) and change.text_document.version == 1  # the checked version
    assert len(change.edits) == 1  # a minimal edit, not a whole-file replacement
    titles = [v.title for vs in client.progress_reports.values() for v in vs
              if isinstance(v, types.WorkDoneProgressBegin)]
    assert "akgen: Fix with KernelGen-LM" in titles
    fixed = _apply(BROKEN, resolved.edit)
    assert fixed == ORIGINAL
    _change(client, path, uri, 2, fixed)
    assert resolved.command is not None
    stored = await client.workspace_execute_command_async(types.ExecuteCommandParams(
        command=resolved.command.command, arguments=resolved.command.arguments))
    assert stored["stored"] is True
    (repair,) = RepairStore(workspace / "repairs.sqlite").similar(_signature_of(build.message), 1)
    assert repair.after == ORIGINAL and repair.model == "KernelGen-LM" and repair.provenance == "editor"
    _save(client, uri)
    await _until(lambda: not _errors(client, uri, "akgen-build") and any(
        "1/1 cases pass" in d.message for d in client.diagnostics.get(uri, []) if d.source == "akgen-run"))
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri)))


def _signature_of(message: str) -> str:
    from akgen_lsp.logs.signature import signature

    return signature(message)


async def test_an_edit_during_resolve_drops_the_action(client: LanguageClient, workspace: Path) -> None:
    path = workspace / "stale.cpp"
    (workspace / "akgen.toml").write_text((WS / "akgen.toml").read_text().replace('file = "abs.cpp"',
                                                                                  'file = "stale.cpp"'), "utf-8")
    try:
        uri = _open(client, path, BROKEN)
        _save(client, uri)
        (build,) = await _until(lambda: _errors(client, uri, "akgen-build"))
        (action,) = [a for a in await _actions(client, uri, build) if a.title == "Fix with KernelGen-LM"]
        pending = asyncio.ensure_future(client.code_action_resolve_async(action))
        await asyncio.sleep(0.3)
        _change(client, path, uri, 2, BROKEN + "// typing\n")
        resolved = await asyncio.wait_for(pending, 120)
        assert resolved.edit is None
        await _until(lambda: any("document changed while the repair ran" in m.message for m in client.messages), 30)
    finally:
        (workspace / "akgen.toml").write_text((WS / "akgen.toml").read_text(), "utf-8")
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri)))


async def test_a_cancelled_resolve_leaves_no_process(client: LanguageClient, workspace: Path) -> None:
    path = workspace / "abs.cpp"
    uri = _open(client, path, BROKEN)
    _save(client, uri)
    (build,) = await _until(lambda: [d for d in _errors(client, uri, "akgen-build")])
    (action,) = [a for a in await _actions(client, uri, build) if a.title == "Fix with KernelGen-LM"]
    server_pid = client._server.pid  # type: ignore[attr-defined]
    before = set(client.progress_reports)
    msg_id = "repair-cancel-1"
    future = client.protocol.send_request(types.CODE_ACTION_RESOLVE, action, msg_id=msg_id)

    def verifying() -> bool:
        reports = [v for token in set(client.progress_reports) - before for v in client.progress_reports[token]]
        return any(isinstance(v, types.WorkDoneProgressReport) and (v.message or "").startswith("verifying")
                   for v in reports)

    await _until(verifying)
    await _until(lambda: _jobs(server_pid), 60)  # a check job of the candidate runs under the worker
    client.protocol.notify("$/cancelRequest", types.CancelParams(id=msg_id))
    t0 = asyncio.get_running_loop().time()
    with pytest.raises(JsonRpcException) as raised:
        await asyncio.wait_for(asyncio.wrap_future(future), 60)
    assert "cancel" in str(raised.value).lower() and asyncio.get_running_loop().time() - t0 < 10
    await _until(lambda: not _jobs(server_pid), 30)
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri)))


def _jobs(server_pid: int) -> list[int]:
    """The processes below the server other than its check worker (the worker's jobs and what they run)."""
    out = []
    for pid in descendants(server_pid):
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
            state = Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()[0]
        except OSError:
            continue
        if state == b"Z":
            continue
        if b"akgen_lsp.check.process" in cmd and _parent(pid) == server_pid:
            continue  # the persistent worker itself
        out.append(pid)
    return out


def _parent(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/stat").read_bytes().rsplit(b")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return -1
