"""Code actions: a quick fix per fix of each finding the client asks about, and a "fix all safe" source action.

Which findings: those of the diagnostics the client sends in ``context.diagnostics`` (by the stable id in their
``data``: `convert.finding_id`) (VS Code sends the marker the
light bulb belongs to, wherever the cursor is on the line); when it sends none of ours, those overlapping the
requested range, and for a bare cursor those on its line: the fixes offered do not depend on where on the line the
cursor is. A single safe fix is the preferred action (clangd's rule: only a deterministic single fix, never a
model-made one). The fix-all edit is computed in ``codeAction/resolve`` when the client can resolve edits lazily.

Actions come from providers (`Request` -> actions): `lint_quick_fixes` serves every finding with fixes (the lint's,
and the compiler's fix-its on build errors, such as "did you mean 'xLocal'"); a provider for build and run
diagnostics ("Fix this build error") is added to the server's `code_action_providers` list beside it, and sees the
same request with the findings already selected.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from lsprotocol import types

from akgen_lsp.findings import Finding
from akgen_lsp.server.convert import (
    Lines,
    finding_id,
    non_overlapping,
    spans_overlap,
    to_diagnostic,
    workspace_edit,
)

FIX_ALL_KIND = types.CodeActionKind.SourceFixAll.value + ".akgen"
FIX_ALL_TITLE = "akgen: apply all safe fixes"


def wants(kind: str, only: Sequence[str] | None) -> bool:
    """Whether an action of `kind` is asked for by the request's `only` filter (hierarchical, as the spec says)."""
    if not only:
        return True
    return any(kind == o or kind.startswith(o + ".") for o in only)


@dataclass
class Request:
    """One ``textDocument/codeAction`` request, with the document's current findings."""

    uri: str
    version: int | None
    path: str
    lines: Lines
    findings: Sequence[Finding]
    range: types.Range
    context_diagnostics: Sequence[types.Diagnostic] = ()
    document_changes: bool = True
    only: Sequence[str] | None = None
    selected: list[Finding] = field(default_factory=list)


ActionProvider = Callable[[Request], list[types.CodeAction]]


def select_findings(request: Request) -> list[Finding]:
    """The findings the request is about: those of the client's context diagnostics; else those in its range; for a
    bare cursor (Neovim sends the diagnostics under it, none at the end of the line), those on the cursor's line."""
    sent = {d.data.get("id") for d in request.context_diagnostics if isinstance(d.data, dict)} - {None}
    if sent:
        matched = [f for f in request.findings if finding_id(f) in sent]
        if matched:
            return matched
    wanted = request.lines.to_span(request.path, request.range)
    found = [f for f in request.findings if spans_overlap(f.span, wanted)]
    if found or (wanted.line, wanted.column) != (wanted.end_line, wanted.end_column):
        return found
    return [f for f in request.findings if f.span.line <= wanted.line <= f.span.end_line]


def code_actions(request: Request, providers: Sequence[ActionProvider]) -> list[types.CodeAction]:
    request.selected = select_findings(request)
    actions: list[types.CodeAction] = []
    for provider in providers:
        actions.extend(provider(request))
    return actions


def lint_quick_fixes(request: Request) -> list[types.CodeAction]:
    """A quick fix per fix of each selected finding."""
    if not wants(types.CodeActionKind.QuickFix, request.only):
        return []
    return quick_fixes(
        request.selected, request.uri, request.version, request.lines, request.document_changes
    )


def fix_all_source_action(lazy: bool) -> ActionProvider:
    """The "apply all safe fixes" source action over every finding of the document (`lazy`: edit on resolve)."""

    def provide(request: Request) -> list[types.CodeAction]:
        if not wants(FIX_ALL_KIND, request.only):
            return []
        action = fix_all_action(
            request.findings, request.uri, request.version, lazy, request.lines, request.document_changes
        )
        return [action] if action is not None else []

    return provide


def quick_fixes(
    findings: Sequence[Finding],
    uri: str,
    version: int | None,
    lines: Lines,
    document_changes: bool = True,
) -> list[types.CodeAction]:
    actions: list[types.CodeAction] = []
    for finding in findings:
        if not finding.fixes:
            continue
        diagnostic = to_diagnostic(finding, lines)
        single_safe = len(finding.fixes) == 1 and finding.fixes[0].safe
        for fix in finding.fixes:
            actions.append(
                types.CodeAction(
                    title=fix.title,
                    kind=types.CodeActionKind.QuickFix,
                    diagnostics=[diagnostic],
                    is_preferred=True if single_safe else None,
                    edit=workspace_edit(uri, version, fix.edits, lines, document_changes),
                )
            )
    return actions


def fix_all_action(
    findings: Sequence[Finding],
    uri: str,
    version: int | None,
    lazy: bool,
    lines: Lines,
    document_changes: bool = True,
) -> types.CodeAction | None:
    safe = [fix for f in findings for fix in f.fixes if fix.safe]
    if not safe:
        return None
    action = types.CodeAction(
        title=FIX_ALL_TITLE,
        kind=FIX_ALL_KIND,
        data={"akgen": "fix_all", "uri": uri, "version": version},
    )
    if not lazy:
        action.edit = fix_all_edit(findings, uri, version, lines, document_changes)
    return action


def fix_all_edit(
    findings: Sequence[Finding], uri: str, version: int | None, lines: Lines, document_changes: bool = True
) -> types.WorkspaceEdit:
    safe = [fix for f in findings for fix in f.fixes if fix.safe]
    return workspace_edit(uri, version, non_overlapping(safe), lines, document_changes)


def is_fix_all(data: Any) -> bool:
    return isinstance(data, dict) and data.get("akgen") == "fix_all" and isinstance(data.get("uri"), str)
