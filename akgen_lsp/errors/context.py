"""The code around an error: the faulty line, its enclosing function, the kernel class members it touches, and the
Ascend C names on it (from the parse of the document, no compile)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from akgen_lsp.ascendc.catalog import Catalog
from akgen_lsp.ascendc.syntax import ClassInfo, Function, ParsedFile, calls, class_named, functions, parse

_IDENT = re.compile(r"[A-Za-z_]\w*")


@dataclass(frozen=True)
class Member:
    name: str
    type: str
    line: int

    def to_json(self) -> dict[str, Any]:
        return {"name": self.name, "type": self.type, "line": self.line}


@dataclass
class CodeContext:
    path: str
    line: int
    code_line: str
    window: list[tuple[int, str]] = field(default_factory=list)  # numbered lines around the faulty one
    function: str | None = None  # qualified name
    function_signature: str | None = None
    function_lines: tuple[int, int] | None = None
    class_name: str | None = None
    members: list[Member] = field(default_factory=list)
    calls: list[str] = field(
        default_factory=list
    )  # callee texts on the line, resolved to the catalog where known

    def numbered(self) -> str:
        width = len(str(self.window[-1][0])) if self.window else 1
        return "\n".join(f"{'>' if n == self.line else ' '} {n:>{width}} | {t}" for n, t in self.window)

    def to_json(self) -> dict[str, Any]:
        return {
            "path": self.path,
            "line": self.line,
            "code_line": self.code_line,
            "window": [{"line": n, "text": t} for n, t in self.window],
            "function": self.function,
            "function_signature": self.function_signature,
            "function_lines": list(self.function_lines) if self.function_lines else None,
            "class": self.class_name,
            "members": [m.to_json() for m in self.members],
            "calls": self.calls,
        }


def _enclosing(pf: ParsedFile, line: int) -> Function | None:
    best: Function | None = None
    for fn in functions(pf):
        r0, r1 = fn.node.start_point[0] + 1, fn.node.end_point[0] + 1
        if r0 <= line <= r1 and (best is None or r0 >= best.node.start_point[0] + 1):
            best = fn
    return best


def code_context(
    text: str,
    path: str,
    line: int,
    catalog: Catalog | None = None,
    radius: int = 4,
    parsed: ParsedFile | None = None,
) -> CodeContext:
    """The context of `line` (1-based) in `text`; a line outside the text gives an empty context."""
    lines = text.splitlines()
    if not 1 <= line <= len(lines):
        return CodeContext(path, line, "")
    lo, hi = max(1, line - radius), min(len(lines), line + radius)
    ctx = CodeContext(path, line, lines[line - 1], [(n, lines[n - 1]) for n in range(lo, hi + 1)])
    pf = parsed if parsed is not None else parse(text, path)
    fn = _enclosing(pf, line)
    if fn is None:
        return ctx
    ctx.function = (
        fn.qualified if "::" in fn.qualified or not fn.class_name else f"{fn.class_name}::{fn.qualified}"
    )
    ctx.function_lines = (fn.node.start_point[0] + 1, fn.node.end_point[0] + 1)
    params = ", ".join(f"{p.type_text} {p.name}".strip() for p in fn.params)
    ctx.function_signature = f"{fn.return_type} {ctx.function}({params})".strip()
    ctx.class_name = fn.class_name
    cls: ClassInfo | None = class_named(pf, fn.class_name) if fn.class_name else None
    here = ctx.code_line
    if cls is not None:
        seen: set[str] = set()
        for name in _IDENT.findall(here):
            decl = cls.field(name)
            if decl is not None and name not in seen:
                seen.add(name)
                ctx.members.append(Member(name, decl.type_text, decl.node.start_point[0] + 1))
    for c in calls(pf, catalog):
        if (
            c.node.start_point[0] + 1 <= line <= c.node.end_point[0] + 1
            and c.name_node.start_point[0] + 1 == line
        ):
            ctx.calls.append(c.resolved or c.text)
    return ctx
