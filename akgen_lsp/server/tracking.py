"""Findings that follow edits: the build and run diagnostics of the last check move with the text until the next one.

A check answers for the text that was saved; typing goes on. For each content change the server gets, a finding
(and each edit of its fixes) below the edited lines moves with them, one on an edited line is dropped (it may no
longer be true), one above stays. A line is edited when its own text changed: a new line typed above or below it,
or whole lines deleted next to it, move it without editing it. Positions are converted with the document's codec (client units to code points)
against the text each change applies to, so a line with a CJK comment moves as exactly as an ASCII one.

No LSP transport here beyond the change values pygls hands the server.
"""

from __future__ import annotations

import dataclasses
import difflib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from lsprotocol import types
from pygls.workspace.position_codec import PositionCodec

from akgen_lsp.findings import Edit, Finding, Fix, Span


@dataclass(frozen=True)
class TextChange:
    """One change in code points: lines and columns 0-based, the end exclusive, in the text before the change."""

    line: int
    column: int
    end_line: int
    end_column: int
    text: str
    at_line_end: bool = False  # the change starts at the end of its line (Enter at the end of a line)

    @property
    def added_lines(self) -> int:
        return self.text.count("\n")

    @property
    def last_line_length(self) -> int:
        return len(self.text) - (self.text.rfind("\n") + 1)


@dataclass(frozen=True)
class LineMap:
    """A whole-document replacement: old 0-based line -> new line, for the lines that did not change."""

    lines: dict[int, int]


Mapping_ = TextChange | LineMap


def _offset(lines: Sequence[str], line: int, column: int) -> int:
    return sum(len(x) for x in lines[:line]) + column


def changes_in_code_points(
    old_text: str, changes: Iterable[types.TextDocumentContentChangeEvent], codec: PositionCodec
) -> tuple[list[Mapping_], str]:
    """The client's changes as code-point changes (or line maps), each against the text it applies to, and the text
    after them all."""
    out: list[Mapping_] = []
    text = old_text
    for change in changes:
        if isinstance(change, types.TextDocumentContentChangePartial):
            lines = text.splitlines(True) or [""]
            start = codec.position_from_client_units(lines, change.range.start)
            end = codec.position_from_client_units(lines, change.range.end)
            at_end = start.line < len(lines) and start.character >= len(lines[start.line].rstrip("\r\n"))
            out.append(TextChange(start.line, start.character, end.line, end.character, change.text, at_end))
            a = _offset(lines, min(start.line, len(lines)), start.character)
            b = _offset(lines, min(end.line, len(lines)), end.character)
            text = text[:a] + change.text + text[b:]
        else:
            new = change.text
            out.append(line_map(text, new))
            text = new
    return out, text


def line_map(old: str, new: str) -> LineMap:
    matcher = difflib.SequenceMatcher(None, old.splitlines(), new.splitlines(), autojunk=False)
    mapping: dict[int, int] = {}
    for tag, i1, i2, j1, _ in matcher.get_opcodes():
        if tag == "equal":
            for k in range(i2 - i1):
                mapping[i1 + k] = j1 + k
    return LineMap(mapping)


def _move_point(line: int, column: int, change: TextChange) -> tuple[int, int]:
    """A point at or after the change's end, moved (0-based line and column)."""
    if line > change.end_line:
        return line + change.added_lines - (change.end_line - change.line), column
    # on the change's last line, after it: the rest of that line follows the inserted text
    if change.added_lines:
        return change.line + change.added_lines, column - change.end_column + change.last_line_length
    return change.line, change.column + change.last_line_length + (column - change.end_column)


def edited_lines(change: TextChange) -> range:
    """The old lines whose own text the change alters (maybe none)."""
    insertion = change.line == change.end_line and change.column == change.end_column
    if insertion and change.column == 0 and change.text.endswith("\n"):
        return range(0)  # new lines above: this one moves down unchanged
    if insertion and change.at_line_end and change.text.startswith("\n"):
        return range(0)  # Enter at the end of a line: new lines below it
    if change.column == 0 and change.end_column == 0 and change.end_line > change.line and change.text == "":
        return range(change.line, change.end_line)  # whole lines deleted: the next one moves up unchanged
    return range(change.line, change.end_line + 1)


def move_span(span: Span, change: Mapping_) -> Span | None:
    """`span` after `change`, or None when the change edited one of its lines."""
    if isinstance(change, LineMap):
        first, last = change.lines.get(span.line - 1), change.lines.get(span.end_line - 1)
        if first is None or last is None or last - first != span.end_line - span.line:
            return None
        return dataclasses.replace(span, line=first + 1, end_line=last + 1)
    edited = edited_lines(change)
    if edited and span.line - 1 <= edited[-1] and span.end_line - 1 >= edited[0]:
        return None
    start = (span.line - 1, span.column - 1)
    end = (span.end_line - 1, span.end_column - 1)
    here = (change.line, change.column)
    if end < here or (end == here and start < end):
        return span  # before the change
    if start < (change.end_line, change.end_column):
        return None  # the change replaced text inside it
    (l0, k0), (l1, k1) = _move_point(*start, change), _move_point(*end, change)
    return dataclasses.replace(span, line=l0 + 1, column=k0 + 1, end_line=l1 + 1, end_column=k1 + 1)


def move_finding(finding: Finding, changes: Sequence[Mapping_]) -> Finding | None:
    """`finding` after `changes` (its fixes too; a fix with an edit the changes touched is dropped), or None."""
    span: Span | None = finding.span
    for change in changes:
        span = move_span(span, change) if span is not None else None
    if span is None:
        return None
    fixes = tuple(f for f in (_move_fix(fix, changes) for fix in finding.fixes) if f is not None)
    if span == finding.span and fixes == finding.fixes:
        return finding
    return dataclasses.replace(finding, span=span, fixes=fixes)


def _move_fix(fix: Fix, changes: Sequence[Mapping_]) -> Fix | None:
    edits: list[Edit] = []
    for edit in fix.edits:
        span: Span | None = edit.span
        for change in changes:
            span = move_span(span, change) if span is not None else None
        if span is None:
            return None
        edits.append(Edit(span, edit.new_text) if span != edit.span else edit)
    return dataclasses.replace(fix, edits=tuple(edits))


def move_findings(findings: Iterable[Finding], changes: Sequence[Mapping_]) -> list[Finding]:
    return [f for f in (move_finding(f, changes) for f in findings) if f is not None]
