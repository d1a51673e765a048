"""The workspace on disk: files changed outside the editor (watchdog), CANN build logs as diagnostics, and
``workspace/diagnostic`` pull reports for files that are not open."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from akgen_lsp.server import workspace
from akgen_lsp.server.features import build_logs

from .lsp_helpers import CONFIG, SAMPLES, initialize_params

pytestmark = pytest.mark.asyncio(loop_scope="module")

BROKEN = SAMPLES / "broken" / "akg130_ub_budget.cpp"
GOOD = SAMPLES / "kernels" / "add_custom.cpp"


@pytest.fixture(scope="module")
def ws(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("ws")
    (root / "akgen.toml").write_text('arch = "Ascend910B2"\n', encoding="utf-8")
    op = root / "add_op" / "op_kernel"
    op.mkdir(parents=True)
    shutil.copyfile(GOOD, op / "add_custom.cpp")
    shutil.copyfile(BROKEN, root / "not_open.cpp")
    (root / "node_modules" / "x").mkdir(parents=True)
    shutil.copyfile(BROKEN, root / "node_modules" / "x" / "ignored.cpp")
    return root


@pytest_lsp.fixture(config=CONFIG, scope="module")
async def client(lsp_client: LanguageClient, ws: Path):
    await lsp_client.initialize_session(initialize_params("visual-studio-code", {"lint": {"debounce_ms": 20}}, root=ws))
    yield
    await lsp_client.shutdown_session()


def _open(client: LanguageClient, path: Path) -> str:
    uri = path.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="cpp", version=1, text=path.read_text("utf-8"))))
    return uri


async def _until(predicate, timeout: float = 15.0) -> None:  # type: ignore[no-untyped-def]
    async def poll() -> None:
        while not predicate():
            await asyncio.sleep(0.05)

    await asyncio.wait_for(poll(), timeout)


async def test_pull_diagnostics_report_files_that_are_not_open(client: LanguageClient, ws: Path):
    report = await client.workspace_diagnostic_async(types.WorkspaceDiagnosticParams(previous_result_ids=[]))
    by_uri = {item.uri: item for item in report.items}
    item = by_uri[(ws / "not_open.cpp").as_uri()]
    assert isinstance(item, types.WorkspaceFullDocumentDiagnosticReport)
    assert [d.code for d in item.items] == ["AKG130"]
    assert (ws / "node_modules" / "x" / "ignored.cpp").as_uri() not in by_uri
    # the client has every report now: the next pull waits for a change, then answers with the new text's report
    previous = [types.PreviousResultId(uri=i.uri, value=i.result_id) for i in report.items if i.result_id]
    pending = asyncio.ensure_future(client.workspace_diagnostic_async(
        types.WorkspaceDiagnosticParams(previous_result_ids=previous)))
    await asyncio.sleep(1.0)
    assert not pending.done()
    fixed = BROKEN.read_text("utf-8").replace("3 * TILE_LENGTH * sizeof(float)", "TILE_LENGTH * sizeof(float)")
    (ws / "not_open.cpp").write_text(fixed, encoding="utf-8")
    report = await asyncio.wait_for(pending, 15)
    item = next(i for i in report.items if i.uri == (ws / "not_open.cpp").as_uri())
    assert isinstance(item, types.WorkspaceFullDocumentDiagnosticReport) and not item.items
    # an open document is the push's: the pull reports it empty, so no client lists its findings twice
    uri = _open(client, ws / "not_open.cpp")
    report = await client.workspace_diagnostic_async(types.WorkspaceDiagnosticParams(previous_result_ids=[]))
    item = next(i for i in report.items if i.uri == uri)
    assert isinstance(item, types.WorkspaceFullDocumentDiagnosticReport) and not item.items


async def test_a_build_log_written_in_the_workspace_becomes_diagnostics(client: LanguageClient, ws: Path):
    kernel = ws / "add_op" / "op_kernel" / "add_custom.cpp"
    uri = _open(client, kernel)
    await _until(lambda: uri in client.diagnostics)
    log = ws / "add_op" / "build_out" / "build.log"
    log.parent.mkdir()
    log.write_text(
        "[ 50%] Building CXX object op_kernel/CMakeFiles/add_custom.dir/add_custom.cpp.o\n"
        "    /tmp/build_xyz/op_kernel/add_custom.cpp:42:9: error: use of undeclared identifier 'Adds2'\n"
        "gmake[2]: *** [op_kernel/CMakeFiles/add_custom.dir/build.make:76] Error 1\n",
        encoding="utf-8",
    )
    await _until(lambda: any(d.source == "akgen-build" for d in client.diagnostics.get(uri, [])))
    found = [d for d in client.diagnostics[uri] if d.source == "akgen-build"]
    assert found[0].range.start.line == 41 and "Adds2" in found[0].message
    # the build is fixed and logs again: the finding goes
    log.write_text("[100%] Built target add_custom\n", encoding="utf-8")
    await _until(lambda: not any(d.source == "akgen-build" for d in client.diagnostics.get(uri, [])))


async def test_a_header_changed_on_disk_relints_the_files_that_include_it(client: LanguageClient, ws: Path):
    folder = ws / "with_header"
    folder.mkdir()
    (folder / "consts.h").write_text("#pragma once\n", encoding="utf-8")
    text = BROKEN.read_text("utf-8").replace('#include "kernel_operator.h"', '#include "kernel_operator.h"\n#include "consts.h"')
    (folder / "k.cpp").write_text(text, encoding="utf-8")
    await asyncio.sleep(1.0)  # the new folder is watched
    uri = _open(client, folder / "k.cpp")
    await _until(lambda: uri in client.diagnostics)
    published: list[int] = []
    features = client.protocol.fm.features
    default = features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS]

    def record(params: types.PublishDiagnosticsParams) -> None:
        if params.uri == uri:
            published.append(params.version or 0)
        default(params)

    features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = record
    try:
        (folder / "consts.h").write_text("#pragma once\nconstexpr int X = 1;\n", encoding="utf-8")
        await _until(lambda: bool(published))  # re-linted without any didChange from the editor
    finally:
        features[types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS] = default


async def test_the_scan_is_bounded_and_finds_logs_in_build_folders(tmp_path: Path):
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "k.cpp").write_text("//\n", encoding="utf-8")
    (tmp_path / ".git" / "objects").mkdir(parents=True)
    deep = tmp_path / "build" / "a" / "b" / "c"
    deep.mkdir(parents=True)
    (tmp_path / "build" / "a" / "compile.log").write_text("", encoding="utf-8")
    (deep / "x.cpp").write_text("", encoding="utf-8")
    scan = workspace.scan(tmp_path)
    assert tmp_path / "src" / "k.cpp" in scan.sources
    assert not any(".git" in p.parts for p in scan.dirs)
    assert tmp_path / "build" / "a" / "compile.log" in scan.logs
    assert deep not in scan.dirs and deep / "x.cpp" not in scan.sources  # build folders: logs only, 2 levels
    assert not workspace.walkable(Path.home()) and not workspace.walkable(Path("/"))
    assert build_logs.is_build_log("x/CMakeFiles/CMakeError.log") and not build_logs.is_build_log("notes.log")
