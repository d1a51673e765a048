"""The syntax layer: tree-sitter-cpp over AscendC device code.

Device keywords (``__aicore__``, ``__global__``, ``__gm__``, ``__mix__(1, 2)``, the ``[aicore]`` attribute spelling, ...)
and ``<<<...>>>`` launch configurations are blanked with spaces before parsing, so every byte offset in the tree is
an offset in the user's text. `ParsedFile` converts tree positions to 1-based character `Span`s.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field

import tree_sitter_cpp
from tree_sitter import Language, Node, Parser, Tree

from akgen_lsp.findings import Span

CPP = Language(tree_sitter_cpp.language())

DEVICE_KEYWORDS = (
    "__global__", "__aicore__", "__gm__", "__ubuf__", "__cbuf__", "__ca__", "__cb__", "__cc__", "__fbuf__",
    "__vector__", "__cube__", "__inline__", "__forceinline__", "__simt_vf__", "__simd_vf__", "__host__",
    "__device__", "__sync_alias__", "__sync_noalias__", "__in_pipe__", "__out_pipe__", "__check_sync_alias__",
    "__ssbuf__", "__attribute_aicore__",
)

_KEYWORD_RE = re.compile(
    r"\b(?:" + "|".join(re.escape(k) for k in DEVICE_KEYWORDS) + r")\b"
    r"|\b__mix__\s*\([^()]*\)"
    r"|\[\s*aicore\s*\]"
    r"|\[\s*\[\s*(?:aicore|vector|cube)\s*\]\s*\]"
)
_LAUNCH_RE = re.compile(r"<<<(?:[^<>;]|<[^<>;]*>)*?>>>")


def _blank(match: re.Match[str]) -> str:
    return "".join("\n" if c == "\n" else " " for c in match.group(0))


def mask_device_code(text: str) -> str:
    """Replace device keywords and ``<<<...>>>`` with spaces (same length, newlines kept)."""
    text = _KEYWORD_RE.sub(_blank, text)
    return _LAUNCH_RE.sub(_blank, text)


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

    @property
    def root(self) -> Node:
        return self.tree.root_node

    def node_text(self, node: Node) -> str:
        return self.data[node.start_byte : node.end_byte].decode("utf-8", errors="replace")

    def original_text(self, node: Node) -> str:
        """The user's text under `node` (the keywords not blanked)."""
        return self.text.encode("utf-8", errors="surrogatepass")[node.start_byte : node.end_byte].decode(
            "utf-8", errors="replace"
        )

    def _column(self, row: int, byte_col: int) -> int:
        """A tree-sitter (row, byte column) as a 1-based character column."""
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


def parse(text: str, path: str = "<memory>") -> ParsedFile:
    masked = mask_device_code(text)
    data = masked.encode("utf-8", errors="surrogatepass")
    tree = _parser.parse(data)
    starts = [0]
    for i, b in enumerate(data):
        if b == 0x0A:
            starts.append(i + 1)
    return ParsedFile(path=path, text=text, masked=masked, tree=tree, data=data, _line_starts=starts)


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
