"""LSP 3.17 pull diagnostics for the whole workspace (``workspace/diagnostic``): the Problems panel shows the lint
findings (and the build-log findings) of AscendC files that are not open.

Open documents get their diagnostics pushed (``publishDiagnostics``, lint as you type, build and run on save), so
the pull answers them with an empty report: a client that shows both never lists a finding twice. A file's report
carries a result id (its size and modification time, the settings, the build logs' generation); when the client
already has every current report, the request waits (long polling, as the protocol intends) until a file changes
(`changed`, from the workspace watcher) or `POLL_S` pass, instead of answering the same thing every two seconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from lsprotocol import types
from pygls.workspace.position_codec import PositionCodec  # the workspace's codec: utf-16 or utf-8

from akgen_lsp.config import Settings
from akgen_lsp.findings import Finding
from akgen_lsp.safety import read_regular
from akgen_lsp.server.convert import Lines, to_diagnostic
from akgen_lsp.server.features import diagnostics
from akgen_lsp.server.host import FeatureHost
from akgen_lsp.server.scheduler import Scheduler
from akgen_lsp.server.session import SettingsProvider
from akgen_lsp.server.workspace import WorkspaceFiles

log = logging.getLogger(__name__)

POLL_S = 60.0
MAX_BYTES = 2 * 1024 * 1024


@dataclass
class _Entry:
    file_key: str  # size, modification time and settings of the file when it was linted
    findings: list[Finding]


@dataclass
class WorkspaceLint:
    """The lint of files from disk by path, the build logs' findings, and `changed` to wake a waiting pull."""

    cache: dict[str, _Entry] = field(default_factory=dict)
    log_findings: dict[str, dict[str, list[Finding]]] = field(default_factory=dict)  # log -> file -> findings
    _event: asyncio.Event | None = None

    def changed(self) -> None:
        if self._event is not None:
            self._event.set()

    async def wait(self, timeout: float) -> None:
        self._event = self._event or asyncio.Event()
        self._event.clear()
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self._event.wait(), timeout)

    def logged(self, path: str) -> list[Finding]:
        return [f for by_file in self.log_findings.values() for f in by_file.get(path, [])]


class PullHost(FeatureHost, Protocol):
    files: WorkspaceFiles
    workspace_lint: WorkspaceLint
    scheduler: Scheduler
    settings: SettingsProvider

    @property
    def workspace(self) -> Any: ...


def _settings_key(settings: Settings) -> int:
    return hash(tuple(sorted((k, repr(v)) for k, v in settings.as_dict().items())))


def _lint_file(path: Path, settings: Settings) -> list[Finding] | None:
    try:  # a regular file of a bounded size only (never a device, FIFO or a link to one: notes.asc -> /dev/stdin)
        text = read_regular(path, MAX_BYTES).decode("utf-8", "replace")
    except OSError:
        return None
    return diagnostics.lint_document(text, str(path), settings)


async def _report_for(host: PullHost, path: Path) -> tuple[str, list[Finding]] | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    settings = host.settings.for_path(str(path))
    state = host.workspace_lint
    file_key = f"{stat.st_mtime_ns}-{stat.st_size}-{_settings_key(settings) & 0xFFFFFFFF:x}"
    cached = state.cache.get(str(path))
    if cached is None or cached.file_key != file_key:
        lint = await host.scheduler.run_in_worker(_lint_file, path, settings)
        cached = state.cache[str(path)] = _Entry(file_key, lint or [])
    logged = state.logged(str(path))
    result_id = f"{file_key}-{hash(tuple((f.code, f.message, f.span) for f in logged)) & 0xFFFFFFFF:x}"
    return result_id, cached.findings + logged


def _diagnostics(findings: Sequence[Finding], path: Path, codec: PositionCodec) -> list[types.Diagnostic]:
    try:
        text = read_regular(path, MAX_BYTES).decode("utf-8", "replace")
    except OSError:
        text = ""
    lines = Lines(text, codec)
    return [to_diagnostic(f, lines) for f in findings]


async def report(host: PullHost, params: types.WorkspaceDiagnosticParams) -> types.WorkspaceDiagnosticReport:
    previous = {p.uri: p.value for p in params.previous_result_ids or []}
    while True:
        items = await _items(host, previous)
        if any(isinstance(i, types.WorkspaceFullDocumentDiagnosticReport) for i in items) or not previous:
            return types.WorkspaceDiagnosticReport(items=items)
        await host.workspace_lint.wait(POLL_S)  # nothing new: answer when something changes


async def _items(host: PullHost, previous: dict[str, str]) -> list[Any]:
    scan = host.files.get()
    open_docs = set(host.workspace.text_documents)
    codec = host.workspace.position_codec
    items: list[Any] = []
    for path in scan.sources:
        uri = path.as_uri()
        if uri in open_docs:
            if previous.get(uri) != "open":  # pushed diagnostics own it: clear what the pull showed
                items.append(
                    types.WorkspaceFullDocumentDiagnosticReport(
                        uri=uri, items=[], version=None, result_id="open"
                    )
                )
            continue
        settings = host.settings.for_path(str(path))
        text_head = _head(path)
        if text_head is None or not diagnostics.is_ascendc_document(str(path), text_head, settings):
            continue
        got = await _report_for(host, path)
        if got is None:
            continue
        result_id, findings = got
        if previous.get(uri) == result_id:
            items.append(
                types.WorkspaceUnchangedDocumentDiagnosticReport(uri=uri, result_id=result_id, version=None)
            )
        else:
            items.append(
                types.WorkspaceFullDocumentDiagnosticReport(
                    uri=uri, items=_diagnostics(findings, path, codec), version=None, result_id=result_id
                )
            )
    return items


def _head(path: Path) -> str | None:
    try:
        with path.open("r", encoding="utf-8", errors="replace") as fh:
            return fh.read(200_000)
    except OSError:
        return None


async def document_report(host: FeatureHost, uri: str) -> types.RelatedFullDocumentDiagnosticReport:
    """``textDocument/diagnostic``: an open document's diagnostics are pushed, so the pull has none to add."""
    del host, uri
    return types.RelatedFullDocumentDiagnosticReport(items=[])
