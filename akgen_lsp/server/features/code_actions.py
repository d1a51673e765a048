"""Code actions: a quick fix per fix of each finding the client asks about, and a "fix all safe" source action.

Which findings: those of the diagnostics the client sends in ``context.diagnostics`` (VS Code sends the marker the
light bulb belongs to, wherever the cursor is on the line); when it sends none of ours, those overlapping the
requested range. A single safe fix is the preferred action (clangd's rule: only a deterministic single fix, never a
model-made one). The fix-all edit is computed in ``codeAction/resolve`` when the client can resolve edits lazily.

Actions come from providers (`Request` -> actions): `lint_quick_fixes` serves every finding with fixes,
`compiler_suggestions` the compiler's "did you mean" on a build error; a provider for build and run diagnostics
("Fix this build error") is added to the server's `code_action_providers` list beside them, and sees the same
request with the findings already selected.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from lsprotocol import types

from akgen_lsp.findings import Edit, Finding, Fix, Span
from akgen_lsp.server.convert import Lines, non_overlapping, spans_overlap, to_diagnostic, workspace_edit

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


def _key(d: types.Diagnostic) -> tuple[object, ...]:
    r = d.range
    return (str(d.code), d.source, d.message, r.start.line, r.start.character, r.end.line, r.end.character)


def select_findings(request: Request) -> list[Finding]:
    """The findings the request is about: those of the client's context diagnostics, else those in its range."""
    sent = {_key(d) for d in request.context_diagnostics}
    if sent:
        matched = [f for f in request.findings if _key(to_diagnostic(f, request.lines)) in sent]
        if matched:
            return matched
    wanted = request.lines.to_span(request.path, request.range)
    return [f for f in request.findings if spans_overlap(f.span, wanted)]


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
    return quick_fixes(request.selected, request.uri, request.version, request.lines, request.document_changes)


def fix_all_source_action(lazy: bool) -> ActionProvider:
    """The "apply all safe fixes" source action over every finding of the document (`lazy`: edit on resolve)."""

    def provide(request: Request) -> list[types.CodeAction]:
        if not wants(FIX_ALL_KIND, request.only):
            return []
        action = fix_all_action(request.findings, request.uri, request.version, lazy, request.lines,
                                request.document_changes)
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
    findings: Sequence[Finding], uri: str, version: int | None, lazy: bool, lines: Lines, document_changes: bool = True
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


_DID_YOU_MEAN = re.compile(r"'(?P<bad>[^']+)'.*;\s*did you mean '(?P<good>[^']+)'\?")


def compiler_suggestions(request: Request) -> list[types.CodeAction]:
    """The compiler's own "did you mean 'xLocal'?" on a build error, as a quick fix that renames the word (the one
    deterministic fix a compile error carries; repairs by the model are another provider's)."""
    if not wants(types.CodeActionKind.QuickFix, request.only):
        return []
    actions: list[types.CodeAction] = []
    for finding in request.selected:
        if finding.source != "akgen-build" or finding.fixes:
            continue
        m = _DID_YOU_MEAN.search(finding.message)
        if m is None:
            continue
        bad = m.group("bad").split()[-1].split("::")[-1]
        good = m.group("good").split("::")[-1]
        span = word_span(request.lines.text, finding.span)
        if span is None or request.lines.text.splitlines()[span.line - 1][span.column - 1 : span.end_column - 1] != bad:
            continue
        fix = Fix(f"Change '{bad}' to '{good}'", (Edit(span, good),), safe=True)
        actions += quick_fixes([dataclasses.replace(finding, fixes=(fix,))], request.uri, request.version,
                               request.lines, request.document_changes)
    return actions


def word_span(text: str, span: Span) -> Span | None:
    """The identifier at the start of `span` (a compiler's point location), as a span; None when there is none."""
    lines = text.splitlines()
    if not 0 < span.line <= len(lines):
        return None
    line = lines[span.line - 1]
    start = span.column - 1
    end = start
    while end < len(line) and (line[end].isalnum() or line[end] == "_"):
        end += 1
    if end == start:
        return None
    return Span(span.path, span.line, start + 1, span.line, end + 1)
