"""Where a parse went wrong: the regions (statement, function, class) of a file that contain a tree-sitter ERROR or
MISSING node, or a line left unfinished, so that a rule whose facts come from such a region stays silent there
(`Rule.region`).

Half-typed code is the normal state of a file in an editor: ``DataCo`` without its ``;`` makes tree-sitter read the
next line as a declaration, and a queue rule would then see a ``DeQue`` whose ``FreeTensor`` vanished. A line that
ends with ``::``, ``.`` or ``->`` is being typed too, even where it parses: ``AscendC::`` above
``outQueueY.EnQue(yLocal);`` reads as ``AscendC::outQueueY.EnQue(yLocal);``, valid C++ that means something else.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from tree_sitter import Node

from akgen_lsp.ascendc.syntax import ParsedFile
from akgen_lsp.findings import Span

# node types that delimit each region kind, innermost first
_STATEMENT = ("declaration", "field_declaration", "function_definition")
_FUNCTION = ("function_definition", "lambda_expression")
_CLASS = ("class_specifier", "struct_specifier", "union_specifier")


# a line's last code character first (a character class: the scan is quick), then whether the token is ::, -> or .
_LAST_CHAR = re.compile(r"[:>.][ \t]*$", re.M)
_UNFINISHED = re.compile(r"(?:::|->|(?<![.\d])\.)[ \t]*$", re.M)


def unfinished_lines(parsed: ParsedFile) -> list[int]:
    """0-based rows whose code (comments and strings blanked) ends with ``::``, ``.`` or ``->``."""
    code = parsed.code
    out: list[int] = []
    for m in _LAST_CHAR.finditer(code):
        at = m.start()
        if _UNFINISHED.match(code, max(at - 1, 0)) or _UNFINISHED.match(code, at):
            out.append(code.count("\n", 0, at))
    return out


class BrokenRegions:
    """Asks whether a finding's region is half-typed; None from `of` when the whole file parses and is finished."""

    def __init__(self, parsed: ParsedFile, unfinished: list[int]) -> None:
        self.parsed = parsed
        self._lines = parsed.text.splitlines()
        self._unfinished = unfinished

    @classmethod
    def of(cls, parsed: ParsedFile) -> BrokenRegions | None:
        unfinished = unfinished_lines(parsed)
        if not unfinished and not parsed.root.has_error:
            return None
        return cls(parsed, unfinished)

    def _node_at(self, span: Span) -> Node:
        row = max(span.line - 1, 0)
        line = self._lines[row] if row < len(self._lines) else ""
        col = len(line[: max(span.column - 1, 0)].encode("utf-8", errors="surrogatepass"))
        return self.parsed.root.descendant_for_point_range((row, col), (row, col))

    def _region(self, node: Node, region: str) -> Node | None:
        """The innermost `region` around `node`: its statement, function, or class (a function outside any
        class for "class"); None at file scope."""
        function = None
        for n in _ancestors(node, self.parsed.root):
            if (
                region == "statement"
                and n.type != "compound_statement"
                and (n.type.endswith("_statement") or n.type in _STATEMENT)
            ):
                return n
            if n.type in _FUNCTION:
                if region == "function":
                    return n
                function = function or n
            if region == "class" and n.type in _CLASS:
                return n
        return function

    def covers(self, span: Span, region: str) -> bool:
        """Whether the `region` around `span` ("statement", "function", "class") holds a parse error. A finding
        outside any such region (file scope) counts the whole file."""
        node = self._node_at(span)
        if node.type == "ERROR" or node.is_missing:
            return True
        around = self._region(node, region) or self.parsed.root
        first, last = around.start_point[0], around.end_point[0]
        return around.has_error or any(first <= row <= last for row in self._unfinished)


def _ancestors(node: Node, root: Node) -> Iterator[Node]:
    """`node` and its ancestors, innermost first, found by one descent from `root` (`child_with_descendant`):
    tree-sitter's `parent` walks down from the root each time, so going up a 4,000-deep tree one `parent` at a time
    (a half-typed line of 24,000 `::`) took seconds per keystroke."""
    path = [root]
    cur = root
    while cur != node:
        nxt = cur.child_with_descendant(node)
        if nxt is None or nxt == cur:
            break
        path.append(nxt)
        cur = nxt
    if cur != node:
        path.append(node)
    return reversed(path)
