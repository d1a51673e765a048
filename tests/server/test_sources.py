"""More diagnostic sources than lint: `publish_findings` merges them per document (the build and run checks use it)."""

from __future__ import annotations

from lsprotocol import types
from pygls.workspace import Workspace

from akgen_lsp.findings import Edit, Finding, Fix, Span
from akgen_lsp.server.protocol import AkgenServer, create_server

from .lsp_helpers import fixture_text, uri_of

URI = uri_of("good_add.cpp")


def _server() -> tuple[AkgenServer, list[types.PublishDiagnosticsParams]]:
    server = create_server()
    server.protocol._workspace = Workspace(None)
    server.workspace.put_text_document(
        types.TextDocumentItem(uri=URI, language_id="cpp", version=4, text=fixture_text("good_add.cpp"))
    )
    sent: list[types.PublishDiagnosticsParams] = []
    server.text_document_publish_diagnostics = sent.append  # type: ignore[method-assign]
    return server, sent


def _finding(code: str, line: int) -> Finding:
    fix = Fix("rename", (Edit(Span("k.cpp", line, 1, line, 2), "x"),))
    return Finding(code, f"{code} message", Span("k.cpp", line, 1, line, 5), source="akgen-build", fixes=(fix,))


async def test_sources_are_published_merged_and_stale_ones_dropped():
    server, sent = _server()
    await server.lint_and_publish(URI)
    assert sent[-1].version == 4 and list(sent[-1].diagnostics) == []
    server.publish_findings(URI, "run", [_finding("SIM-UB-OOB", 30)])
    server.publish_findings(URI, "build", [_finding("CXX", 12)])
    assert [d.code for d in sent[-1].diagnostics] == ["CXX", "SIM-UB-OOB"]  # lint, build, run order
    count = len(sent)
    server.publish_findings(URI, "build", [_finding("CXX", 13)], version=3)  # made for an older text
    assert len(sent) == count
    server.clear_source(URI, "run")
    assert [d.code for d in sent[-1].diagnostics] == ["CXX"]
    doc = server.document(URI)
    codes = [f.code for f in await server.current_findings(doc)]
    assert codes == ["CXX"]  # the build's findings (with their fixes) feed the code actions too
    await server.close()


async def test_a_new_save_cancels_the_running_save_check(monkeypatch):  # type: ignore[no-untyped-def]
    import asyncio

    server, sent = _server()
    started: list[int] = []
    cancelled: list[int] = []

    async def slow(ls: AkgenServer, doc, settings, ahead=None) -> None:  # stands in for the compile (the wiring
        # is under test)
        started.append(doc.version)
        try:
            await asyncio.sleep(5)
        except asyncio.CancelledError:
            cancelled.append(doc.version)
            raise
        ls.publish_findings(doc.uri, "run", [_finding("SIM-UB-OOB", 30)])

    monkeypatch.setattr(server.checks, "check", slow)
    did_save = server.protocol.fm.features[types.TEXT_DOCUMENT_DID_SAVE]
    params = types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=URI))
    await did_save(params)
    await asyncio.sleep(0.05)
    await did_save(params)
    await asyncio.sleep(0.05)
    assert started == [4, 4] and cancelled == [4]
    await server.close()
    assert cancelled == [4, 4] and not sent  # shutdown cancels the second one too: nothing published after it


async def test_a_late_check_result_is_moved_to_the_text_typed_since():
    # the check ran on version 3; the user typed a line at the top meanwhile (now version 4)
    server, sent = _server()
    now = server.document(URI).source
    then = "\n".join(now.splitlines()[1:]) + "\n"
    line_then = next(i for i, x in enumerate(then.splitlines(), 1) if x.strip())  # a line that exists in both
    server.publish_findings(URI, "build", [_finding("CXX", line_then)], version=3, text=then)
    diag = next(d for d in sent[-1].diagnostics if d.code == "CXX")
    assert diag.range.start.line == line_then  # 0-based line_then == 1-based line_then + 1 - 1
    assert sent[-1].version == 4
    await server.close()
