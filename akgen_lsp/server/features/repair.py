""" "Fix this build error": the repair layer (`akgen_lsp.repair`) in the editor.

- **Certain fixes, verified.** After a check that fails (`SaveChecks.followups`), the deterministic fixes of its first
  errors (compiler fix-its, catalog renames, the FreeTensor, DataCopyPad, repeat-loop rewrites, ...) are checked on
  the simulator in the check worker and the build/run diagnostics are published again with the fixes that verified,
  each titled with what was verified; the lint quick-fix provider offers them (a single certain one is preferred).
  The first publication carries no fix: what is offered has verified.
- **The model repair.** With a model configured, every build / run / wrong-numbers diagnostic of the checked version
  gets "Fix with KernelGen-LM" in the action list at once (no edit: nothing waits for a model); `codeAction/resolve`
  runs `repair.model_repair` with work-done progress (cancellable) and returns a minimal, versioned edit of the
  checked version, titled with what was verified (never preferred). An edit of the document, its close, a
  `$/cancelRequest` or the progress's cancel button stop the work and kill every check it started; when nothing
  verifies, a message says why and nothing is applied. The resolved action carries the command
  ``akgen.server.repairAccepted``: once the client has applied the edit, the repair goes to the store of repairs.
- **Hover.** A build or run diagnostic's hover says how to configure a model when none is.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from lsprotocol import types

from akgen_lsp.check.result import Status, check_timeout
from akgen_lsp.check.worker import checker_for, plain_settings
from akgen_lsp.config import Settings
from akgen_lsp.findings import Finding
from akgen_lsp.model.backends import BackendError
from akgen_lsp.repair.backend import HOW_TO_CONFIGURE, model_configured, model_label, repair_model
from akgen_lsp.repair.deterministic import verified_fixes, with_fixes
from akgen_lsp.repair.edits import minimal_edits
from akgen_lsp.repair.model_repair import ModelRepair, model_repair
from akgen_lsp.repair.remember import remember
from akgen_lsp.repair.verify import repairable
from akgen_lsp.server.convert import Lines, to_diagnostic, workspace_edit
from akgen_lsp.server.documents import Checked
from akgen_lsp.server.features.code_actions import Request, wants
from akgen_lsp.server.features.save_check import SaveChecks, split_findings
from akgen_lsp.server.host import FeatureHost

log = logging.getLogger(__name__)

MODEL_REPAIR = "model_repair"
ACCEPTED = "akgen.server.repairAccepted"


class RepairHost(FeatureHost, Protocol):
    checks: SaveChecks
    repairs: Repairs

    def client_supports_document_changes(self) -> bool: ...


def finding_key(f: Finding) -> list[Any]:
    return [f.code, f.span.line, f.span.column, f.message]


@dataclass
class Resolved:
    """A resolved model repair of one finding of one checked version."""

    checked: Checked
    target: Finding
    result: ModelRepair


class Repairs:
    """What the repair feature of one server remembers: the resolved model repairs by (uri, version, finding)."""

    def __init__(self) -> None:
        self.resolved: dict[tuple[str, int | None, str], Resolved] = {}
        self._labels: dict[tuple[str, str], str] = {}

    def label(self, settings: Settings, workspace: Path | None = None) -> str:
        """The name in titles of the model a repair asks (routed by ``model.route.*``; the registry is read once per
        model configuration)."""
        key = (
            str(workspace),
            repr(sorted((k, repr(v)) for k, v in settings.as_dict().items() if k.startswith("model."))),
        )
        if key not in self._labels:
            self._labels[key] = model_label(settings, workspace)
        return self._labels[key]

    @staticmethod
    def key(uri: str, version: int | None, finding: Sequence[Any]) -> tuple[str, int | None, str]:
        return (uri, version, repr(list(finding)))

    def forget(self, uri: str) -> None:
        for k in [k for k in self.resolved if k[0] == uri]:
            del self.resolved[k]


# ----------------------------------------------------------------------------------------------- certain fixes


def _timeout(settings: Settings) -> float:
    return check_timeout(float(settings["toolchain.timeout_s"]))


async def verify_certain_fixes(host: RepairHost, checked: Checked, settings: Settings) -> None:
    """`SaveChecks` follow-up: verify the deterministic fixes of a failed check and publish them on its findings."""
    if not settings["fix.deterministic"] or checked.result.status is Status.PASS:
        return
    before = checked.result
    if not any(repairable(f) for f in before.findings):
        return
    name = Path(checked.path).name
    token = await host.begin_progress(f"akgen: trying the fixes of {name}'s errors on the simulator")
    found = []
    try:
        checker = checker_for(host.checks.worker, plain_settings(settings), _timeout(settings))
        found = await verified_fixes(
            checked.text, checked.path, before, checker, settings, jobs=int(settings["fix.jobs"])
        )
    finally:
        host.end_progress(token, f"{len(found)} fix{'es' if len(found) != 1 else ''} verified")
    if not found or not host.is_open(checked.uri) or host.document(checked.uri).version != checked.version:
        return
    host.publish_sources(
        checked.uri,
        split_findings(
            checked.path, checked.text, with_fixes(checked.result.findings, found), checked.result.figures
        ),
        version=checked.version,
    )


# ----------------------------------------------------------------------------------------------- the model action


def model_actions(host: RepairHost) -> Any:
    """The "Fix with KernelGen-LM" provider (one action per selected build/run finding of the checked version)."""

    def provide(request: Request) -> list[types.CodeAction]:
        if not wants(types.CodeActionKind.QuickFix, request.only):
            return []
        checked = host.state(request.uri).last_check if host.is_open(request.uri) else None

        if checked is None or checked.version != request.version:
            return []  # the text changed since its check: a repair of it would be dropped
        doc = host.document(request.uri)
        settings = host.settings_for(doc)
        if not model_configured(settings):
            return []
        label = host.repairs.label(settings, Path(doc.path).parent)
        actions = []
        for f in request.selected:
            if not repairable(f):
                continue
            key = finding_key(f)
            diagnostic = to_diagnostic(f, request.lines)
            done = host.repairs.resolved.get(Repairs.key(request.uri, request.version, key))
            if done is not None and done.result.best is not None:
                actions.append(_applied(host, done, request.lines, diagnostic))
                continue
            actions.append(
                types.CodeAction(
                    title=f"Fix with {label}",
                    kind=types.CodeActionKind.QuickFix,
                    diagnostics=[diagnostic],
                    data={
                        "akgen": MODEL_REPAIR,
                        "uri": request.uri,
                        "version": request.version,
                        "finding": key,
                    },
                )
            )
        return actions

    return provide


def is_model_repair(data: Any) -> bool:
    return isinstance(data, dict) and data.get("akgen") == MODEL_REPAIR and isinstance(data.get("uri"), str)


def _applied(
    host: RepairHost, done: Resolved, lines: Lines, diagnostic: types.Diagnostic
) -> types.CodeAction:
    best = done.result.best
    assert best is not None and best.text is not None
    c = done.checked
    edits = minimal_edits(c.text, best.text, c.path)
    key = finding_key(done.target)
    return types.CodeAction(
        title=done.result.title(),
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[diagnostic],
        is_preferred=None,
        edit=workspace_edit(c.uri, c.version, edits, lines, host.client_supports_document_changes()),
        command=types.Command(
            title="remember the repair", command=ACCEPTED, arguments=[c.uri, c.version, key]
        ),
        data={"akgen": MODEL_REPAIR, "uri": c.uri, "version": c.version, "finding": key},
    )


async def resolve_model_repair(host: RepairHost, action: types.CodeAction) -> types.CodeAction:
    """`codeAction/resolve` of a "Fix with KernelGen-LM" action (see the module docstring)."""
    data = action.data
    uri, version, key = data["uri"], data.get("version"), list(data.get("finding") or [])
    checked = host.state(uri).last_check if host.is_open(uri) else None
    if (
        not host.is_open(uri)
        or checked is None
        or checked.version != version
        or host.document(uri).version != version
    ):
        host.show(
            "akgen: the document changed since its check; save it to check it again, then ask for the fix.",
            types.MessageType.Info,
        )
        return action
    target = next((f for f in checked.result.findings if finding_key(f) == key), None)
    if target is None:
        return action
    done = host.repairs.resolved.get(Repairs.key(uri, version, key))
    if done is None:
        result = await _run_repair(host, checked, target, uri, version)
        if result is None:
            return action
        done = Resolved(checked, target, result)
        if result.best is not None:
            host.repairs.resolved[Repairs.key(uri, version, key)] = done
    if done.result.best is None:
        host.show(f"akgen: {done.result.message()}", types.MessageType.Warning)
        return action
    doc = host.document(uri)
    applied = _applied(
        host,
        done,
        Lines(checked.text, doc.position_codec),
        (action.diagnostics or [None])[0] or to_diagnostic(target, Lines(checked.text, doc.position_codec)),
    )
    action.title, action.edit, action.command = applied.title, applied.edit, applied.command
    host.log(f"akgen: {done.result.message()}", types.MessageType.Info)
    return action


async def _run_repair(
    host: RepairHost, checked: Checked, target: Finding, uri: str, version: int | None
) -> ModelRepair | None:
    doc = host.document(uri)
    settings = host.settings_for(doc)
    try:
        model = repair_model(settings, Path(doc.path).parent)
    except BackendError as exc:
        host.show(f"akgen: {exc}", types.MessageType.Error)
        return None
    if model is None:
        host.show(f"akgen: {HOW_TO_CONFIGURE}", types.MessageType.Info)
        return None
    if model.route:
        host.log(f"akgen: repair: {model.route}", types.MessageType.Info)
    token = await host.begin_progress(f"akgen: Fix with {model.label}", cancellable=True)
    checker = checker_for(host.checks.worker, plain_settings(settings), _timeout(settings))
    before = checked.result

    def progress(message: str, percentage: int | None) -> None:
        host.report_progress(token, message, percentage)

    async def load_and_repair() -> ModelRepair:
        try:
            await model.backend.load()
        except BackendError as exc:
            failed = ModelRepair(target, model.label)
            failed.problem = str(exc)
            return failed
        return await model_repair(
            checked.text,
            checked.path,
            target,
            before,
            model.backend,
            checker,
            settings,
            spec=model.spec,
            model_name=model.label,
            progress=progress,
        )

    work = asyncio.ensure_future(load_and_repair())
    stopped: str | None = None  # why we stopped the work ourselves: "stale" (an edit, a close), "cancelled"

    def stop(why: str) -> None:
        nonlocal stopped
        if not work.done():
            stopped = why
            work.cancel()

    host.on_progress_cancel(token, lambda: stop("cancelled"))

    async def watch() -> None:  # an edit or a close of the document drops the repair at once
        while not work.done():
            await asyncio.sleep(0.2)
            if not host.is_open(uri) or host.document(uri).version != version:
                stop("stale")
                return

    watcher = asyncio.ensure_future(watch())
    result: ModelRepair | None = None
    try:
        result = await work  # a $/cancelRequest of the resolve cancels `work` with it
    except asyncio.CancelledError:
        if stopped is None:
            raise
    finally:
        watcher.cancel()
        if not work.done():
            work.cancel()
        with contextlib.suppress(BaseException):
            await work
        with contextlib.suppress(Exception):
            await model.backend.close()
        host.end_progress(token, result.message() if result is not None else "stopped")
    if stopped == "stale":
        host.show(
            "akgen: the document changed while the repair ran, so nothing was applied; save it and ask again.",
            types.MessageType.Info,
        )
        return None
    if stopped == "cancelled" or result is None:
        return None
    return result


async def repair_accepted(host: RepairHost, uri: str, version: int | None, key: list[Any]) -> dict[str, Any]:
    """``akgen.server.repairAccepted``: the client applied a model repair; store it when the text is the repair."""
    done = host.repairs.resolved.get(Repairs.key(uri, version, key))
    if done is None or done.result.best is None or done.result.best.text is None or not host.is_open(uri):
        return {"stored": False}
    after = host.document(uri).source
    if after != done.result.best.text:
        return {"stored": False}
    rid = await asyncio.to_thread(
        remember,
        done.target,
        done.checked.text,
        after,
        path=done.checked.path,
        task=str(done.checked.result.figures.task or "") or None,
        model=done.result.model,
        provenance="editor",
        settings=host.settings_for(host.document(uri)),
    )
    return {"stored": rid is not None, "id": rid}


def hover_note(settings: Settings, findings: Sequence[Finding]) -> str | None:
    """What a build/run diagnostic's hover adds: how to configure a model when none is."""
    if not any(repairable(f) for f in findings) or model_configured(settings):
        return None
    return HOW_TO_CONFIGURE
