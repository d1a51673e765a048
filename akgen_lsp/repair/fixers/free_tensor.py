"""A tensor taken from a queue and never given back: the ``FreeTensor`` at the end of its scope.

The simulator reports the queue running dry (``SIM-QUE-ALLOC``: AllocTensor with no free buffer; on the NPU it
hangs) or a tensor still held at kernel end (``SIM-QUE-LEAK``), both at an ``AllocTensor`` of the queue. The tensor
that is never given back is one a block takes from that queue (``DeQue``, or ``AllocTensor`` without an
``EnQue``) and neither frees nor hands on after it; ``q.FreeTensor(t);`` goes after the last statement of that block
(the end of its scope; before a final ``return``). Not certain: the tensor's last use may be earlier, which only matters for speed.
A tensor freed twice (``SIM-QUE-DOUBLE-FREE``, reported at the second ``FreeTensor``) loses that second call.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from tree_sitter import Node

from akgen_lsp.ascendc.kernel_model import QueueOp
from akgen_lsp.findings import Edit, Finding, Fix, Span
from akgen_lsp.repair.fixers.base import FixContext, Proposal

NAME = "FreeTensor"
CODES = frozenset({"SIM-QUE-ALLOC", "SIM-QUE-LEAK", "SIM-QUE-LIVE"})
_QUEUE_CALL = re.compile(r"(?P<queue>\w+)\s*(?:\.|->)\s*(?:template\s+)?(?:AllocTensor|DeQue)\b")


def scope_of(node: Node) -> Node | None:
    """The innermost block (``{ ... }``) around `node`."""
    n = node.parent
    while n is not None and n.type != "compound_statement":
        n = n.parent
    return n


def _end_of(ctx: FixContext, scope: Node) -> tuple[Span, str] | None:
    """Where a statement goes at the end of the block `scope` (after its last statement, before a final return) and
    the indent of its statements."""
    stmts = [n for n in scope.named_children if n.type != "comment"]
    if not stmts:
        return None
    last = stmts[-1]
    pf = ctx.parsed
    at = pf.span(last)
    line_text = pf.line_text(at.line)
    indent = line_text[: len(line_text) - len(line_text.lstrip())]
    if last.type == "return_statement":
        return Span(ctx.path, at.line, at.column, at.line, at.column), indent
    return Span(ctx.path, at.end_line, at.end_column, at.end_line, at.end_column), indent


def never_given_back(ctx: FixContext, queue: str) -> list[tuple[QueueOp, Node]]:
    """The tensors `queue` hands out (DeQue, or AllocTensor) that no EnQue or FreeTensor after them in their block
    gives back, with that block."""
    out = []
    ops = ctx.model.queue_ops
    for op in ops:
        if op.queue != queue or op.op not in ("DeQue", "AllocTensor") or not op.tensor or op.nargs != 0:
            continue
        if not op.tensor.isidentifier():
            continue
        scope = scope_of(op.call.node)
        if scope is None:
            continue
        given_back = any(
            o.op in ("EnQue", "FreeTensor")
            and o.tensor == op.tensor
            and scope.start_byte <= o.call.node.start_byte < scope.end_byte
            and o.call.node.start_byte > op.call.node.start_byte
            for o in ops
        )
        if not given_back:
            out.append((op, scope))
    return out


def _drop_second_free(ctx: FixContext, finding: Finding) -> Iterator[Proposal]:
    for call in ctx.calls_on_line(finding.span.line, "FreeTensor"):
        stmt = call.node.parent
        if stmt is None or stmt.type != "expression_statement":
            continue
        span = ctx.parsed.span(stmt)
        line_text = ctx.parsed.line_text(span.line)
        whole = line_text.strip() == ctx.parsed.node_text(stmt).strip()
        at = Span(ctx.path, span.line, 1, span.line + 1, 1) if whole else span
        tensor = ctx.parsed.node_text(call.args[0]) if call.args else "the tensor"
        yield Proposal(Fix(f"Remove the second FreeTensor({tensor})", (Edit(at, ""),)), True, NAME)


def propose(ctx: FixContext, finding: Finding) -> Iterator[Proposal]:
    if finding.code == "SIM-QUE-DOUBLE-FREE":
        yield from _drop_second_free(ctx, finding)
        return
    if finding.code not in CODES:
        return
    queues = {m.group("queue") for m in _QUEUE_CALL.finditer(ctx.code_line(finding.span.line))}
    seen: set[tuple[int, str]] = set()
    for queue in sorted(queues):
        for op, scope in never_given_back(ctx, queue):
            key = (scope.start_byte, op.tensor or "")
            if key in seen:
                continue
            seen.add(key)
            where = _end_of(ctx, scope)
            if where is None:
                continue
            at, indent = where
            text = (
                f"\n{indent}{queue}.FreeTensor({op.tensor});"
                if at.column > 1 and ctx.parsed.line_text(at.line)[: at.column - 1].strip()
                else f"{queue}.FreeTensor({op.tensor});\n{indent}"
            )
            body = op.function.body
            end = (
                f"'{op.function.name}'"
                if body is not None and body.start_byte == scope.start_byte
                else "its block"
            )
            yield Proposal(Fix(f"Free '{op.tensor}' at the end of {end}", (Edit(at, text),)), False, NAME)
