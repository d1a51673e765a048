"""Findings to LSP values and back, with the document's position codec.

Our `Span` columns are 1-based code points; LSP positions are 0-based and counted in the client's units (utf-16 for
VS Code, utf-8 for Neovim when it asks). Every conversion goes through `pygls`'s `PositionCodec`, never raw string
indexing, so a line with a CJK comment or an emoji keeps its underline in the right place.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from lsprotocol import types
from pygls.workspace.position_codec import PositionCodec

from akgen_lsp.findings import Edit, Finding, Fix, Severity, Span, fix_to_json

SEVERITY = {
    Severity.ERROR: types.DiagnosticSeverity.Error,
    Severity.WARNING: types.DiagnosticSeverity.Warning,
    Severity.INFO: types.DiagnosticSeverity.Information,
    Severity.HINT: types.DiagnosticSeverity.Hint,
}


class Lines:
    """The lines of one text snapshot (with their endings, as pygls expects) and its codec."""

    def __init__(self, text: str, codec: PositionCodec) -> None:
        self.text = text
        self.lines: Sequence[str] = text.splitlines(True) or [""]
        self.codec = codec

    def position(self, line: int, column: int) -> types.Position:
        """A 1-based line and 1-based character column as an LSP position in client units."""
        row = max(line - 1, 0)
        if row >= len(self.lines):
            last = len(self.lines) - 1
            return self.codec.position_to_client_units(
                self.lines, types.Position(last, len(self.lines[last].rstrip("\r\n")))
            )
        content = self.lines[row].rstrip("\r\n")
        char = min(max(column - 1, 0), len(content))
        return self.codec.position_to_client_units(self.lines, types.Position(row, char))

    def range(self, span: Span) -> types.Range:
        return types.Range(
            self.position(span.line, span.column), self.position(span.end_line, span.end_column)
        )

    def to_code_points(self, position: types.Position) -> tuple[int, int]:
        """An LSP position in client units as (0-based line, 0-based code point)."""
        pos = self.codec.position_from_client_units(
            self.lines, types.Position(position.line, position.character)
        )
        return pos.line, pos.character

    def to_span(self, path: str, rng: types.Range) -> Span:
        l0, c0 = self.to_code_points(rng.start)
        l1, c1 = self.to_code_points(rng.end)
        return Span(path, l0 + 1, c0 + 1, l1 + 1, c1 + 1)


def spans_overlap(a: Span, b: Span) -> bool:
    """Whether two spans share a position (an empty span touches what starts or ends at it)."""
    return (a.line, a.column) <= (b.end_line, b.end_column) and (b.line, b.column) <= (
        a.end_line,
        a.end_column,
    )


def finding_id(finding: Finding) -> str:
    """A finding's stable id, sent in its diagnostic's ``data`` and read back from a code action's
    ``context.diagnostics``: the same code, source, message and place give the same id (its fixes do not count: the
    verified fixes added later keep the id of the diagnostic the client already shows)."""
    s = finding.span
    key = "\0".join(
        map(
            str,
            (
                finding.code,
                finding.source,
                finding.message,
                s.path,
                s.line,
                s.column,
                s.end_line,
                s.end_column,
            ),
        )
    )
    return hashlib.sha1(key.encode("utf-8")).hexdigest()[:16]


def diagnostic_data(finding: Finding) -> dict[str, Any]:
    data: dict[str, Any] = {
        "id": finding_id(finding),
        "code": finding.code,
        "source": finding.source,
        "fixes": [fix_to_json(f) for f in finding.fixes],
    }
    if finding.error_class:
        data["error_class"] = finding.error_class
    raw = finding.data.get("raw") if finding.data else None
    if isinstance(raw, str):
        data["raw"] = raw
    return data


def to_diagnostic(finding: Finding, lines: Lines) -> types.Diagnostic:
    tags = []
    if finding.data and finding.data.get("deprecated"):
        tags.append(types.DiagnosticTag.Deprecated)
    if finding.data and finding.data.get("unnecessary"):
        tags.append(types.DiagnosticTag.Unnecessary)
    return types.Diagnostic(
        range=lines.range(finding.span),
        message=finding.message,
        severity=SEVERITY[finding.severity],
        code=finding.code,
        source=finding.source,
        data=diagnostic_data(finding),
        tags=tags or None,
        related_information=related_information(finding),
    )


def related_information(finding: Finding) -> list[types.DiagnosticRelatedInformation] | None:
    """`data["related"]` of a finding ([{"path", "line", "message"}]: where a header's error is included from, or
    the header line of an error shown at its include) as the diagnostic's related information."""
    items = finding.data.get("related") if finding.data else None
    if not isinstance(items, list):
        return None
    out = []
    for item in items:
        if (
            not isinstance(item, dict)
            or not isinstance(item.get("path"), str)
            or not isinstance(item.get("line"), int)
        ):
            continue
        line = max(0, item["line"] - 1)
        where = types.Location(
            uri=Path(item["path"]).resolve().as_uri(),
            range=types.Range(
                start=types.Position(line=line, character=0), end=types.Position(line=line, character=0)
            ),
        )
        out.append(
            types.DiagnosticRelatedInformation(location=where, message=str(item.get("message") or "here"))
        )
    return out or None


def to_text_edits(edits: Iterable[Edit], lines: Lines) -> list[types.TextEdit]:
    return [types.TextEdit(range=lines.range(e.span), new_text=e.new_text) for e in edits]


def workspace_edit(
    uri: str, version: int | None, edits: Iterable[Edit], lines: Lines, document_changes: bool = True
) -> types.WorkspaceEdit:
    """A versioned `documentChanges` edit when the client supports it, else a plain `changes` map."""
    text_edits = to_text_edits(edits, lines)
    if document_changes:
        doc = types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version)
        return types.WorkspaceEdit(
            document_changes=[types.TextDocumentEdit(text_document=doc, edits=text_edits)]
        )
    return types.WorkspaceEdit(changes={uri: text_edits})


def non_overlapping(fixes: Iterable[Fix]) -> list[Edit]:
    """The edits of `fixes`, keeping a fix only if none of its edits overlaps an edit already kept."""
    kept: list[Edit] = []
    for fix in fixes:
        if any(
            spans_overlap(e.span, k.span) and not _touching(e.span, k.span) for e in fix.edits for k in kept
        ):
            continue
        kept.extend(fix.edits)
    return kept


def _touching(a: Span, b: Span) -> bool:
    """Spans that only share an end point (an insertion right after a replaced region) do not conflict."""
    return (a.end_line, a.end_column) == (b.line, b.column) or (b.end_line, b.end_column) == (
        a.line,
        a.column,
    )
