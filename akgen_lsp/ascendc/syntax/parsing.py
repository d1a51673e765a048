"""Parsing and the parsed file: `parse` (full, or incremental against the document's previous parse) gives a
`ParsedFile`, which converts tree positions to 1-based character `Span`s and carries `memo`, the per-file cache every
helper of the file's model fills."""

from __future__ import annotations

import bisect
import itertools
import operator
from dataclasses import dataclass, field

from tree_sitter import Node, Parser, Tree

from akgen_lsp.ascendc.syntax.codeview import code_view
from akgen_lsp.ascendc.syntax.grammar import CPP
from akgen_lsp.ascendc.syntax.masking import _mask
from akgen_lsp.findings import Span

_parser = Parser(CPP)


@dataclass
class ParsedFile:
    """One parsed source text. `text` is the user's text; the tree was built from the masked text."""

    path: str
    text: str
    masked: str
    tree: Tree
    data: bytes
    _line_starts: list[int] = field(default_factory=list, repr=False)
    memo: dict[object, object] = field(default_factory=dict, repr=False, compare=False)
    """Per-file results of the helpers below (and of rules, keyed by a name of their own)."""
    _ascii_masked: str | None = field(default=None, repr=False, compare=False)
    """`masked` when it is all ASCII (byte offsets are then character offsets), set by `parse`."""

    @property
    def is_ascii(self) -> bool:
        got = self.memo.get("is_ascii")
        if got is None:
            got = self.memo["is_ascii"] = self.data.isascii()
        return bool(got)

    @property
    def code(self) -> str:
        """The user's text with comments, string and character literals blanked (same length; computed once)."""
        got = self.memo.get("code_view")
        if got is None:
            got = self.memo["code_view"] = code_view(self.text)
        assert isinstance(got, str)
        return got

    @property
    def root(self) -> Node:
        return self.tree.root_node

    def node_text(self, node: Node) -> str:
        masked = self._ascii_masked
        if masked is not None:  # the same characters, without slicing and decoding bytes
            return masked[node.start_byte : node.end_byte]
        return self.data[node.start_byte : node.end_byte].decode("utf-8", errors="replace")

    def original_text(self, node: Node) -> str:
        """The user's text under `node` (the keywords not blanked)."""
        raw = self.memo.get("original_bytes")
        if raw is None:
            raw = self.memo["original_bytes"] = self.text.encode("utf-8", errors="surrogatepass")
        assert isinstance(raw, bytes)
        return raw[node.start_byte : node.end_byte].decode("utf-8", errors="replace")

    def _column(self, row: int, byte_col: int) -> int:
        """A tree-sitter (row, byte column) as a 1-based character column."""
        if self.is_ascii:
            return byte_col + 1
        start = self._line_starts[row] if row < len(self._line_starts) else len(self.data)
        prefix = self.data[start : start + byte_col]
        return len(prefix.decode("utf-8", errors="replace")) + 1

    def span(self, node: Node, end: Node | None = None) -> Span:
        last = end if end is not None else node
        (r0, c0), (r1, c1) = node.start_point, last.end_point
        return Span(self.path, r0 + 1, self._column(r0, c0), r1 + 1, self._column(r1, c1))

    def span_of_bytes(self, start_byte: int, end_byte: int) -> Span:
        r0 = bisect.bisect_right(self._line_starts, start_byte) - 1
        r1 = bisect.bisect_right(self._line_starts, end_byte) - 1
        return Span(
            self.path,
            r0 + 1,
            self._column(r0, start_byte - self._line_starts[r0]),
            r1 + 1,
            self._column(r1, end_byte - self._line_starts[r1]),
        )

    def line_text(self, line: int) -> str:
        lines = self.text.splitlines()
        return lines[line - 1] if 1 <= line <= len(lines) else ""


def parse(text: str, path: str = "<memory>", previous: ParsedFile | None = None) -> ParsedFile:
    """Parse `text`. With `previous` (the same document's last parse), tree-sitter re-parses incrementally: the
    changed byte range is found by comparing the two masked texts, the old tree is edited and reused, which gives the
    same tree as a full parse in a fraction of the time (how an editor's re-lint after a keystroke runs). The same
    text under the same path is `previous` itself: its tree and the models already in its memo (a re-lint of an
    unchanged file, a save, a tool called twice) are not computed again."""
    if previous is not None and previous.path == path and previous.text == text:
        return previous
    code = code_view(text)
    masked = _mask(text, code)
    data = masked.encode("utf-8", errors="surrogatepass")
    tree = _parse_bytes(data, previous)
    # line k starts after the k newlines before it: len(line 0) + 1 + ... + len(line k-1) + 1
    starts = [0]
    starts.extend(
        map(operator.add, itertools.accumulate(map(len, data.split(b"\n")[:-1])), itertools.count(1))
    )
    pf = ParsedFile(
        path=path,
        text=text,
        masked=masked,
        tree=tree,
        data=data,
        _line_starts=starts,
        _ascii_masked=masked if data.isascii() else None,
    )
    pf.memo["code_view"] = code
    return pf


def _common_prefix(a: bytes, b: bytes) -> int:
    """Length of the common prefix of `a` and `b` (slice comparisons, halving: memcmp speed, not a Python loop)."""
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[lo:mid] == b[lo:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _common_suffix(a: bytes, b: bytes, limit: int) -> int:
    """Length of the common suffix of `a` and `b`, at most `limit`."""
    lo, hi = 0, limit
    la, lb = len(a), len(b)
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[la - mid : la - lo] == b[lb - mid : lb - lo]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def _point(data: bytes, offset: int) -> tuple[int, int]:
    """(row, byte column) of a byte offset."""
    row = data.count(b"\n", 0, offset)
    return row, offset - (data.rfind(b"\n", 0, offset) + 1)


def _parse_bytes(data: bytes, previous: ParsedFile | None) -> Tree:
    if previous is None:
        return _parser.parse(data)
    if previous.data == data:  # the same masked text (another path, or only blanked keywords changed)
        return previous.tree  # trees are never edited in place (an edit works on a copy, below)
    old = previous.data
    start = _common_prefix(old, data)
    suffix = _common_suffix(old, data, min(len(old), len(data)) - start)
    old_end, new_end = len(old) - suffix, len(data) - suffix
    tree = previous.tree.copy()  # the previous ParsedFile keeps its own, unedited tree
    tree.edit(start, old_end, new_end, _point(old, start), _point(old, old_end), _point(data, new_end))
    return _parser.parse(data, tree)


def walk(node: Node) -> list[Node]:
    """All nodes under `node` in document order (iterative: deep trees do not hit the recursion limit)."""
    out: list[Node] = []
    stack = [node]
    while stack:
        n = stack.pop()
        out.append(n)
        stack.extend(reversed(n.children))
    return out


def error_nodes(pf: ParsedFile) -> list[Node]:
    return [n for n in walk(pf.root) if n.type == "ERROR" or n.is_missing]
