"""Check on save: the server compiles, runs and compares the saved kernel (`save_check`), end to end over LSP."""

from __future__ import annotations

import asyncio
import os
import shutil
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.workspace import Workspace
from pytest_lsp import LanguageClient

from akgen_lsp.config import defaults
from akgen_lsp.findings import Finding, Severity, Span
from akgen_lsp.server.features import save_check
from akgen_lsp.server.protocol import AkgenServer, create_server

from .lsp_helpers import CONFIG, FIXTURES, SAMPLES, fixture_text, initialize_params, uri_of

pytestmark = pytest.mark.asyncio(loop_scope="module")

ADD_CUSTOM = SAMPLES / "kernels" / "add_custom.cpp"
DOUBLE_FREE = SAMPLES / "broken" / "runtime" / "double_free_tensor.cpp"

TASK_TOML = """\
[[task]]
name = "HalfToFloat"
file = "k.cpp"
kernel = "half_to_float"
mode = "static"
block_dim = 1
reference = "x.float()"
inputs = [{ name = "x", shape = [16384], dtype = "float16" }]
outputs = [{ name = "y", shape = [16384], dtype = "float32" }]
"""


@pytest_lsp.fixture(config=CONFIG, scope="module")
async def client(lsp_client: LanguageClient):
    await lsp_client.initialize_session(
        initialize_params("visual-studio-code", {"lint": {"debounce_ms": 20}}, root=SAMPLES)
    )
    yield
    await lsp_client.shutdown_session()


def _open_and_save(client: LanguageClient, path: Path) -> str:
    uri = path.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="cpp", version=1, text=path.read_text("utf-8"))
        )
    )
    client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
    return uri


async def _wait_for(client: LanguageClient, uri: str, source: str, timeout: float = 25.0) -> list[types.Diagnostic]:
    async def poll() -> list[types.Diagnostic]:
        while True:
            found = [d for d in client.diagnostics.get(uri, []) if d.source == source]
            if found:
                return found
            await asyncio.sleep(0.05)

    return await asyncio.wait_for(poll(), timeout)


async def test_saving_a_task_kernel_publishes_the_estimate_at_the_entry(client: LanguageClient):
    uri = _open_and_save(client, ADD_CUSTOM)
    diags = await _wait_for(client, uri, "akgen-run")
    info = [d for d in diags if d.severity == types.DiagnosticSeverity.Information]
    assert len(info) == 1, diags
    message = info[0].message
    assert "estimate" in message and "Ascend910B2" in message and "cases pass" in message
    assert " us on " in message
    lines = ADD_CUSTOM.read_text("utf-8").splitlines()
    assert 'extern "C"' in lines[info[0].range.start.line]
    assert not [d for d in diags if d.severity == types.DiagnosticSeverity.Error]
    # the progress bar was opened and closed with the file's name in its title
    titles = [
        v.title for v in (p for values in client.progress_reports.values() for p in values)
        if isinstance(v, types.WorkDoneProgressBegin)
    ]
    assert "akgen: checking add_custom.cpp on sim" in titles


async def test_a_runtime_failure_is_reported_at_the_users_line(client: LanguageClient, tmp_path: Path):
    kernel = tmp_path / "k.cpp"
    shutil.copyfile(DOUBLE_FREE, kernel)
    (tmp_path / "akgen.toml").write_text(TASK_TOML, encoding="utf-8")
    marked = next(i for i, line in enumerate(kernel.read_text("utf-8").splitlines()) if "expect-run" in line)
    uri = _open_and_save(client, kernel)
    diags = await _wait_for(client, uri, "akgen-run")
    errors = [d for d in diags if d.code == "SIM-QUE-DOUBLE-FREE"]
    assert errors and errors[0].range.start.line == marked
    assert errors[0].severity == types.DiagnosticSeverity.Error
    summary = [d for d in diags if d.severity == types.DiagnosticSeverity.Information]
    assert summary and "0/1 cases pass" in summary[0].message


async def test_a_file_without_a_task_gets_no_check_findings_and_no_popup(client: LanguageClient):
    uri = _open_and_save(client, FIXTURES / "good_add.cpp")
    await asyncio.sleep(4.0)  # long enough for the check process to start, find no task and answer
    sources = {d.source for d in client.diagnostics.get(uri, [])}
    assert not sources & {"akgen-run", "akgen-build", "akgen-bench"}
    assert not [m for m in client.messages if "check" in m.message]


# ------------------------------------------------------------------------------------------- in process


def _server(path: Path) -> tuple[AkgenServer, list[types.PublishDiagnosticsParams], list[str]]:
    server = create_server()
    server.protocol._workspace = Workspace(None)
    server.workspace.put_text_document(
        types.TextDocumentItem(uri=path.as_uri(), language_id="cpp", version=2, text=path.read_text("utf-8"))
    )
    sent: list[types.PublishDiagnosticsParams] = []
    shown: list[str] = []
    server.text_document_publish_diagnostics = sent.append  # type: ignore[method-assign]
    server.show = lambda message, kind=types.MessageType.Warning: shown.append(message)  # type: ignore[method-assign]
    return server, sent, shown


async def test_cancelling_the_check_kills_its_process_group(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    kernel = tmp_path / "k.cpp"
    shutil.copyfile(DOUBLE_FREE, kernel)
    (tmp_path / "akgen.toml").write_text(TASK_TOML, encoding="utf-8")
    server, sent, shown = _server(kernel)
    spawned: list[asyncio.subprocess.Process] = []
    real = asyncio.create_subprocess_exec

    async def spy(*args, **kwargs):  # type: ignore[no-untyped-def]
        proc = await real(*args, **kwargs)
        spawned.append(proc)
        return proc

    monkeypatch.setattr(asyncio, "create_subprocess_exec", spy)
    doc = server.document(kernel.as_uri())
    task = asyncio.ensure_future(save_check.check_on_save(server, doc, defaults()))
    for _ in range(500):
        if spawned or task.done():
            break
        await asyncio.sleep(0.01)
    assert spawned and not task.done()
    await asyncio.sleep(0.2)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    pgid = spawned[0].pid
    for _ in range(100):  # the group leader is reaped by the event loop's child watcher
        try:
            os.killpg(pgid, 0)
        except ProcessLookupError:
            break
        await asyncio.sleep(0.02)
    else:
        pytest.fail("the check's process group outlived the cancellation")
    assert not sent and not shown
    await server.close()


async def test_a_crashing_check_is_said_once_and_the_server_keeps_going(monkeypatch: pytest.MonkeyPatch):
    path = FIXTURES / "good_add.cpp"
    server, sent, shown = _server(path)

    async def broken(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise RuntimeError("the check process exited with status 1 (ImportError: no numpy)")

    monkeypatch.setattr(save_check, "run_check", broken)
    doc = server.document(path.as_uri())
    await save_check.check_on_save(server, doc, defaults())
    await save_check.check_on_save(server, doc, defaults())
    assert len(shown) == 1 and "failed" in shown[0] and "server log" in shown[0]
    assert not sent
    await server.lint_and_publish(uri_of("good_add.cpp"))  # and it keeps serving
    assert sent and sent[-1].uri == uri_of("good_add.cpp")
    await server.close()


async def test_figures_and_entry_line():
    text = fixture_text("good_add.cpp")
    line = save_check.entry_line(text)
    assert 'extern "C"' in text.splitlines()[line - 1]
    figures = {"task": "t", "estimate_us": 11.7965, "arch": "Ascend910B2", "estimate_label": "estimate",
               "bound": "HBM", "passed_cases": 12, "cases": 12}
    assert save_check.figures_message(figures) == "estimated 11.8 us on Ascend910B2 (estimate; bound: HBM), 12/12 cases pass"
    assert save_check.figures_message({"task": None}) is None
    elsewhere = Finding("CXX", "bad tiling", Span.point("/elsewhere/op_host/tiling.h", 7), source="akgen-build")
    out = save_check.split_findings("/k/k.cpp", text, [elsewhere], {**figures, "status": "compile_error"})
    assert [f.span.line for f in out["build"]] == [1] and "/elsewhere/op_host/tiling.h:7" in out["build"][0].message
    assert [f.severity for f in out["run"]] == [Severity.INFO] and out["run"][0].span.line == line
