"""The protocol layer: pygls wiring. Each handler is a module-level function of a few lines over `server.AkgenServer`
and `features/`, which know no transport (clangd's shape: protocol -> features -> scheduler), registered with
`@feature(method, options, empty=...)`; `create_server` puts them all on a server behind one error guard (`guarded`).

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
from dataclasses import dataclass
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
F = TypeVar("F", bound=Callable[..., Any])

# Documents larger than this many characters are linted once the typing pauses for twice the debounce.
LARGE_DOCUMENT = 400_000


def guarded(
    fn: Callable[[AkgenServer, Any], Awaitable[R]], empty: Callable[[Any], R]
) -> Callable[[AkgenServer, Any], Awaitable[R]]:
    """`fn` that logs an exception and answers `empty(params)`: one broken request must not break the session.
    `create_server` applies it to every handler of this module.

    `asyncio.CancelledError` is not an `Exception` and propagates, so pygls answers RequestCancelled.
    """

    @functools.wraps(fn)
    async def wrapper(ls: AkgenServer, params: Any) -> R:
        try:
            return await fn(ls, params)
        except Exception as exc:
            log.exception("%s failed", fn.__name__)
            ls.log(f"akgen: {fn.__name__} failed: {type(exc).__name__}: {exc}", types.MessageType.Error)
            return empty(params)

    del wrapper.__wrapped__  # pygls inspects the signature: it must see (ls, params)
    return wrapper


def guarded_command(
    what: str, fn: Callable[[AkgenServer, list[Any]], Awaitable[Any]], show: bool = False
) -> Callable[..., Awaitable[Any]]:
    """A ``workspace/executeCommand`` handler over `fn(ls, arguments)`: an exception is logged (`show`: shown as a
    message) and the command answers null."""

    async def handler(ls: AkgenServer, *arguments: Any) -> Any:
        try:
            return await fn(ls, list(arguments))
        except Exception as exc:
            log.exception("command %s failed", what)
            say = ls.show if show else ls.log
            say(f"akgen: {what} failed: {type(exc).__name__}: {exc}", types.MessageType.Error)
            return None

    return handler


@dataclass(frozen=True)
class Handler:
    method: str
    options: Any
    fn: Callable[[AkgenServer, Any], Awaitable[Any]]
    empty: Callable[[Any], Any]  # the answer when `fn` raises, from its params


HANDLERS: list[Handler] = []  # every LSP handler of this module, in the order written


def feature(method: str, options: Any = None, *, empty: Callable[[Any], Any]) -> Callable[[F], F]:
    """Register a module-level handler of `method` (`create_server` registers it on each server, guarded)."""

    def register(fn: F) -> F:
        HANDLERS.append(Handler(method, options, fn, empty))
        return fn

    return register


def _none(_: Any = None) -> None:
    return None


def _empty_list(_: Any = None) -> list[Any]:
    return []


def _unchanged(params: R) -> R:
    """A resolve request that fails answers with what it was given."""
    return params


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


# --------------------------------------------------------------------------------- lifecycle, settings


@feature(types.INITIALIZE, empty=_none)
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


@feature(types.INITIALIZED, empty=_none)
async def initialized(ls: AkgenServer, params: types.InitializedParams) -> None:
    ls.show_problems()
    # load the catalog, the rules and the parser in the worker now, not on the first hover or keystroke
    ls.scheduler.schedule("", "warm-up", lambda: ls.scheduler.run_in_worker(_warm_up))
    ls.notify_status(server=commands.server_status(ls.settings.for_path(None)))
    watch.start(ls)


@feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION, empty=_none)
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


@feature(types.SHUTDOWN, empty=_none)
async def shutdown(ls: AkgenServer, params: Any) -> None:
    await ls.close()


# --------------------------------------------------------------------------------- documents


@feature(types.TEXT_DOCUMENT_DID_OPEN, empty=_none)
async def did_open(ls: AkgenServer, params: types.DidOpenTextDocumentParams) -> None:
    uri = params.text_document.uri
    ls.schedule_lint(uri, 0.0)
    ls.publish_logged(uri)
    ls.checks.headers.opened(
        ls, uri
    )  # a header shows what the checks of the kernels including it found there
    ls.workspace_lint.changed()  # a waiting workspace pull answers: this file's report is the push's now
    doc = ls.document(uri)
    settings = ls.settings_for(doc)
    if ls.is_ascendc(doc, settings):
        ls.checks.warm(ls, settings)  # the first AscendC file starts the check worker and builds the PCH


@feature(types.TEXT_DOCUMENT_DID_CHANGE, empty=_none)
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
    watch.document_changed(ls, uri)  # the editor reloaded a file changed on disk: it is checked again


@feature(types.TEXT_DOCUMENT_WILL_SAVE, empty=_none)
async def will_save(ls: AkgenServer, params: types.WillSaveTextDocumentParams) -> None:
    if ls.is_open(params.text_document.uri):
        ls.state(params.text_document.uri).save_reason = params.reason


@feature(types.TEXT_DOCUMENT_DID_SAVE, empty=_none)
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


@feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES, empty=_none)
async def did_change_watched_files(ls: AkgenServer, params: types.DidChangeWatchedFilesParams) -> None:
    watch.changed(ls, [to_fs_path(c.uri) or "" for c in params.changes])


@feature(types.TEXT_DOCUMENT_DID_CLOSE, empty=_none)
async def did_close(ls: AkgenServer, params: types.DidCloseTextDocumentParams) -> None:
    ls.forget(params.text_document.uri)
    ls.workspace_lint.changed()  # the workspace pull reports it again


# --------------------------------------------------------------------------------- language features


@feature(types.TEXT_DOCUMENT_HOVER, empty=_none)
async def on_hover(ls: AkgenServer, params: types.HoverParams) -> types.Hover | None:
    found = ls.at_position(params.text_document.uri, params.position)
    if found is None:
        return None
    doc, settings, lines, line, char = found
    state = ls.state(doc.uri)
    version, findings = state.lint or (None, [])
    here = hover.findings_at(findings if version == doc.version else [], line, char)
    result = hover.hover(
        doc.source, line, char, settings, ls.catalog, [f.code for f in here], here, state.parsed
    )
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


@feature(
    types.TEXT_DOCUMENT_COMPLETION,
    types.CompletionOptions(trigger_characters=completion.TRIGGER_CHARACTERS, resolve_provider=True),
    empty=_none,
)
async def on_completion(ls: AkgenServer, params: types.CompletionParams) -> types.CompletionList | None:
    found = ls.at_position(params.text_document.uri, params.position)
    if found is None:
        return None
    doc, settings, _, line, char = found
    items = completion.complete(
        doc.source,
        line,
        char,
        settings,
        ls.catalog,
        ls.client_supports_snippets(),
        ls.client_resolves_docs(),
        ls.state(doc.uri).parsed,
    )
    if not ls.client_markdown("completion"):
        items = [completion.plain_documentation(item) for item in items]
    return types.CompletionList(is_incomplete=False, items=items)


@feature(types.COMPLETION_ITEM_RESOLVE, empty=_unchanged)
async def on_completion_resolve(ls: AkgenServer, item: types.CompletionItem) -> types.CompletionItem:
    item = completion.resolve(item, ls.catalog)
    return item if ls.client_markdown("completion") else completion.plain_documentation(item)


@feature(
    types.TEXT_DOCUMENT_SIGNATURE_HELP,
    types.SignatureHelpOptions(
        trigger_characters=signature.TRIGGER_CHARACTERS, retrigger_characters=signature.RETRIGGER_CHARACTERS
    ),
    empty=_none,
)
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


@feature(
    types.TEXT_DOCUMENT_CODE_ACTION,
    types.CodeActionOptions(
        code_action_kinds=[types.CodeActionKind.QuickFix, code_actions.FIX_ALL_KIND], resolve_provider=True
    ),
    empty=_empty_list,
)
async def on_code_action(ls: AkgenServer, params: types.CodeActionParams) -> list[types.CodeAction]:
    doc = ls.document(params.text_document.uri)
    if not ls.is_ascendc(doc):
        return []
    version = doc.version
    findings = await ls.current_findings(doc)
    if ls.document(doc.uri).version != version:
        return []  # the text moved on while we linted: positions would be wrong
    request = code_actions.Request(
        doc.uri,
        version,
        doc.path,
        Lines(doc.source, doc.position_codec),
        findings,
        params.range,
        params.context.diagnostics,
        ls.client_supports_document_changes(),
        params.context.only,
    )
    fix_all = code_actions.fix_all_source_action(ls.client_resolves_edits())
    return code_actions.code_actions(request, [*ls.code_action_providers, fix_all])


@feature(types.CODE_ACTION_RESOLVE, empty=_unchanged)
async def on_code_action_resolve(ls: AkgenServer, action: types.CodeAction) -> types.CodeAction:
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
    return action


@feature(types.TEXT_DOCUMENT_INLINE_COMPLETION, types.InlineCompletionOptions(), empty=_none)
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


@feature(types.WORKSPACE_DIAGNOSTIC, empty=lambda _: types.WorkspaceDiagnosticReport(items=[]))
async def on_workspace_diagnostic(
    ls: AkgenServer, params: types.WorkspaceDiagnosticParams
) -> types.WorkspaceDiagnosticReport:
    return await workspace_diagnostics.report(ls, params)


@feature(
    types.TEXT_DOCUMENT_DIAGNOSTIC,
    types.DiagnosticOptions(inter_file_dependencies=False, workspace_diagnostics=True, identifier="akgen"),
    empty=lambda _: types.RelatedFullDocumentDiagnosticReport(items=[]),
)
async def on_document_diagnostic(
    ls: AkgenServer, params: types.DocumentDiagnosticParams
) -> types.RelatedFullDocumentDiagnosticReport:
    return await workspace_diagnostics.document_report(ls, params.text_document.uri)


def create_server() -> AkgenServer:
    """A server with every handler of this module registered, each behind the one error guard (`guarded`)."""
    server = AkgenServer()
    for h in HANDLERS:
        wrapped = guarded(h.fn, h.empty)
        if h.options is None:
            server.feature(h.method)(wrapped)
        else:
            server.feature(h.method, h.options)(wrapped)
    for name in commands.COMMANDS:
        server.command(name)(guarded_command(name, functools.partial(_command, name=name)))
    for name in commands.GENERATE_COMMANDS:
        server.command(name)(guarded_command(name, functools.partial(_generate, name=name), show=True))
    server.command(repair.ACCEPTED)(guarded_command("remembering the repair", _repair_accepted))
    return server


async def _command(ls: AkgenServer, args: list[Any], name: str) -> Any:
    """``workspace/executeCommand`` for one of `commands.COMMANDS`."""
    return await commands.execute(ls, name, args)


async def _generate(ls: AkgenServer, args: list[Any], name: str) -> Any:
    """``workspace/executeCommand`` for "Generate kernel for this task" / "Improve performance"."""
    # loaded by name the first time (the loop and the bench pipeline it drives add a second to the start)
    generate = importlib.import_module("akgen_lsp.server.features.generate")
    uri = args[0].get("uri") if args and isinstance(args[0], dict) else (args[0] if args else None)
    return await generate.run(ls, name, uri if isinstance(uri, str) else None)


async def _repair_accepted(ls: AkgenServer, args: list[Any]) -> Any:
    uri, version, key = args[0], args[1], list(args[2])
    return await repair.repair_accepted(ls, uri, version, key)
