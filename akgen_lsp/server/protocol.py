"""The protocol layer: pygls wiring. Each handler is a few lines over `features/`, which know no transport.

Handlers are ``async def``; the lint runs in the scheduler's worker thread with stale results dropped by document
version; a handler that raises is logged and answers with an empty result, and the server keeps serving.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pygls.lsp.server import LanguageServer
from pygls.protocol import LanguageServerProtocol
from pygls.uris import to_fs_path
from pygls.workspace import TextDocument

from akgen_lsp.ascendc.catalog import Catalog, load_catalog
from akgen_lsp.ascendc.syntax import ParsedFile
from akgen_lsp.config import Settings, defaults
from akgen_lsp.findings import Finding
from akgen_lsp.server.convert import Lines, to_diagnostic
from akgen_lsp.server.features import code_actions, completion, diagnostics, hover, inline, signature
from akgen_lsp.server.features.save_check import check_on_save
from akgen_lsp.server.scheduler import Scheduler
from akgen_lsp.server.session import DiagnosticStore, SettingsProvider

log = logging.getLogger("akgen_lsp.server")


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("akgen-lsp")
    except Exception:  # running from a source tree without metadata
        return "0.0.0"


R = TypeVar("R")

# A check run on save (build, run): it publishes with `AkgenServer.publish_findings(uri, source, ...)`. A new save
# of the document cancels the running one (CancelledError at its next await: kill the subprocess group there).
SaveCheck = Callable[["AkgenServer", TextDocument, Settings], Awaitable[None]]

# Documents larger than this many characters are linted once the typing pauses for twice the debounce.
LARGE_DOCUMENT = 400_000


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
            _version(),
            text_document_sync_kind=types.TextDocumentSyncKind.Incremental,
            protocol_cls=AkgenProtocol,
        )
        self.settings = SettingsProvider()
        self.store = DiagnosticStore()
        self.scheduler = Scheduler()
        self.inline = inline.InlineCompletions()
        # the findings of the last lint of each document: (version, findings)
        self.findings: dict[str, tuple[int | None, list[Finding]]] = {}
        # findings of the other sources (build, run) per document: source -> (version, findings)
        self.other_findings: dict[str, dict[str, tuple[int | None, list[Finding]]]] = {}
        # each open document's last parse, from which the next lint re-parses incrementally
        self.parsed: dict[str, ParsedFile] = {}
        self._lint_failures: set[str] = set()
        # checks run on save when `check_on_save` is on, by source name (issue 3/4 register "build" and "run")
        self.save_checks: dict[str, SaveCheck] = {}

    # ------------------------------------------------------------------------------------------- helpers

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

    @property
    def catalog(self) -> Catalog:
        return load_catalog()

    def document(self, uri: str) -> TextDocument:
        return self.workspace.get_text_document(uri)

    def is_open(self, uri: str) -> bool:
        return uri in self.workspace.text_documents

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

    def show_problems(self) -> None:
        for problem in self.settings.take_problems():
            self.show(problem)

    def client_supports_document_changes(self) -> bool:
        ws = self.client_capabilities.workspace
        return bool(ws and ws.workspace_edit and ws.workspace_edit.document_changes)

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
        elif td is not None and feature == "signature" and td.signature_help and td.signature_help.signature_information:
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
                diagnostics.lint_incremental, text, path, settings, self.parsed.get(uri)
            )
        except Exception as exc:  # a broken rule module or data file: say so once, keep serving
            problem = f"akgen: the static checks failed ({type(exc).__name__}: {exc}); see the server log"
            if problem not in self._lint_failures:
                self._lint_failures.add(problem)
                log.exception("lint of %s failed", uri)
                self.log(problem, types.MessageType.Error)
            return
        if parsed is not None:
            self.parsed[uri] = parsed  # the next lint of this document re-parses incrementally from it
        else:
            self.parsed.pop(uri, None)
        if not self.is_open(uri) or self.document(uri).version != version:
            return  # superseded: a newer version is scheduled
        lines = Lines(text, doc.position_codec)
        self.findings[uri] = (version, findings or [])
        entry = self.store.document(uri)
        had_any = bool(entry.merged())
        entry.set(diagnostics.SOURCE, version, [to_diagnostic(f, lines) for f in findings or ()])
        if findings is not None or had_any:
            # an AscendC document always gets its (possibly empty) list; any other only loses what it had
            self.publish(uri, version)

    def publish_findings(self, uri: str, source: str, findings: Sequence[Finding], version: int | None = None) -> None:
        """Replace the diagnostics of one source (``build``, ``run``) for an open document and publish the merge.

        `version` is the document version the findings were computed for (the current one when None); findings of
        an older version are dropped, since their positions may no longer be right. Their fixes become quick fixes.
        """
        if not self.is_open(uri):
            return
        doc = self.document(uri)
        version = doc.version if version is None else version
        if version != doc.version:
            return
        lines = Lines(doc.source, doc.position_codec)
        self.other_findings.setdefault(uri, {})[source] = (version, list(findings))
        self.store.document(uri).set(source, version, [to_diagnostic(f, lines) for f in findings])
        self.publish(uri, doc.version)

    def clear_source(self, uri: str, source: str) -> None:
        """Drop one source's diagnostics for a document (a new build started, the document closed)."""
        self.other_findings.get(uri, {}).pop(source, None)
        entry = self.store.document(uri)
        if entry.by_source.get(source, (None, []))[1]:
            entry.clear(source)
            if self.is_open(uri):
                self.publish(uri, self.document(uri).version)
        else:
            entry.clear(source)

    def publish(self, uri: str, version: int | None) -> None:
        diags = self.store.document(uri).merged()
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, diagnostics=diags, version=version)
        )

    async def current_findings(self, doc: TextDocument) -> list[Finding]:
        """The findings for the document's current text: lint (re-linted if the last lint is stale) and the other
        sources' findings made for this version."""
        others = [
            f
            for version, found in self.other_findings.get(doc.uri, {}).values()
            if version == doc.version
            for f in found
        ]
        version, findings = self.findings.get(doc.uri, (None, []))
        if version is not None and version == doc.version:
            return findings + others
        settings = self.settings_for(doc)
        found = await self.scheduler.run_in_worker(diagnostics.lint_document, doc.source, doc.path, settings)
        return (found or []) + others

    def relint_all(self) -> None:
        for uri in list(self.workspace.text_documents):
            self.findings.pop(uri, None)
            self.schedule_lint(uri, 0.0)

    async def close(self) -> None:
        await self.scheduler.close()
        await self.inline.close()


def guarded(empty: Callable[[], R]) -> Callable[[Callable[[AkgenServer, Any], Awaitable[R]]], Any]:
    """Log an exception and answer with `empty()`: one broken request must not break the session.

    `asyncio.CancelledError` is not an `Exception` and propagates, so pygls answers RequestCancelled.
    """

    def deco(fn: Callable[[AkgenServer, Any], Awaitable[R]]) -> Callable[[AkgenServer, Any], Awaitable[R]]:
        @functools.wraps(fn)
        async def wrapper(ls: AkgenServer, params: Any) -> R:
            try:
                return await fn(ls, params)
            except Exception as exc:
                log.exception("%s failed", fn.__name__)
                ls.log(f"akgen: {fn.__name__} failed: {type(exc).__name__}: {exc}", types.MessageType.Error)
                return empty()

        del wrapper.__wrapped__  # pygls inspects the signature: it must see (ls, params)
        return wrapper

    return deco


def _none() -> None:
    return None


def _warm_up() -> None:
    try:
        diagnostics.lint_document("", "warm-up.asc", defaults())
    except Exception:  # the first real lint reports a broken rule or data file
        log.debug("warm-up failed", exc_info=True)


def _empty_list() -> list[Any]:
    return []


def create_server() -> AkgenServer:
    server = AkgenServer()
    server.save_checks["build"] = check_on_save  # compile, run, compare, estimate (publishes build and run)

    # --------------------------------------------------------------------------------- lifecycle, settings

    @server.feature(types.INITIALIZE)
    @guarded(_none)
    async def initialize(ls: AkgenServer, params: types.InitializeParams) -> None:
        root = None
        if params.workspace_folders:
            root = to_fs_path(params.workspace_folders[0].uri)
        elif params.root_uri:
            root = to_fs_path(params.root_uri)
        elif params.root_path:
            root = params.root_path
        ls.settings.root = Path(root) if root else None
        options = params.initialization_options
        if options is not None and not isinstance(options, dict):
            ls.settings.problems.append(
                "akgen: the editor's initialization options must be an object of akgen settings; they were ignored."
            )
            options = None
        ls.settings.set_options(options)

    @server.feature(types.INITIALIZED)
    @guarded(_none)
    async def initialized(ls: AkgenServer, params: types.InitializedParams) -> None:
        ls.show_problems()
        # load the catalog, the rules and the parser in the worker now, not on the first hover or keystroke
        ls.scheduler.schedule("", "warm-up", lambda: ls.scheduler.run_in_worker(_warm_up))

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    @guarded(_none)
    async def did_change_configuration(ls: AkgenServer, params: types.DidChangeConfigurationParams) -> None:
        new = params.settings
        if isinstance(new, dict) and new:
            problem = ls.settings.set_options(new)
            if problem:
                ls.settings.take_problems()
                ls.show(problem)
        ls.settings.clear()
        ls.relint_all()

    @server.feature(types.SHUTDOWN)
    @guarded(_none)
    async def shutdown(ls: AkgenServer, params: Any) -> None:
        await ls.close()

    # --------------------------------------------------------------------------------- documents

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    @guarded(_none)
    async def did_open(ls: AkgenServer, params: types.DidOpenTextDocumentParams) -> None:
        ls.schedule_lint(params.text_document.uri, 0.0)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    @guarded(_none)
    async def did_change(ls: AkgenServer, params: types.DidChangeTextDocumentParams) -> None:
        uri = params.text_document.uri
        doc = ls.document(uri)
        settings = ls.settings_for(doc)
        delay = settings["lint.debounce_ms"] / 1000.0
        if len(doc.source) > LARGE_DOCUMENT:
            delay *= 2
        ls.schedule_lint(uri, delay)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    @guarded(_none)
    async def did_save(ls: AkgenServer, params: types.DidSaveTextDocumentParams) -> None:
        uri = params.text_document.uri
        if Path(to_fs_path(uri) or "").name == "akgen.toml":
            ls.settings.clear()
            ls.relint_all()
            return
        if not ls.save_checks or not ls.is_open(uri):
            return
        doc = ls.document(uri)
        settings = ls.settings_for(doc)
        if not settings["check_on_save"] or not ls.is_ascendc(doc, settings):
            return
        for name, check in ls.save_checks.items():
            # a new save replaces (cancels) the check still running for the previous one
            ls.scheduler.schedule(uri, f"save:{name}", functools.partial(check, ls, doc, settings))

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    @guarded(_none)
    async def did_change_watched_files(ls: AkgenServer, params: types.DidChangeWatchedFilesParams) -> None:
        # VS Code watches **/akgen.toml for us: a changed config file re-checks every open document
        if any(Path(to_fs_path(c.uri) or "").name == "akgen.toml" for c in params.changes):
            ls.settings.clear()
            ls.relint_all()

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    @guarded(_none)
    async def did_close(ls: AkgenServer, params: types.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        ls.scheduler.cancel(uri)
        ls.findings.pop(uri, None)
        ls.other_findings.pop(uri, None)
        ls.parsed.pop(uri, None)
        if ls.store.document(uri).merged():
            ls.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))
        ls.store.drop(uri)

    # --------------------------------------------------------------------------------- language features

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    @guarded(_none)
    async def on_hover(ls: AkgenServer, params: types.HoverParams) -> types.Hover | None:
        found = ls.at_position(params.text_document.uri, params.position)
        if found is None:
            return None
        doc, settings, lines, line, char = found
        text = doc.source
        version, findings = ls.findings.get(doc.uri, (None, []))
        codes = [
            f.code
            for f in findings
            if version == doc.version and f.span.line <= line + 1 <= f.span.end_line
            and (f.span.line < line + 1 or f.span.column <= char + 1)
            and (f.span.end_line > line + 1 or char + 1 <= f.span.end_column)
        ]
        result = hover.hover(text, line, char, settings, ls.catalog, codes)
        if result is None:
            return None
        rng = types.Range(
            lines.position(result.line + 1, result.start + 1), lines.position(result.line + 1, result.end + 1)
        )
        kind = types.MarkupKind.Markdown if ls.client_markdown("hover") else types.MarkupKind.PlainText
        return types.Hover(contents=types.MarkupContent(kind=kind, value=result.markdown), range=rng)

    @server.feature(
        types.TEXT_DOCUMENT_COMPLETION,
        types.CompletionOptions(trigger_characters=completion.TRIGGER_CHARACTERS, resolve_provider=True),
    )
    @guarded(_none)
    async def on_completion(ls: AkgenServer, params: types.CompletionParams) -> types.CompletionList | None:
        found = ls.at_position(params.text_document.uri, params.position)
        if found is None:
            return None
        doc, settings, _, line, char = found
        items = completion.complete(
            doc.source, line, char, settings, ls.catalog, ls.client_supports_snippets(), ls.client_resolves_docs()
        )
        if not ls.client_markdown("completion"):
            items = [completion.plain_documentation(item) for item in items]
        return types.CompletionList(is_incomplete=False, items=items)

    @server.feature(types.COMPLETION_ITEM_RESOLVE)
    async def on_completion_resolve(ls: AkgenServer, item: types.CompletionItem) -> types.CompletionItem:
        try:
            item = completion.resolve(item, ls.catalog)
            return item if ls.client_markdown("completion") else completion.plain_documentation(item)
        except Exception as exc:
            log.exception("completionItem/resolve failed")
            ls.log(f"akgen: completionItem/resolve failed: {exc}", types.MessageType.Error)
            return item

    @server.feature(
        types.TEXT_DOCUMENT_SIGNATURE_HELP,
        types.SignatureHelpOptions(
            trigger_characters=signature.TRIGGER_CHARACTERS, retrigger_characters=signature.RETRIGGER_CHARACTERS
        ),
    )
    @guarded(_none)
    async def on_signature_help(ls: AkgenServer, params: types.SignatureHelpParams) -> types.SignatureHelp | None:
        found = ls.at_position(params.text_document.uri, params.position)
        if found is None:
            return None
        doc, settings, _, line, char = found
        help_ = signature.signature_help(doc.source, line, char, settings, ls.catalog)
        if help_ is not None and not ls.client_markdown("signature"):
            for sig in help_.signatures:
                if isinstance(sig.documentation, types.MarkupContent):
                    sig.documentation = sig.documentation.value
        return help_

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(
            code_action_kinds=[types.CodeActionKind.QuickFix, code_actions.FIX_ALL_KIND], resolve_provider=True
        ),
    )
    @guarded(_empty_list)
    async def on_code_action(ls: AkgenServer, params: types.CodeActionParams) -> list[types.CodeAction]:
        doc = ls.document(params.text_document.uri)
        if not ls.is_ascendc(doc):
            return []
        version = doc.version
        findings = await ls.current_findings(doc)
        if ls.document(doc.uri).version != version:
            return []  # the text moved on while we linted: positions would be wrong
        lines = Lines(doc.source, doc.position_codec)
        only = params.context.only
        doc_changes = ls.client_supports_document_changes()
        actions: list[types.CodeAction] = []
        if code_actions.wants(types.CodeActionKind.QuickFix, only):
            actions += code_actions.quick_fixes(findings, params.range, doc.uri, version, lines, doc.path, doc_changes)
        if code_actions.wants(code_actions.FIX_ALL_KIND, only):
            fix_all = code_actions.fix_all_action(
                findings, doc.uri, version, ls.client_resolves_edits(), lines, doc_changes
            )
            if fix_all is not None:
                actions.append(fix_all)
        return actions

    @server.feature(types.CODE_ACTION_RESOLVE)
    async def on_code_action_resolve(ls: AkgenServer, action: types.CodeAction) -> types.CodeAction:
        try:
            if action.edit is None and code_actions.is_fix_all(action.data):
                doc = ls.document(action.data["uri"])
                version = doc.version
                findings = await ls.current_findings(doc)
                lines = Lines(doc.source, doc.position_codec)
                action.edit = code_actions.fix_all_edit(
                    findings, doc.uri, version, lines, ls.client_supports_document_changes()
                )
        except Exception as exc:
            log.exception("codeAction/resolve failed")
            ls.log(f"akgen: codeAction/resolve failed: {exc}", types.MessageType.Error)
        return action

    @server.feature(types.TEXT_DOCUMENT_INLINE_COMPLETION, types.InlineCompletionOptions())
    @guarded(_none)
    async def on_inline_completion(
        ls: AkgenServer, params: types.InlineCompletionParams
    ) -> types.InlineCompletionList | None:
        uri = params.text_document.uri
        ls.scheduler.track(uri, "inline")  # a new request for the document cancels the previous one
        found = ls.at_position(uri, params.position)
        if found is None:
            return None
        doc, settings, lines, line, char = found
        result = await ls.inline.complete(doc.source, doc.path, line, char, settings)
        if ls.inline.problem:
            problem, ls.inline.problem = ls.inline.problem, None
            ls.show(problem)
        if result is None:
            return types.InlineCompletionList(items=[])
        return types.InlineCompletionList(items=inline.to_items(result, line, char, lines))

    return server
