"""What the file's ``#define``s say: its macros (`macros`, `Macro`) and the uses of names it leaves to the build
(`undefined_macro_uses`)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from tree_sitter import Node

from akgen_lsp.ascendc.syntax.grammar import F_NAME, F_PARAMETERS, F_VALUE
from akgen_lsp.ascendc.syntax.index import _index, _text
from akgen_lsp.ascendc.syntax.parsing import ParsedFile
from akgen_lsp.findings import Span

_DEFINE_RE = re.compile(r"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)(\()?", re.M)


@dataclass(frozen=True)
class Macro:
    """A ``#define``: `params` is None for an object-like macro; `ambiguous` when the file defines the name more
    than once with different bodies (in branches of an ``#if``), so its value is not known."""

    name: str
    params: tuple[str, ...] | None  # None: object-like
    body: str
    node: Node | None
    ambiguous: bool = False


def macros(pf: ParsedFile) -> dict[str, Macro]:
    """``#define``s of the file by name (the last definition wins), from the tree and, for defines the tree lost
    (inside blanked conditional branches), from the text."""
    got = pf.memo.get("macros")
    if got is not None:
        return got  # type: ignore[return-value]
    out: dict[str, Macro] = {}
    for node in _index(pf).get("define", ()):
        name_node = node.child_by_field_id(F_NAME)
        if name_node is None:
            continue
        params_node = node.child_by_field_id(F_PARAMETERS)
        params = (
            tuple(pf.node_text(c) for c in params_node.named_children) if params_node is not None else None
        )
        value = node.child_by_field_id(F_VALUE)
        body = " ".join(_text(pf, value).replace("\\\n", " ").split())
        name = pf.node_text(name_node)
        prev = out.get(name)
        ambiguous = prev is not None and (prev.ambiguous or prev.body != body or prev.params != params)
        out[name] = Macro(name, params, body, node, ambiguous)
    for m in _DEFINE_RE.finditer(pf.text):
        if m.group(1) not in out:
            out[m.group(1)] = Macro(m.group(1), () if m.group(2) else None, "", None)
    pf.memo["macros"] = out
    return out


def undefined_macro_uses(pf: ParsedFile, pattern: re.Pattern[str]) -> list[tuple[str, Span]]:
    """Uses of names matching `pattern` (group 1 if it has one, else the whole match) in code (comments and strings
    blanked) that the file does not ``#define`` itself, outside preprocessor lines: macros a build must provide."""
    defined = macros(pf)
    code = pf.code
    out: list[tuple[str, Span]] = []
    for m in pattern.finditer(code):
        group = 1 if pattern.groups else 0
        name, start = m.group(group), m.start(group)
        line_start = code.rfind("\n", 0, start) + 1
        if name in defined or code[line_start:start].lstrip().startswith("#"):
            continue
        line = code.count("\n", 0, start) + 1
        col = start - line_start + 1
        out.append((name, Span(pf.path, line, col, line, col + len(name))))
    return out
