"""A queue call without its element type: ``q.AllocTensor()`` / ``q.DeQue()`` -> ``q.AllocTensor<half>()``.

The compiler cannot deduce ``T`` (g++: ``no matching function for call to '...::AllocTensor()'``, or a
``TBufHandle`` that does not convert to ``LocalTensor<half>`` for the untyped ``DeQue()``; clang: ``couldn't infer
template argument 'T'``). The element type comes from the tensor the call initialises or is assigned to
(``LocalTensor<half> x = q.AllocTensor();``), else from the queue's other calls in the file that name it
(``q.DeQue<half>()`` elsewhere), when they all name the same type. Certain: it says what the declaration says.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from akgen_lsp.findings import Edit, Finding, Fix, Span
from akgen_lsp.repair.fixers.base import FixContext, Proposal, unique

NAME = "template argument"
_UNTYPED = re.compile(r"(?P<queue>\w+)\s*(?:\.|->)\s*(?P<op>AllocTensor|DeQue)(?P<after>\s*\(\s*\))")
_DECLARED = re.compile(r"LocalTensor\s*<\s*(?P<type>[\w:]+)\s*>\s*&?\s*(?P<var>\w+)\s*(?:=|;|\))")
_ASSIGNED = re.compile(r"(?P<var>\w+)\s*=\s*$")
_TYPED_USE = r"\b{queue}\s*(?:\.|->)\s*(?:template\s+)?(?:AllocTensor|DeQue|EnQue)\s*<\s*(?P<type>[\w:]+)\s*>"
_SIGNS = ("AllocTensor", "DeQue", "deduce", "infer template argument", "TBufHandle", "no matching")


def _declared_type(code: str, var: str) -> str | None:
    types = unique([m.group("type") for m in _DECLARED.finditer(code) if m.group("var") == var])
    return types[0] if len(types) == 1 else None


def element_type(ctx: FixContext, line: int, start: int, queue: str) -> str | None:
    """The element type of the untyped call at (line, 0-based `start`) of `queue`."""
    code_line = ctx.code_line(line)
    before = code_line[:start]
    decl = _DECLARED.search(before + ";")
    if decl is not None and before.rstrip().endswith("="):
        return decl.group("type")
    assigned = _ASSIGNED.search(before)
    if assigned is not None:
        found = _declared_type(ctx.code, assigned.group("var"))
        if found:
            return found
    uses = unique([m.group("type") for m in re.finditer(_TYPED_USE.format(queue=re.escape(queue)), ctx.code)])
    return uses[0] if len(uses) == 1 else None


def propose(ctx: FixContext, finding: Finding) -> Iterator[Proposal]:
    if not any(s in finding.message for s in _SIGNS):
        return
    line = finding.span.line
    for m in _UNTYPED.finditer(ctx.code_line(line)):
        t = element_type(ctx, line, m.start(), m.group("queue"))
        if t is None:
            continue
        col = m.start("op") + len(m.group("op")) + 1
        edit = Edit(Span(ctx.path, line, col, line, col), f"<{t}>")
        yield Proposal(Fix(f"Write {m.group('op')}<{t}>() ({m.group('queue')}'s element type)", (edit,)), True, NAME)
