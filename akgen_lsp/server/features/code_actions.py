"""Code actions: a quick fix per fix of each finding under the cursor, and a "fix all safe" source action.

A single safe fix is the preferred action (clangd's rule: only a deterministic single fix, never a model-made one).
The fix-all edit is computed in ``codeAction/resolve`` when the client can resolve edits lazily.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from lsprotocol import types

from akgen_lsp.findings import Finding
from akgen_lsp.server.convert import Lines, non_overlapping, spans_overlap, to_diagnostic, workspace_edit

FIX_ALL_KIND = types.CodeActionKind.SourceFixAll.value + ".akgen"
FIX_ALL_TITLE = "akgen: apply all safe fixes"


def wants(kind: str, only: Sequence[str] | None) -> bool:
    """Whether an action of `kind` is asked for by the request's `only` filter (hierarchical, as the spec says)."""
    if not only:
        return True
    return any(kind == o or kind.startswith(o + ".") for o in only)


def quick_fixes(
    findings: Sequence[Finding],
    request: types.Range,
    uri: str,
    version: int | None,
    lines: Lines,
    path: str,
    document_changes: bool = True,
) -> list[types.CodeAction]:
    wanted = lines.to_span(path, request)
    actions: list[types.CodeAction] = []
    for finding in findings:
        if not finding.fixes or not spans_overlap(finding.span, wanted):
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
