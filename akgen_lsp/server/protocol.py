"""The protocol layer: pygls wiring. Each handler is a few lines over `server.AkgenServer` and `features/`, which
know no transport (clangd's shape: protocol -> features -> scheduler).

Handlers are ``async def``; the lint runs in the scheduler's worker thread with stale results dropped by document
version; checks run in the check worker's jobs; a handler that raises is logged and answers with an empty result,
and the server keeps serving.
"""

from __future__ import annotations

import asyncio
import functools
import importlib
import logging
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TypeVar

from lsprotocol import types
from pygls.uris import to_fs_path

from akgen_lsp.config import defaults
from akgen_lsp.server import watch
from akgen_lsp.server.convert import Lines
from akgen_lsp.server.features import (
    code_actions,
    commands,
    completion,
    diagnostics,
    hover,
    inline,
    repair,
    signature,
    workspace_diagnostics,
)
from akgen_lsp.server.features.save_check import should_check
from akgen_lsp.server.server import AkgenServer
from akgen_lsp.server.workspace import WorkspaceFiles

log = logging.getLogger("akgen_lsp.server")

R = TypeVar("R")

# Documents larger than this many characters are linted once the typing pauses for twice the debounce.
LARGE_DOCUMENT = 400_000


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


def _empty_list() -> list[Any]:
    return []


def _warm_up() -> None:
    try:
        diagnostics.lint_document("", "warm-up.asc", defaults())
    except Exception:  # the first real lint reports a broken rule or data file
        log.debug("warm-up failed", exc_info=True)


def _initialization_options(ls: AkgenServer, options: Any) -> dict[str, Any] | None:
    if options is None or options == []:  # Lua's empty table is a JSON []
        return None
    if not isinstance(options, dict):
        ls.settings.problems.append(
            "akgen: the editor's initialization options must be an object of akgen settings; they were ignored."
        )
        return None
    return options


def create_server() -> AkgenServer:
    server = AkgenServer()

    # --------------------------------------------------------------------------------- lifecycle, settings

    @server.feature(types.INITIALIZE)
    @guarded(_none)
    async def initialize(ls: AkgenServer, params: types.InitializeParams) -> None:
        ls.loop = asyncio.get_running_loop()
        root = None
        if params.workspace_folders:
            root = to_fs_path(params.workspace_folders[0].uri)
        elif params.root_uri:
            root = to_fs_path(params.root_uri)
        elif params.root_path:
            root = params.root_path
        ls.settings.root = Path(root) if root else None
        ls.files = WorkspaceFiles(ls.settings.root)
        ls.settings.set_options(_initialization_options(ls, params.initialization_options))
        ls.watch_client(params.process_id)

    @server.feature(types.INITIALIZED)
    @guarded(_none)
    async def initialized(ls: AkgenServer, params: types.InitializedParams) -> None:
        ls.show_problems()
        # load the catalog, the rules and the parser in the worker now, not on the first hover or keystroke
        ls.scheduler.schedule("", "warm-up", lambda: ls.scheduler.run_in_worker(_warm_up))
        ls.notify_status(server=commands.server_status(ls.settings.for_path(None)))
        watch.start(ls)

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
        ls.checks.ahead.invalidate()
        ls.relint_all()
        ls.notify_status(server=commands.server_status(ls.settings.for_path(None)))

    @server.feature(types.SHUTDOWN)
    @guarded(_none)
    async def shutdown(ls: AkgenServer, params: Any) -> None:
        await ls.close()

    # --------------------------------------------------------------------------------- documents

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    @guarded(_none)
    async def did_open(ls: AkgenServer, params: types.DidOpenTextDocumentParams) -> None:
        uri = params.text_document.uri
        ls.schedule_lint(uri, 0.0)
        ls.publish_logged(uri)
        ls.workspace_lint.changed()  # a waiting workspace pull answers: this file's report is the push's now
        doc = ls.document(uri)
        settings = ls.settings_for(doc)
        if ls.is_ascendc(doc, settings):
            ls.checks.warm(ls, settings)  # the first AscendC file starts the check worker and builds the PCH

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    @guarded(_none)
    async def did_change(ls: AkgenServer, params: types.DidChangeTextDocumentParams) -> None:
        uri = params.text_document.uri
        ls.follow_edits(uri, params.content_changes)  # build/run findings move with the text (published below)
        doc = ls.document(uri)
        settings = ls.settings_for(doc)
        delay = settings["lint.debounce_ms"] / 1000.0
        if len(doc.source) > LARGE_DOCUMENT:
            delay *= 2
        ls.schedule_lint(uri, delay)
        ls.checks.changed(ls, doc, settings)  # the save check starts ahead when typing pauses

    @server.feature(types.TEXT_DOCUMENT_WILL_SAVE)
    @guarded(_none)
    async def will_save(ls: AkgenServer, params: types.WillSaveTextDocumentParams) -> None:
        if ls.is_open(params.text_document.uri):
            ls.state(params.text_document.uri).save_reason = params.reason

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    @guarded(_none)
    async def did_save(ls: AkgenServer, params: types.DidSaveTextDocumentParams) -> None:
        uri = params.text_document.uri
        reason = None
        if ls.is_open(uri):
            reason, ls.state(uri).save_reason = ls.state(uri).save_reason, None
        if Path(to_fs_path(uri) or "").name == "akgen.toml":
            ls.checks.ahead.invalidate()
            ls.settings.clear()
            ls.relint_all()
            return
        if not ls.is_open(uri):
            ls.checks.ahead.invalidate()
            return
        doc = ls.document(uri)
        settings = ls.settings_for(doc)
        ahead = ls.checks.take_ahead(doc, settings)  # this text's check ahead; every other one is stale now
        if not should_check(settings["check_on_save"], reason) or not ls.is_ascendc(doc, settings):
            if ahead is not None:
                ahead.cancel()
            return
        # a new save replaces (cancels) the check still running for the previous one
        ls.scheduler.schedule(uri, "save:check", functools.partial(ls.checks.check, ls, doc, settings, ahead))

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    @guarded(_none)
    async def did_change_watched_files(ls: AkgenServer, params: types.DidChangeWatchedFilesParams) -> None:
        watch.changed(ls, [to_fs_path(c.uri) or "" for c in params.changes])

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    @guarded(_none)
    async def did_close(ls: AkgenServer, params: types.DidCloseTextDocumentParams) -> None:
        ls.forget(params.text_document.uri)
        ls.workspace_lint.changed()  # the workspace pull reports it again

    # --------------------------------------------------------------------------------- language features

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    @guarded(_none)
    async def on_hover(ls: AkgenServer, params: types.HoverParams) -> types.Hover | None:
        found = ls.at_position(params.text_document.uri, params.position)
        if found is None:
            return None
        doc, settings, lines, line, char = found
        state = ls.state(doc.uri)
        version, findings = state.lint or (None, [])
        here = hover.findings_at(findings if version == doc.version else [], line, char)
        result = hover.hover(doc.source, line, char, settings, ls.catalog, [f.code for f in here], here,
                             state.parsed)
        checked = state.checked_findings(doc.version)
        note = repair.hover_note(settings, hover.findings_at(checked, line, char))
        if note is not None:
            result = hover.with_note(result, note, line, char)
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
            doc.source, line, char, settings, ls.catalog, ls.client_supports_snippets(), ls.client_resolves_docs(),
            ls.state(doc.uri).parsed,
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
        help_ = signature.signature_help(doc.source, line, char, settings, ls.catalog, ls.state(doc.uri).parsed)
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
        request = code_actions.Request(
            doc.uri, version, doc.path, Lines(doc.source, doc.position_codec), findings, params.range,
            params.context.diagnostics, ls.client_supports_document_changes(), params.context.only,
        )
        fix_all = code_actions.fix_all_source_action(ls.client_resolves_edits())
        return code_actions.code_actions(request, [*ls.code_action_providers, fix_all])

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
            elif action.edit is None and repair.is_model_repair(action.data):
                action = await repair.resolve_model_repair(ls, action)  # cancellable: kills what it started
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
        if ls.inline.note:
            note, ls.inline.note = ls.inline.note, None
            ls.log(note, types.MessageType.Info)
        if result is None:
            return types.InlineCompletionList(items=[])
        return types.InlineCompletionList(items=inline.to_items(result, line, char, lines))

    # --------------------------------------------------------------------------------- workspace

    @server.feature(types.WORKSPACE_DIAGNOSTIC)
    @guarded(lambda: types.WorkspaceDiagnosticReport(items=[]))
    async def on_workspace_diagnostic(
        ls: AkgenServer, params: types.WorkspaceDiagnosticParams
    ) -> types.WorkspaceDiagnosticReport:
        return await workspace_diagnostics.report(ls, params)

    @server.feature(
        types.TEXT_DOCUMENT_DIAGNOSTIC,
        types.DiagnosticOptions(inter_file_dependencies=False, workspace_diagnostics=True, identifier="akgen"),
    )
    @guarded(lambda: types.RelatedFullDocumentDiagnosticReport(items=[]))
    async def on_document_diagnostic(
        ls: AkgenServer, params: types.DocumentDiagnosticParams
    ) -> types.RelatedFullDocumentDiagnosticReport:
        return await workspace_diagnostics.document_report(ls, params.text_document.uri)

    for name in commands.COMMANDS:
        server.command(name)(_command_handler(name))
    for name in commands.GENERATE_COMMANDS:
        server.command(name)(_generate_handler(name))

    @server.command(repair.ACCEPTED)
    async def repair_accepted(ls: AkgenServer, *arguments: Any) -> Any:
        try:
            uri, version, key = arguments[0], arguments[1], list(arguments[2])
            return await repair.repair_accepted(ls, uri, version, key)
        except Exception as exc:
            log.exception("%s failed", repair.ACCEPTED)
            ls.log(f"akgen: remembering the repair failed: {type(exc).__name__}: {exc}", types.MessageType.Error)
            return None

    return server


def _generate_handler(name: str) -> Callable[..., Awaitable[Any]]:
    """``workspace/executeCommand`` for "Generate kernel for this task" / "Improve performance"."""

    async def handler(ls: AkgenServer, *arguments: Any) -> Any:
        try:
            # loaded by name the first time (the loop and the bench pipeline it drives add a second to the start)
            generate = importlib.import_module("akgen_lsp.server.features.generate")
            args = list(arguments)
            uri = args[0].get("uri") if args and isinstance(args[0], dict) else (args[0] if args else None)
            return await generate.run(ls, name, uri if isinstance(uri, str) else None)
        except Exception as exc:
            log.exception("command %s failed", name)
            ls.show(f"akgen: {name} failed: {type(exc).__name__}: {exc}", types.MessageType.Error)
            return None

    return handler


def _command_handler(name: str) -> Callable[..., Awaitable[Any]]:
    """``workspace/executeCommand`` for one of `commands.COMMANDS` (an error is logged and answers null)."""

    async def handler(ls: AkgenServer, *arguments: Any) -> Any:
        try:
            return await commands.execute(ls, name, list(arguments))
        except Exception as exc:
            log.exception("command %s failed", name)
            ls.log(f"akgen: {name} failed: {type(exc).__name__}: {exc}", types.MessageType.Error)
            return None

    return handler
