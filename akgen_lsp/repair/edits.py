"""Texts and their edits: the minimal edits from one version of a file to another, and where a line went.

`minimal_edits(before, after, path)` is what the editor gets for a repair: one `Edit` per changed region (lines
that differ, trimmed to the characters that differ), not a whole-file replacement, so the undo step, the diff view
and the other parts of the file (breakpoints, folds, marks) stay as they are. `line_mapper(before, after)` maps a
line of `before` to its line in `after` (None for a changed or deleted line): verification uses it to tell an error
that moved with the edit from one that is still there.
"""

from __future__ import annotations

import bisect
import difflib
from collections.abc import Callable

from akgen_lsp.findings import Edit, Span


def _line_starts(text: str) -> list[int]:
    starts = [0]
    at = text.find("\n")
    while at >= 0:
        starts.append(at + 1)
        at = text.find("\n", at + 1)
    return starts


def _position(starts: list[int], offset: int) -> tuple[int, int]:
    """1-based (line, column) of a character offset."""
    i = bisect.bisect_right(starts, offset) - 1
    return i + 1, offset - starts[i] + 1


def minimal_edits(before: str, after: str, path: str) -> tuple[Edit, ...]:
    """Edits that turn `before` into `after`: one per changed block of lines, each trimmed to the characters that
    differ; () when the texts are equal. Positions are in `before` (1-based characters, exclusive end)."""
    if before == after:
        return ()
    old_lines = before.splitlines(keepends=True)
    new_lines = after.splitlines(keepends=True)
    old_starts = _line_starts(before)
    old_off = [0]
    for ln in old_lines:
        old_off.append(old_off[-1] + len(ln))
    new_off = [0]
    for ln in new_lines:
        new_off.append(new_off[-1] + len(ln))
    edits: list[Edit] = []
    matcher = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        a, b = old_off[i1], old_off[i2]
        c, d = new_off[j1], new_off[j2]
        old_chunk, new_chunk = before[a:b], after[c:d]
        k = 0  # common prefix
        limit = min(len(old_chunk), len(new_chunk))
        while k < limit and old_chunk[k] == new_chunk[k]:
            k += 1
        m = 0  # common suffix, not overlapping the prefix
        while m < limit - k and old_chunk[len(old_chunk) - 1 - m] == new_chunk[len(new_chunk) - 1 - m]:
            m += 1
        start, end = a + k, b - m
        line, col = _position(old_starts, start)
        end_line, end_col = _position(old_starts, end)
        edits.append(Edit(Span(path, line, col, end_line, end_col), new_chunk[k : len(new_chunk) - m]))
    return tuple(edits)


def line_mapper(before: str, after: str) -> Callable[[int], int | None]:
    """A function from a 1-based line of `before` to its line in `after`, or None where the line was changed."""
    old_lines = before.splitlines()
    new_lines = after.splitlines()
    mapping: dict[int, int] = {}
    matcher = difflib.SequenceMatcher(None, old_lines, new_lines, autojunk=False)
    for block in matcher.get_matching_blocks():
        for n in range(block.size):
            mapping[block.a + n + 1] = block.b + n + 1
    return mapping.get


def changed_lines(before: str, after: str) -> set[int]:
    """The 1-based lines of `before` that `after` changes or deletes (an insertion counts at the line it follows)."""
    out: set[int] = set()
    matcher = difflib.SequenceMatcher(None, before.splitlines(), after.splitlines(), autojunk=False)
    for tag, i1, i2, _j1, _j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        out.update(range(i1 + 1, i2 + 1) if i2 > i1 else (max(1, i1),))
    return out
