"""`AkgenServer`: the pygls server and what it remembers: one `DocumentState` per open document (documents.py), the
lint source, publishing (one publishDiagnostics per result), progress, status, the check worker and the editor's
lifetime. It implements `host.FeatureHost` for the features;
`protocol.py` wires the LSP handlers to it and to `features/`.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.uris import from_fs_path, to_fs_path
from pygls.workspace import TextDocument

from akgen_lsp.ascendc.catalog import Catalog, load_catalog
from akgen_lsp.config import Settings
from akgen_lsp.findings import Finding
from akgen_lsp.safety import read_regular
from akgen_lsp.server import lifetime, tracking
from akgen_lsp.server.convert import Lines, to_diagnostic
from akgen_lsp.server.documents import DocumentState
from akgen_lsp.server.features import code_actions, diagnostics, inline, repair
from akgen_lsp.server.features.build_logs import LOG_SOURCE
from akgen_lsp.server.features.info import server_version
from akgen_lsp.server.features.save_check import SaveChecks
from akgen_lsp.server.features.workspace_diagnostics import WorkspaceLint
from akgen_lsp.server.progress import Progress
from akgen_lsp.server.scheduler import Scheduler
from akgen_lsp.server.session import SettingsProvider
from akgen_lsp.server.watch import WorkspaceWatcher
from akgen_lsp.server.workspace import WorkspaceFiles

log = logging.getLogger("akgen_lsp.server")

STATUS_METHOD = "akgen/status"
MAX_PUBLISHED_FILE = 4 << 20  # a header larger than this gets no diagnostics while closed


class AkgenProtocol(LanguageServerProtocol):
    """pygls's protocol, answering a request whose params do not deserialize (pygls only logs it, and the client
    would wait for an answer forever)."""

    def structure_message(self, data: Any) -> Any:
        try:
            return super().structure_message(data)
        except JsonRpcException as exc:
            if isinstance(data, dict) and "id" in data and "method" in data:
                self._send_response(data["id"], error=exc.to_response_error())
            raise


class AkgenServer(LanguageServer):
    def __init__(self) -> None:
        super().__init__(
            "akgen-lsp",
            server_version(),
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            protocol_cls=AkgenProtocol,
        )
        self.settings = SettingsProvider()
        self.settings.on_notice = self._notice
        self.scheduler = Scheduler()
        self.inline = inline.InlineCompletions()
        self.checks = SaveChecks()
        self.progress = Progress(self)
        # what the server keeps of each open document (forget() drops it)
        self.documents: dict[str, DocumentState] = {}
        self._lint_failures: set[str] = set()
        self._shown: set[str] = set()
        self.status: dict[str, Any] = {}
        # the workspace on disk: its files (bounded scan), their lint for pull diagnostics, the build logs' findings
        self.files = WorkspaceFiles(None)
        self.workspace_lint = WorkspaceLint()
        self.watcher: WorkspaceWatcher | None = None
        self.watcher_pending: dict[
            str, str
        ] = {}  # open documents changed on disk, until the editor reloads them
        self.loop: asyncio.AbstractEventLoop | None = (
            None  # set at initialize (log records from other threads)
        )
        # code actions for the findings a request is about: quick fixes (lint, verified build/run fixes), the model
        # repair of build and run diagnostics ("Fix with KernelGen-LM", resolved lazily)
        self.repairs = repair.Repairs()
        self.checks.followups.append(repair.verify_certain_fixes)
        self.code_action_providers: list[code_actions.ActionProvider] = [
            code_actions.lint_quick_fixes,
            repair.model_actions(self),
        ]

    # ------------------------------------------------------------------------------------------- telling the user

    def report_server_error(self, error: Exception, source: Any) -> None:
        # pygls would pop up "Error in server" for every failed notification; a log line is enough.
        log.error("server error (%s): %s", getattr(source, "__name__", source), error)
        self.log(f"akgen: internal error: {error}", types.MessageType.Error)

    def log(self, message: str, kind: types.MessageType = types.MessageType.Log) -> None:
        try:
            self.window_log_message(types.LogMessageParams(type=kind, message=message))
        except Exception:  # no transport yet (unit tests) or the client is gone
            log.debug("could not send a log message: %s", message)

    def show(self, message: str, kind: types.MessageType = types.MessageType.Warning) -> None:
        self.window_show_message(types.ShowMessageParams(type=kind, message=message))

    def show_once(self, message: str, kind: types.MessageType = types.MessageType.Warning) -> bool:
        """Show `message` the first time only (a crash repeated on every save is said once); True if shown."""
        if message in self._shown:
            self.log(message, kind)
            return False
        self._shown.add(message)
        self.show(message, kind)
        return True

    def _notice(self, message: str) -> None:
        """A settings notice (a key an untrusted layer may not set): shown once, from whichever thread read it."""
        loop = getattr(self, "loop", None)
        if loop is None or not loop.is_running():
            self.settings.problems.append(message)
            return
        try:
            running = asyncio.get_running_loop()
        except RuntimeError:
            running = None
        if running is loop:
            self.show_once(message)
        else:
            loop.call_soon_threadsafe(self.show_once, message)

    def show_problems(self) -> None:
        for problem in self.settings.take_problems():
            self.show(problem)

    async def begin_progress(self, title: str, cancellable: bool = False) -> str | None:
        return await self.progress.begin(title, cancellable=cancellable)

    def report_progress(self, token: str | None, message: str, percentage: int | None = None) -> None:
        self.progress.report(token, message, percentage)

    def on_progress_cancel(self, token: str | None, callback: Callable[[], None]) -> None:
        self.progress.on_cancel(token, callback)

    def end_progress(self, token: str | None, message: str) -> None:
        self.progress.end(token, message)

    async def apply_edit(self, edit: types.WorkspaceEdit, label: str) -> bool:
        """Ask the client to apply `edit` (``workspace/applyEdit``); whether it did."""
        try:
            result = await self.workspace_apply_edit_async(
                types.ApplyWorkspaceEditParams(edit=edit, label=label)
            )
        except Exception as exc:  # a client without applyEdit, or one that failed
            self.log(f"akgen: the editor did not apply the edit: {exc}", types.MessageType.Warning)
            return False
        return bool(result.applied)

    def notify_status(self, **fields: Any) -> None:
        """Send ``akgen/status`` (the clients' status bar / status line): the fields given, merged into the rest.
        Only to a client that asks for it (``capabilities.experimental.akgenStatus``: our VS Code and Neovim
        clients); the others see the same through progress and messages."""
        self.status.update(fields)
        try:
            experimental = self.client_capabilities.experimental
        except AttributeError:  # not initialized (unit tests)
            return
        if not (isinstance(experimental, dict) and experimental.get("akgenStatus")):
            return
        try:
            self.protocol.notify(STATUS_METHOD, self.status)
        except Exception:  # no transport (unit tests) or the client is gone
            log.debug("could not send %s", STATUS_METHOD)

    # ------------------------------------------------------------------------------------------- documents

    @property
    def catalog(self) -> Catalog:
        return load_catalog()

    def document(self, uri: str) -> TextDocument:
        return self.workspace.get_text_document(uri)

    def is_open(self, uri: str) -> bool:
        return uri in self.workspace.text_documents

    def state(self, uri: str) -> DocumentState:
        """What the server keeps of the document `uri` (made on first use; `forget` drops it)."""
        state = self.documents.get(uri)
        if state is None:
            state = self.documents[uri] = DocumentState()
        return state

    def settings_for(self, doc: TextDocument) -> Settings:
        return self.settings.for_path(doc.path)

    def is_ascendc(self, doc: TextDocument, settings: Settings | None = None) -> bool:
        settings = settings or self.settings_for(doc)
        return diagnostics.is_ascendc_document(doc.path, doc.source, settings)

    def at_position(
        self, uri: str, position: types.Position
    ) -> tuple[TextDocument, Settings, Lines, int, int] | None:
        """For a request at a position: the document, its settings, its line index and the 0-based line and
        code-point column; None when the document is not AscendC."""
        doc = self.document(uri)
        settings = self.settings_for(doc)
        if not self.is_ascendc(doc, settings):
            return None
        lines = Lines(doc.source, doc.position_codec)
        line, char = lines.to_code_points(position)
        return doc, settings, lines, line, char

    # ------------------------------------------------------------------------------------------- client capabilities

    def client_supports_document_changes(self) -> bool:
        ws = self.client_capabilities.workspace
        return bool(ws and ws.workspace_edit and ws.workspace_edit.document_changes)

    def client_supports_create_files(self) -> bool:
        """Whether a workspace edit may create a file (``resourceOperations`` has ``create``)."""
        ws = self.client_capabilities.workspace
        ops = ws.workspace_edit.resource_operations if ws and ws.workspace_edit else None
        return bool(ops and types.ResourceOperationKind.Create in ops)

    def client_resolves_edits(self) -> bool:
        td = self.client_capabilities.text_document
        ca = td.code_action if td else None
        return bool(ca and ca.resolve_support and "edit" in ca.resolve_support.properties)

    def client_resolves_docs(self) -> bool:
        td = self.client_capabilities.text_document
        item = td.completion.completion_item if td and td.completion else None
        return bool(item and item.resolve_support and "documentation" in item.resolve_support.properties)

    def client_markdown(self, feature: str) -> bool:
        """Whether the client renders markdown in `feature` ("hover", "completion", "signature")."""
        td = self.client_capabilities.text_document
        formats = None
        if td is not None and feature == "hover" and td.hover:
            formats = td.hover.content_format
        elif td is not None and feature == "completion" and td.completion and td.completion.completion_item:
            formats = td.completion.completion_item.documentation_format
        elif (
            td is not None
            and feature == "signature"
            and td.signature_help
            and td.signature_help.signature_information
        ):
            formats = td.signature_help.signature_information.documentation_format
        return bool(formats) and types.MarkupKind.Markdown in formats

    def client_supports_snippets(self) -> bool:
        td = self.client_capabilities.text_document
        item = td.completion.completion_item if td and td.completion else None
        return bool(item and item.snippet_support)

    # ------------------------------------------------------------------------------------------- lint source

    def schedule_lint(self, uri: str, delay_s: float) -> None:
        self.scheduler.schedule(uri, diagnostics.SOURCE, lambda: self.lint_and_publish(uri), delay_s)

    async def lint_and_publish(self, uri: str) -> None:
        if not self.is_open(uri):
            return
        doc = self.document(uri)
        text, version, path = doc.source, doc.version, doc.path
        settings = self.settings_for(doc)
        self.show_problems()  # an akgen.toml that stopped parsing since the last lint: say so once
        try:
            findings, parsed = await self.scheduler.run_in_worker(
                diagnostics.lint_incremental, text, path, settings, self.state(uri).parsed
            )
        except Exception as exc:  # a broken rule module or data file: say so once, keep serving
            problem = f"akgen: the static checks failed ({type(exc).__name__}: {exc}); see the server log"
            if problem not in self._lint_failures:
                self._lint_failures.add(problem)
                log.exception("lint of %s failed", uri)
                self.log(problem, types.MessageType.Error)
            return
        if not self.is_open(uri):
            return  # closed meanwhile: nothing is kept of it
        state = self.state(uri)
        state.parsed = parsed  # the next lint of this document re-parses incrementally from it
        if self.document(uri).version != version:
            return  # superseded: a newer version is scheduled
        lines = Lines(text, doc.position_codec)
        state.lint = (version, findings or [])
        entry = state.diagnostics
        had_any = bool(entry.merged())
        entry.set(diagnostics.SOURCE, version, [to_diagnostic(f, lines) for f in findings or ()])
        if findings is not None or had_any:
            # an AscendC document always gets its (possibly empty) list; any other only loses what it had
            self.publish(uri, version)

    # ------------------------------------------------------------------------------------------- other sources

    def publish_findings(
        self,
        uri: str,
        source: str,
        findings: Sequence[Finding],
        version: int | None = None,
        text: str | None = None,
    ) -> None:
        """Replace the diagnostics of one source (``build``, ``run``) for an open document and publish the merge
        (`publish_sources` with one source).

        `version` is the document version the findings were computed for (the current one when None) and `text`
        that version's text. Findings of an older version are moved to the current text (a line diff from `text`;
        those on changed lines dropped), or dropped when `text` is not given. From then on they follow each edit
        (`follow_edits`). Their fixes become quick fixes.
        """
        self.publish_sources(uri, {source: findings}, version, text)

    def publish_sources(
        self,
        uri: str,
        by_source: Mapping[str, Sequence[Finding]],
        version: int | None = None,
        text: str | None = None,
    ) -> None:
        """Replace the diagnostics of several sources at once (a check's ``build`` and ``run``) and publish the merge
        once: one publishDiagnostics per result."""
        if not self.is_open(uri):
            return
        doc = self.document(uri)
        version = doc.version if version is None else version
        moves = None
        if version != doc.version:
            if text is None:
                return  # positions for a text we no longer have
            moves = [tracking.line_map(text, doc.source)]
        lines = Lines(doc.source, doc.position_codec)
        state = self.state(uri)
        for source, findings in by_source.items():
            placed = tracking.move_findings(findings, moves) if moves is not None else list(findings)
            state.checked[source] = (doc.version, placed)
            state.diagnostics.set(source, doc.version, [to_diagnostic(f, lines) for f in placed])
        state.tracked_text = doc.source
        self.publish(uri, doc.version)

    def publish_file(self, uri: str, findings: Sequence[Finding]) -> None:
        """Diagnostics for a file that is not open (a header a checked kernel includes), placed in its text on disk
        (nothing when it cannot be read; an empty list clears what the client shows for it)."""
        if self.is_open(uri):
            return
        text = ""
        if findings:
            try:
                text = read_regular(Path(to_fs_path(uri) or ""), MAX_PUBLISHED_FILE).decode(
                    "utf-8", "replace"
                )
            except OSError:
                return
        lines = Lines(text, self.workspace.position_codec)
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=[to_diagnostic(f, lines) for f in findings])
        )

    def follow_edits(self, uri: str, changes: Sequence[types.TextDocumentContentChangeEvent]) -> bool:
        """Move the build and run findings of `uri` with a didChange's content changes; True when some were kept
        or dropped (the caller publishes with the next lint)."""
        if not self.is_open(uri):
            return False
        state = self.state(uri)
        sources, old = state.checked, state.tracked_text
        if not sources or old is None:
            return False
        doc = self.document(uri)
        moves, text = tracking.changes_in_code_points(old, changes, doc.position_codec)
        if text != doc.source:  # we missed a change: positions cannot be trusted any more
            log.debug("tracking lost the text of %s; dropping its check findings", uri)
            moves, text = [tracking.line_map(old, doc.source)], doc.source
        state.tracked_text = text
        lines = Lines(text, doc.position_codec)
        for source, (_, found) in list(sources.items()):
            kept = tracking.move_findings(found, moves)
            sources[source] = (doc.version, kept)
            state.diagnostics.set(source, doc.version, [to_diagnostic(f, lines) for f in kept])
        return True

    def publish_logged(self, uri: str) -> None:
        """An opened document with findings from a build log in the workspace: show them (source ``log``)."""
        doc = self.document(uri)
        logged = self.workspace_lint.logged(doc.path) if doc.path else []
        if logged:
            self.publish_findings(uri, LOG_SOURCE, logged)

    def clear_source(self, uri: str, source: str) -> None:
        """Drop one source's diagnostics for a document (a new build started, the document closed)."""
        self.clear_sources(uri, (source,))

    def clear_sources(self, uri: str, sources: Sequence[str]) -> None:
        """Drop some sources' diagnostics for an open document; publish once if it showed any of them."""
        if not self.is_open(uri):
            return
        state = self.state(uri)
        shown = False
        for source in sources:
            state.checked.pop(source, None)
            shown = shown or bool(state.diagnostics.by_source.get(source, (None, []))[1])
            state.diagnostics.clear(source)
        if shown:
            self.publish(uri, self.document(uri).version)

    def publish(self, uri: str, version: int | None) -> None:
        diags = self.state(uri).diagnostics.merged()
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=diags, version=version)
        )

    async def current_findings(self, doc: TextDocument) -> list[Finding]:
        """The findings for the document's current text: lint (re-linted if the last lint is stale) and the other
        sources' findings for this version (moved along the edits since their check)."""
        state = self.state(doc.uri)
        others = state.checked_findings(doc.version)
        version, findings = state.lint or (None, [])
        if version is not None and version == doc.version:
            return findings + others
        settings = self.settings_for(doc)
        found = await self.scheduler.run_in_worker(diagnostics.lint_document, doc.source, doc.path, settings)
        return (found or []) + others

    def relint_all(self) -> None:
        for uri in list(self.workspace.text_documents):
            self.state(uri).lint = None
            self.schedule_lint(uri, 0.0)

    def files_changed(self, paths: list[str]) -> None:
        """Files changed on disk (the editor's watcher or ours): a check ahead may have read one of them, unless it
        is an open document (its own changes come as edits and saves)."""
        if any(not self.is_open(from_fs_path(p) or "") for p in paths):
            self.checks.ahead.invalidate()

    def forget(self, uri: str) -> None:
        """A closed document: cancel its work, drop what we kept, clear what the client shows."""
        self.scheduler.cancel(uri)
        self.checks.ahead.cancel(uri)
        self.repairs.forget(uri)
        state = self.documents.pop(uri, None)
        if state is not None and state.diagnostics.merged():
            self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
        self.watcher_pending.pop(uri, None)
        self.checks.headers.closed(self, uri)  # a header keeps the findings a kernel's check put in it

    # ------------------------------------------------------------------------------------------- lifetime

    def forward_logs(self) -> None:
        """Our log records at INFO and above go to the client as ``window/logMessage`` (VS Code's output channel
        shows them with their level); stderr keeps warnings and errors only (an editor logs all of stderr as errors)."""
        handler = _LogForwarder(self)
        handler.setLevel(logging.INFO)
        logging.getLogger("akgen_lsp").addHandler(handler)
        logging.getLogger("akgen.model").addHandler(handler)
        for h in logging.getLogger().handlers:
            h.setLevel(max(h.level, logging.WARNING))

    def watch_client(self, pid: int | None) -> None:
        """Exit when process `pid` (the editor) exits; nothing for None or a process we cannot see."""
        if pid is not None and not lifetime.watch_process(pid, self._editor_gone):
            log.info("not watching the editor's process %s: it is not visible from here", pid)

    def _editor_gone(self, pid: int) -> None:
        """From the watch thread: the editor exited without shutting us down. Kill the checks, then exit."""
        log.warning("the editor (process %d) is gone; the akgen server exits", pid)
        self.checks.worker.kill_now()
        os._exit(0)

    async def close(self) -> None:
        if self.watcher is not None:
            self.watcher.stop()
            self.watcher = None
        await self.scheduler.close()
        await self.inline.close()
        await self.checks.close()


class _LogForwarder(logging.Handler):
    _KINDS = (
        (logging.ERROR, types.MessageType.Error),
        (logging.WARNING, types.MessageType.Warning),
        (logging.INFO, types.MessageType.Info),
    )

    def __init__(self, server: AkgenServer) -> None:
        super().__init__()
        self.server = server
        self.setFormatter(logging.Formatter("%(name)s: %(message)s"))

    def emit(self, record: logging.LogRecord) -> None:
        kind = next((k for level, k in self._KINDS if record.levelno >= level), types.MessageType.Log)
        message = self.format(record)
        loop = self.server.loop
        try:
            if loop is not None and threading.current_thread() is not threading.main_thread():
                loop.call_soon_threadsafe(self.server.log, message, kind)
            else:
                self.server.log(message, kind)
        except RuntimeError:  # the loop is closed
            pass
