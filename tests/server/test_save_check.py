"""Check on save: the server compiles, runs and compares the saved kernel (`save_check`), end to end over LSP."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import shutil
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.workspace import Workspace
from pytest_lsp import LanguageClient

from akgen_lsp.check.result import CheckResult, Figures, Status
from akgen_lsp.check.worker import CheckFailed
from akgen_lsp.config import defaults
from akgen_lsp.findings import Edit, Finding, Fix, Severity, Span
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


def _open(client: LanguageClient, path: Path) -> str:
    uri = path.as_uri()
    client.text_document_did_open(
        types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="cpp", version=1, text=path.read_text("utf-8"))
        )
    )
    return uri


def _save(client: LanguageClient, uri: str, reason: types.TextDocumentSaveReason | None = None) -> None:
    doc = types.TextDocumentIdentifier(uri=uri)
    if reason is not None:
        client.text_document_will_save(types.WillSaveTextDocumentParams(text_document=doc, reason=reason))
    client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=doc))


def _open_and_save(client: LanguageClient, path: Path) -> str:
    uri = _open(client, path)
    _save(client, uri)
    return uri


async def _wait_for(client: LanguageClient, uri: str, source: str, timeout: float = 120.0) -> list[types.Diagnostic]:
    async def poll() -> list[types.Diagnostic]:
        while True:
            found = [d for d in client.diagnostics.get(uri, []) if d.source == source]
            if found:
                return found
            await asyncio.sleep(0.05)

    return await asyncio.wait_for(poll(), timeout)


def _task_kernel(tmp_path: Path, source: Path = DOUBLE_FREE, toml: str = TASK_TOML) -> Path:
    kernel = tmp_path / "k.cpp"
    shutil.copyfile(source, kernel)
    (tmp_path / "akgen.toml").write_text(toml, encoding="utf-8")
    return kernel


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
    # "show the last run's trace": a Chrome trace file of this run
    answer = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="akgen.server.lastTrace", arguments=[uri])
    )
    assert answer["ok"] is True and "perfetto" in answer["message"]
    trace = json.loads(Path(answer["trace"]).read_text(encoding="utf-8"))
    assert trace["traceEvents"]


async def test_the_check_results_follow_the_edits(client: LanguageClient, tmp_path: Path):
    kernel = _task_kernel(tmp_path)
    marked = next(i for i, line in enumerate(kernel.read_text("utf-8").splitlines()) if "expect-run" in line)
    uri = _open_and_save(client, kernel)
    before = await _wait_for(client, uri, "akgen-run")
    entry = next(d for d in before if d.severity == types.DiagnosticSeverity.Information).range.start.line
    # two lines typed at the top: the runtime error and the summary move down with their lines
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=2),
        content_changes=[types.TextDocumentContentChangePartial(
            range=types.Range(types.Position(0, 0), types.Position(0, 0)), text="// one\n// two\n")],
    ))

    async def moved() -> list[types.Diagnostic]:
        while client.diagnostic_versions.get(uri) != 2:
            await asyncio.sleep(0.05)
        return [d for d in client.diagnostics[uri] if d.source == "akgen-run"]

    after = await asyncio.wait_for(moved(), 10)
    lines = {d.code: d.range.start.line for d in after}
    assert lines["SIM-QUE-DOUBLE-FREE"] == marked + 2
    assert lines[save_check.ESTIMATE_CODE] == entry + 2
    # an edit on the failing line itself: that finding is no longer known to be true, the others stay
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=3),
        content_changes=[types.TextDocumentContentChangePartial(
            range=types.Range(types.Position(marked + 2, 8), types.Position(marked + 2, 8)), text="// ")],
    ))
    while client.diagnostic_versions.get(uri) != 3:
        await asyncio.sleep(0.05)
    codes = {d.code for d in client.diagnostics[uri] if d.source == "akgen-run"}
    assert "SIM-QUE-DOUBLE-FREE" not in codes and save_check.ESTIMATE_CODE in codes


async def test_automatic_saves_do_not_check_by_default(client: LanguageClient, tmp_path: Path):
    uri = _open(client, _task_kernel(tmp_path))
    _save(client, uri, types.TextDocumentSaveReason.AfterDelay)  # VS Code for the Web, a second after typing
    _save(client, uri, types.TextDocumentSaveReason.FocusOut)
    await asyncio.sleep(3.0)
    assert not [d for d in client.diagnostics.get(uri, []) if d.source == "akgen-run"]
    _save(client, uri, types.TextDocumentSaveReason.Manual)  # Ctrl+S
    diags = await _wait_for(client, uri, "akgen-run")
    assert any(d.code == "SIM-QUE-DOUBLE-FREE" for d in diags)


async def test_a_file_without_a_task_says_once_how_to_add_one(client: LanguageClient):
    uri = _open_and_save(client, FIXTURES / "good_add.cpp")

    async def said() -> list[types.ShowMessageParams]:
        while True:
            found = [m for m in client.messages if "has no task" in m.message and "good_add.cpp" in m.message]
            if found:
                return found
            await asyncio.sleep(0.05)

    first = await asyncio.wait_for(said(), 30)
    assert first[0].type == types.MessageType.Info and "[[task]]" in first[0].message
    _save(client, uri)
    await asyncio.sleep(2.0)
    assert len(await said()) == 1  # once per file
    sources = {d.source for d in client.diagnostics.get(uri, [])}
    assert not sources & {"akgen-run", "akgen-build", "akgen-bench"}


async def test_a_task_error_is_shown(client: LanguageClient, tmp_path: Path):
    toml = '[[task]]\nname = "X"\nfile = "k.cpp"\nkernel = "half_to_float"\nbench = "level9/Nowhere"\n'
    uri = _open_and_save(client, _task_kernel(tmp_path, toml=toml))
    diags = await _wait_for(client, uri, "akgen-bench")
    assert diags[0].code == "BENCH-TASK" and "level9/Nowhere" in diags[0].message

    async def shown() -> types.ShowMessageParams:
        while True:
            for m in client.messages:
                if "level9/Nowhere" in m.message:
                    return m
            await asyncio.sleep(0.05)

    message = await asyncio.wait_for(shown(), 10)
    assert message.type == types.MessageType.Error and "bench.suite" in message.message


async def test_check_now_answers_with_the_result(client: LanguageClient, tmp_path: Path):
    uri = _open(client, _task_kernel(tmp_path))
    answer = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="akgen.server.runTask", arguments=[uri])
    )
    assert answer["state"] == "failed" and "0/1 cases pass" in answer["message"]
    assert answer["cases"] and answer["cases"][0]["status"] == "runtime_error"
    assert any(d.code == "SIM-QUE-DOUBLE-FREE" for d in client.diagnostics.get(uri, []))


async def test_info_reports_the_environment(client: LanguageClient):
    answer = await client.workspace_execute_command_async(types.ExecuteCommandParams(command="akgen.server.info"))
    env = answer["environment"]
    assert env["compiler"]["ok"] and env["server"]["what"].startswith("akgen-lsp")
    assert env["model"]["what"] == "none" and "catalog" in env["model"]["detail"]
    assert env["references"]["ok"] and "NumPy" in env["references"]["detail"]
    assert answer["worker"]["pid"]  # the first AscendC file opened started the check worker


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


async def test_a_failing_check_is_said_once_and_the_server_keeps_going(monkeypatch: pytest.MonkeyPatch):
    path = FIXTURES / "good_add.cpp"
    server, sent, shown = _server(path)

    async def broken(*args, **kwargs):  # type: ignore[no-untyped-def]
        raise CheckFailed("the check worker stopped (killed by signal 9; its output ended)")

    monkeypatch.setattr(server.checks.worker, "check", broken)
    doc = server.document(path.as_uri())
    await server.checks.check(server, doc, defaults())
    await server.checks.check(server, doc, defaults())
    assert len(shown) == 1 and "failed" in shown[0] and "server log" in shown[0]
    assert not sent
    assert server.checks.last[doc.uri].state == "error"
    await server.lint_and_publish(uri_of("good_add.cpp"))  # and it keeps serving
    assert sent and sent[-1].uri == uri_of("good_add.cpp")
    await server.close()


async def test_a_failing_save_publishes_once_and_once_more_with_its_verified_fix(monkeypatch: pytest.MonkeyPatch):
    """One publishDiagnostics per check result: the failing check's build and run findings together, then the
    same with the fix that verified (it was one per source, twice: four for one version)."""
    path = FIXTURES / "good_add.cpp"
    server, sent, _ = _server(path)
    text = path.read_text("utf-8")
    line = next(i for i, x in enumerate(text.splitlines(), 1) if "Add(" in x)
    column = text.splitlines()[line - 1].index("Add(") + 1
    typo = Finding("CXX", "'Addd' was not declared in this scope; did you mean 'Add'?",
                   Span(str(path), line, column, line, column + 3), source="akgen-build",
                   fixes=(Fix("change to 'Sub'", (Edit(Span(str(path), line, column, line, column + 3), "Sub"),),
                              safe=True),))
    failing = CheckResult((typo,), Figures(task="t", status=Status.COMPILE_ERROR, cases=1, passed_cases=0,
                                           arch="Ascend910B2"))
    passing = CheckResult((), Figures(task="t", status=Status.PASS, cases=1, passed_cases=1, arch="Ascend910B2",
                                      case_results=({"case_id": 0, "status": "pass"},)))

    async def check(path: str, settings, timeout_s, trace_to=None, text=None, **kw):  # type: ignore[no-untyped-def]
        return failing if text is None else passing  # the save's check fails; the fixed text passes

    monkeypatch.setattr(server.checks.worker, "check", check)
    doc = server.document(path.as_uri())
    await server.checks.check(server, doc, defaults())
    mine = [p for p in sent if p.uri == doc.uri]
    assert len(mine) == 2, [[d.code for d in p.diagnostics] for p in mine]
    assert [d.code for d in mine[0].diagnostics if d.source == "akgen-build"] == ["CXX"]
    assert mine[0].diagnostics[0].data["fixes"] == []  # offered only once verified
    assert mine[1].diagnostics[0].data["fixes"]  # the verified fix
    assert server.state(doc.uri).last_check is not None and server.state(doc.uri).last_check.result is failing
    server.forget(doc.uri)
    assert doc.uri not in server.documents
    await server.close()


async def test_when_a_save_checks():
    manual, delay, focus = (types.TextDocumentSaveReason.Manual, types.TextDocumentSaveReason.AfterDelay,
                            types.TextDocumentSaveReason.FocusOut)
    assert save_check.should_check("manual", manual) and save_check.should_check("manual", None)
    assert not save_check.should_check("manual", delay) and not save_check.should_check("manual", focus)
    assert save_check.should_check("always", delay) and not save_check.should_check("off", manual)
    assert defaults()["check_on_save"] == "manual"
    assert defaults().with_overrides({"check_on_save": True}, "t")["check_on_save"] == "manual"
    assert defaults().with_overrides({"check_on_save": False}, "t")["check_on_save"] == "off"


async def test_figures_and_entry_line():
    text = fixture_text("good_add.cpp")
    line = save_check.entry_line(text)
    assert 'extern "C"' in text.splitlines()[line - 1]
    figures = Figures(task="t", estimate_us=11.7965, arch="Ascend910B2", estimate_label="estimate", bound="HBM",
                      passed_cases=12, cases=12)
    assert save_check.figures_message(figures) == "estimated 11.8 us on Ascend910B2 (estimate; bound: HBM), 12/12 cases pass"
    assert save_check.figures_message(Figures.no_task()) is None
    elsewhere = Finding("CXX", "bad tiling", Span.point("/elsewhere/op_host/tiling.h", 7), source="akgen-build")
    out = save_check.split_findings("/k/k.cpp", text, [elsewhere],
                                     dataclasses.replace(figures, status=Status.COMPILE_ERROR))
    assert [f.span.line for f in out["build"]] == [1] and "/elsewhere/op_host/tiling.h:7" in out["build"][0].message
    assert [f.severity for f in out["run"]] == [Severity.INFO] and out["run"][0].span.line == line


async def test_a_build_error_is_underlined_and_offers_the_compilers_fixit(client: LanguageClient,
                                                                                   tmp_path: Path):
    text = ADD_CUSTOM.read_text("utf-8").replace("Add(zLocal, xLocal, yLocal", "Add(zLocal, xLocall, yLocal")
    kernel = tmp_path / "kernels" / "add_custom.cpp"
    kernel.parent.mkdir()
    kernel.write_text(text, encoding="utf-8")
    (tmp_path / "akgen.toml").write_text((SAMPLES / "akgen.toml").read_text("utf-8"), encoding="utf-8")
    uri = _open_and_save(client, kernel)
    errors = await _wait_for(client, uri, "akgen-build")
    error = errors[0]
    line = next(i for i, x in enumerate(text.splitlines()) if "xLocall" in x)
    assert error.range.start.line == line and "did you mean 'xLocal'" in error.message
    assert error.range.end.character - error.range.start.character == len("xLocall")  # the word, not a point
    fix = None
    for _ in range(600):  # the compiler's fix-it is offered once it verified on the simulator (features/repair.py)
        result = await client.text_document_code_action_async(types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri), range=error.range,
            context=types.CodeActionContext(diagnostics=[error])))
        fix = next((a for a in result or [] if isinstance(a, types.CodeAction)
                    and a.title.startswith("Change 'xLocall' to 'xLocal'")), None)
        if fix is not None:
            break
        await asyncio.sleep(0.1)
    assert fix is not None and "(the compiler's fix-it) — verified: compiles, 1/1 cases pass" in fix.title
    change = fix.edit.document_changes[0]  # type: ignore[union-attr, index]
    assert change.edits[0].new_text == "xLocal" and change.edits[0].range == error.range  # type: ignore[union-attr]
