"""A queue or buffer call without its element type, or with the wrong one: ``q.AllocTensor()`` ->
``q.AllocTensor<half>()``, ``q.DeQue<float>()`` into a ``LocalTensor<T>`` -> ``q.DeQue<T>()``.

The compiler cannot deduce ``T`` (g++: ``no matching function for call to '...::AllocTensor()'``, or a
``TBufHandle`` that does not convert to ``LocalTensor<half>`` for the untyped ``DeQue()``; clang: ``couldn't infer
template argument 'T'``), or the tensor does not convert (``conversion from 'LocalTensor<float>' to non-scalar type
'LocalTensor<half>'``, ``no match for 'operator='``). The element type comes from the tensor the call initialises or
is assigned to (``LocalTensor<T> x = q.AllocTensor();``, a member ``LocalTensor<float> fg[2]``), as the declaration
writes it; an untyped call with no such tensor takes the type the queue's other calls name, when they all name one.
Certain: it says what the declaration says.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from akgen_lsp.findings import Edit, Finding, Fix, Span
from akgen_lsp.repair.fixers.base import FixContext, Proposal, unique

NAME = "template argument"
_CALL = re.compile(
    r"(?P<queue>\w+)\s*(?:\.|->)\s*(?:template\s+)?(?P<op>AllocTensor|DeQue|Get)\s*"
    r"(?:<\s*(?P<written>[\w:]+)\s*>)?(?P<after>\s*\()"
)
_DECLARED = re.compile(r"LocalTensor\s*<\s*(?P<type>[\w:]+)\s*>\s*&?\s*(?P<var>\w+)\s*(?:=|;|\)|\[|,)")
_ASSIGNED = re.compile(r"(?P<var>\w+)\s*(?:\[[^\]]*\]\s*)?=\s*$")
_TYPED_USE = r"\b{queue}\s*(?:\.|->)\s*(?:template\s+)?(?:AllocTensor|DeQue|EnQue)\s*<\s*(?P<type>[\w:]+)\s*>"
_SIGNS = (
    "AllocTensor",
    "DeQue",
    "deduce",
    "infer template argument",
    "TBufHandle",
    "no matching",
    "conversion from",
    "no match for 'operator='",
    "cannot convert",
    "no viable conversion",
    "is_tensor_expr",
)


def _declared_type(code: str, var: str) -> str | None:
    types = unique([m.group("type") for m in _DECLARED.finditer(code) if m.group("var") == var])
    return types[0] if len(types) == 1 else None


def target_type(ctx: FixContext, line: int, start: int) -> str | None:
    """The element type of the tensor the call at (line, 0-based `start`) initialises or is assigned to."""
    before = ctx.code_line(line)[:start]
    if before.rstrip().endswith("="):
        decl = list(_DECLARED.finditer(before + ";"))
        if decl and decl[-1].end() >= len(before.rstrip()):
            return decl[-1].group("type")
    assigned = _ASSIGNED.search(before)
    if assigned is not None:
        return _declared_type(ctx.code, assigned.group("var"))
    return None


def element_type(ctx: FixContext, line: int, start: int, queue: str) -> str | None:
    """The element type of the untyped call at (line, 0-based `start`) of `queue`."""
    found = target_type(ctx, line, start)
    if found:
        return found
    uses = unique([m.group("type") for m in re.finditer(_TYPED_USE.format(queue=re.escape(queue)), ctx.code)])
    return uses[0] if len(uses) == 1 else None


def propose(ctx: FixContext, finding: Finding) -> Iterator[Proposal]:
    if not any(s in finding.message for s in _SIGNS):
        return
    line = finding.span.line
    for m in _CALL.finditer(ctx.code_line(line)):
        written, op, queue = m.group("written"), m.group("op"), m.group("queue")
        if written is None:
            if op == "Get":
                continue  # TBuf::Get() without a type is a compile error of its own kind
            t = element_type(ctx, line, m.start(), queue)
            if t is None:
                continue
            col = m.start("op") + len(op) + 1
            edit = Edit(Span(ctx.path, line, col, line, col), f"<{t}>")
            yield Proposal(Fix(f"Write {op}<{t}>() ({queue}'s element type)", (edit,)), True, NAME)
            continue
        t = target_type(ctx, line, m.start())
        if t is None or t == written:
            continue
        col = m.start("written") + 1
        edit = Edit(Span(ctx.path, line, col, line, col + len(written)), t)
        yield Proposal(
            Fix(f"Write {op}<{t}>() (the tensor is LocalTensor<{t}>, not <{written}>)", (edit,)), True, NAME
        )
