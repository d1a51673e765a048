"""Where a parse went wrong: the regions (statement, function, class) of a file that contain a tree-sitter ERROR or
MISSING node, so that a rule whose facts come from such a region stays silent there (`Rule.region`).

Half-typed code is the normal state of a file in an editor: ``DataCo`` without its ``;`` makes tree-sitter read the
next line as a declaration, and a queue rule would then see a ``DeQue`` whose ``FreeTensor`` vanished.
"""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from akgen_lsp.ascendc.syntax import ParsedFile
from akgen_lsp.findings import Span

# node types that delimit each region kind, innermost first
_STATEMENT = ("declaration", "field_declaration", "function_definition")
_FUNCTION = ("function_definition", "lambda_expression")
_CLASS = ("class_specifier", "struct_specifier", "union_specifier")


class BrokenRegions:
    def __init__(self, parsed: ParsedFile) -> None:
        self.parsed = parsed
        self._lines = parsed.text.splitlines()

    def _node_at(self, span: Span) -> Node:
        row = max(span.line - 1, 0)
        line = self._lines[row] if row < len(self._lines) else ""
        col = len(line[: max(span.column - 1, 0)].encode("utf-8", errors="surrogatepass"))
        return self.parsed.root.descendant_for_point_range((row, col), (row, col))

    @staticmethod
    def _region(node: Node, region: str) -> Node | None:
        """The innermost `region` around `node`: its statement, function, or class (a function outside any
        class for "class"); None at file scope."""
        function = None
        for n in _ancestors(node):
            if region == "statement" and n.type != "compound_statement" and (
                n.type.endswith("_statement") or n.type in _STATEMENT
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
        around = self._region(node, region)
        return (around or self.parsed.root).has_error


def _ancestors(node: Node | None) -> Iterator[Node]:
    while node is not None:
        yield node
        node = node.parent
