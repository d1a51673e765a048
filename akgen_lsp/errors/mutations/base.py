"""What a mutation is, and the context an operator reads.

A `Mutation` is a realistic mistake applied to a correct kernel: one or more text edits (character offsets in the
original), the class of the mistake in the taxonomy, what was done (`description`, for the manifest) and why it is
wrong (`explanation`, the reasoning of the training answer). The repair is the inverse edit: the original text.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import cached_property

from tree_sitter import Node

from akgen_lsp.ascendc.catalog import Catalog
from akgen_lsp.ascendc.syntax import Call, ParsedFile, calls, classes, functions, parse


@dataclass(frozen=True)
class Edit:
    start: int
    end: int
    text: str


@dataclass(frozen=True)
class Mutation:
    operator: str
    error_class: str  # the class of the injected mistake
    edits: tuple[Edit, ...]
    line: int  # 1-based line of the first edit in the original
    description: str
    explanation: str

    def apply(self, text: str) -> str:
        for e in sorted(self.edits, key=lambda e: e.start, reverse=True):
            text = text[: e.start] + e.text + text[e.end :]
        return text

    @property
    def key(self) -> str:
        """Stable within one source text: operator, place and replacement."""
        return f"{self.operator}@" + ",".join(f"{e.start}-{e.end}:{e.text}" for e in self.edits)


@dataclass
class MutationContext:
    text: str
    path: str
    catalog: Catalog
    cann_version: str = "8.5"
    pf: ParsedFile = field(init=False)

    def __post_init__(self) -> None:
        self.pf = parse(self.text, self.path)
        data = self.pf.data
        self._ascii = data.isascii()
        self._line_starts = [0] + [m.end() for m in re.finditer("\n", self.text)]

    # positions ------------------------------------------------------------------------------------------

    def offset(self, byte: int) -> int:
        """A tree byte offset as a character offset of `text`."""
        if self._ascii:
            return byte
        return len(self.pf.data[:byte].decode("utf-8", errors="replace"))

    def span(self, node: Node) -> tuple[int, int]:
        return self.offset(node.start_byte), self.offset(node.end_byte)

    def line_of(self, offset: int) -> int:
        return bisect.bisect_right(self._line_starts, offset)

    def statement(self, node: Node) -> tuple[int, int] | None:
        """The character range of the whole line(s) of the expression statement holding `node` (newline included),
        when the statement stands alone on its lines."""
        stmt = node
        while stmt is not None and stmt.type != "expression_statement":
            stmt = stmt.parent
        if stmt is None:
            return None
        a, b = self.span(stmt)
        line_a = self.text.rfind("\n", 0, a) + 1
        line_b = self.text.find("\n", b)
        line_b = len(self.text) if line_b < 0 else line_b + 1
        if self.text[line_a:a].strip() or self.text[b:line_b].strip():
            return None  # shares its line with other code: leave it
        return line_a, line_b

    # the model -----------------------------------------------------------------------------------------

    @cached_property
    def calls(self) -> list[Call]:
        return calls(self.pf, self.catalog)

    @cached_property
    def device_functions(self) -> list[object]:
        return [f for f in functions(self.pf) if f.body is not None]

    @cached_property
    def classes(self) -> list[object]:
        return list(classes(self.pf))

    def calls_named(self, *shorts: str) -> Iterator[Call]:
        for c in self.calls:
            if c.short in shorts and not c.user_defined:
                yield c

    def node_text(self, node: Node) -> str:
        a, b = self.span(node)
        return self.text[a:b]
