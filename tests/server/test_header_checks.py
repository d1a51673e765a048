"""Check on save with headers and changes on disk, through the real server (`akgen serve`) and the real simulator:
an error inside a header the kernel includes is published for the header, open or not, with the including line as
related information; files changed on disk (a header, the open kernel, akgen.toml) re-check the open kernels."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import LanguageClient

from akgen_lsp.server.features.headers import include_line

from .lsp_helpers import CONFIG, SAMPLES, initialize_params

pytestmark = pytest.mark.asyncio(loop_scope="module")

ADD = SAMPLES / "kernels" / "add_custom.cpp"
CONSTANTS = "constexpr int32_t TOTAL_LENGTH"
TASK = """\
[[task]]
name = "AddCustom"
file = "kernels/add_custom.cpp"
kernel = "add_custom"
mode = "static"
block_dim = 48
reference = "x + y"
inputs = [
    { name = "x", shape = [48, 128, 512], dtype = "float16" },
    { name = "y", shape = [48, 128, 512], dtype = "float16" },
]
outputs = [{ name = "z", shape = [48, 128, 512], dtype = "float16" }]
"""
HELPER = """
#include "kernel_operator.h"
template <typename T>
__aicore__ inline void CopyTile(AscendC::LocalTensor<T> dst, AscendC::GlobalTensor<T> src, int32_t n)
{
    AscendC::DataCopy(dst, src, n);
}
"""
COPY_X = "DataCopy(xLocal, xGm[progress * TILE_LENGTH], TILE_LENGTH);"


def _split(text: str) -> tuple[str, str]:
    """The add sample as a kernel that includes ``add_tiling.h`` (its constants and a copy helper)."""
    lines = text.splitlines(True)
    first = next(i for i, line in enumerate(lines) if line.startswith(CONSTANTS))
    last = first
    while lines[last + 1].startswith("constexpr"):
        last += 1
    header = "#pragma once\n#include <cstdint>\n" + "".join(lines[first:last + 1]) + HELPER
    kernel = "".join(lines[:first]) + '#include "add_tiling.h"\n' + "".join(lines[last + 1:])
    return kernel, header


@pytest.fixture(scope="module")
def ws(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("headers")
    (root / "akgen.toml").write_text('arch = "Ascend910B2"\n\n' + TASK, encoding="utf-8")
    (root / "kernels").mkdir()
    kernel, header = _split(ADD.read_text("utf-8"))
    (root / "kernels" / "add_custom.cpp").write_text(kernel, encoding="utf-8")
    (root / "kernels" / "add_tiling.h").write_text(header, encoding="utf-8")
    return root


@pytest_lsp.fixture(config=CONFIG, scope="module")
async def client(lsp_client: LanguageClient, ws: Path):
    await lsp_client.initialize_session(initialize_params("visual-studio-code", {"lint": {"debounce_ms": 20}}, root=ws))
    yield
    await lsp_client.shutdown_session()


def _kernel(ws: Path) -> Path:
    return ws / "kernels" / "add_custom.cpp"


def _header(ws: Path) -> Path:
    return ws / "kernels" / "add_tiling.h"


def _open(client: LanguageClient, path: Path) -> str:
    uri = path.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="cpp", version=1, text=path.read_text("utf-8"))))
    return uri


def _close(client: LanguageClient, uri: str) -> None:
    client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri)))


_versions: dict[str, int] = {}


def _edit(client: LanguageClient, uri: str, text: str) -> None:
    """The editor's text of `uri` becomes `text` (a reload after a change on disk, or typing)."""
    _versions[uri] = _versions.get(uri, 1) + 1
    client.text_document_did_change(types.DidChangeTextDocumentParams(
        text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=_versions[uri]),
        content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))


def _save(client: LanguageClient, path: Path, text: str) -> None:
    """Ctrl+S of `text`: the editor writes it, then tells the server."""
    uri = path.as_uri()
    _edit(client, uri, text)
    path.write_text(text, encoding="utf-8")
    client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri)))


def _of(client: LanguageClient, uri: str, source: str) -> list[types.Diagnostic]:
    return [d for d in client.diagnostics.get(uri, []) if d.source == source]


def _estimate(client: LanguageClient, uri: str) -> str:
    found = [d.message for d in _of(client, uri, "akgen-run") if d.code == "AKGEN-ESTIMATE"]
    return found[0] if found else ""


async def _until(predicate: Callable[[], object], timeout: float = 180.0) -> None:
    """Wait for the server's publications to make `predicate` true (the bound covers a first check that builds the
    precompiled header on a loaded machine; the test goes on as soon as it holds)."""
    async def poll() -> None:
        while not predicate():
            await asyncio.sleep(0.05)

    await asyncio.wait_for(poll(), timeout)


def _checks_done(client: LanguageClient, title: str) -> int:
    """How many checks whose progress title contains `title` have ended."""
    ends = 0
    for values in client.progress_reports.values():
        begun = any(isinstance(v, types.WorkDoneProgressBegin) and title in v.title for v in values)
        ends += begun and any(isinstance(v, types.WorkDoneProgressEnd) for v in values)
    return ends


def _related_lines(diag: types.Diagnostic) -> list[tuple[str, int]]:
    return [(r.location.uri.rsplit("/", 1)[-1], r.location.range.start.line) for r in diag.related_information or []]


async def test_a_build_error_in_a_closed_header_is_published_for_the_header(client: LanguageClient, ws: Path):
    header, kernel = _header(ws), _kernel(ws)
    good_header = header.read_text("utf-8")
    header.write_text(good_header.replace("TILE_NUM = 8;", "TILE_NUM = 8 + undefined_thing;"), encoding="utf-8")
    uri, header_uri = _open(client, kernel), header.as_uri()
    _save(client, kernel, kernel.read_text("utf-8"))
    await _until(lambda: _of(client, header_uri, "akgen-build"))
    bad_line = next(i for i, line in enumerate(header.read_text("utf-8").splitlines()) if "undefined_thing" in line)
    include = next(i for i, line in enumerate(kernel.read_text("utf-8").splitlines()) if "add_tiling.h" in line)
    [in_header] = _of(client, header_uri, "akgen-build")
    assert in_header.range.start.line == bad_line and "undefined_thing" in in_header.message
    assert _related_lines(in_header) == [("add_custom.cpp", include)]
    # the kernel shows it at its including line, the header's line as related information
    [in_kernel] = _of(client, uri, "akgen-build")
    assert in_kernel.range.start.line == include
    assert _related_lines(in_kernel) == [("add_tiling.h", bad_line)]
    assert "did not compile" in _estimate(client, uri)
    # fixed on disk (an edit outside the editor): the watcher re-checks the kernel, and both are cleared
    header.write_text(good_header, encoding="utf-8")
    await _until(lambda: "1/1 cases pass" in _estimate(client, uri))
    await _until(lambda: not _of(client, header_uri, "akgen-build"))
    assert not _of(client, uri, "akgen-build")


async def test_a_run_fault_in_a_header_shows_in_it_open_and_closed(client: LanguageClient, ws: Path):
    header, kernel = _header(ws), _kernel(ws)
    uri, header_uri = kernel.as_uri(), header.as_uri()
    good = kernel.read_text("utf-8")
    assert COPY_X in good
    # the kernel copies twice its tile through the header's helper: the read past x's end faults in the header
    _save(client, kernel, good.replace(COPY_X, "::CopyTile(xLocal, xGm[progress * TILE_LENGTH], TILE_LENGTH * 2);"))
    await _until(lambda: _of(client, header_uri, "akgen-run"))
    [fault] = _of(client, header_uri, "akgen-run")
    helper = next(i for i, line in enumerate(header.read_text("utf-8").splitlines()) if "AscendC::DataCopy" in line)
    assert fault.code == "SIM-GM-OOB-READ" and fault.range.start.line == helper
    include = next(i for i, line in enumerate(kernel.read_text("utf-8").splitlines()) if "add_tiling.h" in line)
    assert _related_lines(fault) == [("add_custom.cpp", include)]
    # opened, the header shows it beside its lint; closed again, still (as a closed file's)
    _open(client, header)
    await _until(lambda: [d.code for d in _of(client, header_uri, "akgen-run")] == ["SIM-GM-OOB-READ"])
    _close(client, header_uri)
    await _until(lambda: [d.code for d in _of(client, header_uri, "akgen-run")] == ["SIM-GM-OOB-READ"])
    # the kernel fixed and saved: the header is cleared
    _save(client, kernel, good)
    await _until(lambda: "1/1 cases pass" in _estimate(client, uri))
    await _until(lambda: not _of(client, header_uri, "akgen-run"))


async def test_an_open_kernel_changed_on_disk_is_checked_once_the_editor_reloads_it(client: LanguageClient,
                                                                                     ws: Path):
    kernel = _kernel(ws)
    uri = kernel.as_uri()
    good = kernel.read_text("utf-8")
    done = _checks_done(client, "add_custom.cpp")
    # `git checkout` of another version: the disk changes first, the editor reloads the file after it
    broken = good.replace(COPY_X, "DataCopy(xLocal, xGm[progress * TILE_LENGTH], TILE_LENGTH * 2);")
    kernel.write_text(broken, encoding="utf-8")
    await asyncio.sleep(1.0)  # the editor is slower than the watcher: nothing is checked before its reload
    assert _checks_done(client, "add_custom.cpp") == done
    _edit(client, uri, broken)
    await _until(lambda: any(d.code == "SIM-GM-OOB-READ" for d in _of(client, uri, "akgen-run")))
    # back on disk, the editor reloads at once
    kernel.write_text(good, encoding="utf-8")
    _edit(client, uri, good)
    await _until(lambda: "1/1 cases pass" in _estimate(client, uri))


async def test_akgen_toml_changed_on_disk_rechecks_the_open_kernels(client: LanguageClient, ws: Path):
    uri = _kernel(ws).as_uri()
    assert "1/1 cases pass" in _estimate(client, uri)
    config = ws / "akgen.toml"
    # the task's reference changed outside the editor: the open kernel is checked against the new one
    config.write_text(config.read_text("utf-8").replace('reference = "x + y"', 'reference = "x - y"'),
                      encoding="utf-8")
    await _until(lambda: "0/1 cases pass" in _estimate(client, uri))
    config.write_text(config.read_text("utf-8").replace('reference = "x - y"', 'reference = "x + y"'),
                      encoding="utf-8")
    await _until(lambda: "1/1 cases pass" in _estimate(client, uri))


async def test_include_line_follows_headers_that_include_the_header(tmp_path: Path):
    (tmp_path / "a.h").write_text('#pragma once\n#include "sub/b.h"\n', encoding="utf-8")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "b.h").write_text('#include "c.h"\n', encoding="utf-8")
    (tmp_path / "sub" / "c.h").write_text("int c;\n", encoding="utf-8")
    (tmp_path / "loop.h").write_text('#include "loop.h"\n', encoding="utf-8")
    text = '#include "loop.h"\n#include <cstdint>\n\n#include "a.h"\n'
    kernel = str(tmp_path / "k.cpp")
    assert include_line(kernel, text, str(tmp_path / "a.h")) == 4
    assert include_line(kernel, text, str(tmp_path / "sub" / "c.h")) == 4
    assert include_line(kernel, text, str(tmp_path / "other.h")) is None


async def test_the_fixtures_split_the_sample():
    kernel, header = _split(ADD.read_text("utf-8"))
    assert CONSTANTS in header and CONSTANTS not in kernel and COPY_X in kernel
