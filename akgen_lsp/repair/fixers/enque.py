"""A tensor filled and never ``EnQue``d: the ``DeQue`` of its queue finds nothing (the simulator's
``SIM-QUE-EMPTY``, the linter's AKG120 "nothing ever calls q.EnQue"; on the NPU it waits forever) ->
``q.EnQue(t);`` after the tensor's last use.

The tensor is one the queue's ``AllocTensor`` hands out that its block neither EnQues nor frees before the next
``DeQue`` of the queue there (the one reported first) or the block's end; the ``EnQue`` goes after the last statement of that block that uses it, before a ``DeQue`` of the queue
in the same block (``t = q.AllocTensor<T>(); DataCopy(t, ...); t = q.DeQue<T>();``). Not certain: which statements
still write the tensor is what the author knows; the cases tell.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from tree_sitter import Node

from akgen_lsp.ascendc.kernel_model import QueueOp
from akgen_lsp.findings import Edit, Finding, Fix, Span
from akgen_lsp.repair.fixers.base import FixContext, Proposal
from akgen_lsp.repair.fixers.free_tensor import scope_of

NAME = "EnQue"
CODES = frozenset({"SIM-QUE-EMPTY", "AKG120"})
_DEQUE = re.compile(r"(?P<queue>\w+)\s*(?:\.|->)\s*(?:template\s+)?DeQue\b")


def _unqueued(ctx: FixContext, queue: str) -> list[tuple[QueueOp, Node, Node | None]]:
    """The tensors `queue`'s AllocTensor hands out that their block neither EnQues nor frees before the next DeQue
    of the queue there (or the block's end): with the block and that DeQue (None at the block's end)."""
    ops = sorted(ctx.model.queue_ops, key=lambda o: o.call.node.start_byte)
    out = []
    for i, op in enumerate(ops):
        if op.op != "AllocTensor" or op.queue != queue or not op.tensor or not op.tensor.isidentifier():
            continue
        scope = scope_of(op.call.node)
        if scope is None:
            continue
        deque = None
        for o in ops[i + 1 :]:
            if not (scope.start_byte <= o.call.node.start_byte < scope.end_byte):
                continue
            if o.op in ("EnQue", "FreeTensor") and o.tensor == op.tensor:
                break
            if o.op == "DeQue" and o.queue == queue:
                deque = o.call.node
                break
        else:
            out.append((op, scope, None))
            continue
        if deque is not None:
            out.append((op, scope, deque))
    return out


def propose(ctx: FixContext, finding: Finding) -> Iterator[Proposal]:
    if finding.code not in CODES or (finding.code == "AKG120" and "EnQue" not in finding.message):
        return
    m = _DEQUE.search(ctx.code_line(finding.span.line))
    if m is None:
        return
    queue = m.group("queue")
    pf = ctx.parsed
    found = _unqueued(ctx, queue)
    here = [c for c in found if c[2] is not None and pf.span(c[2]).line == finding.span.line]
    for op, scope, deque in here or found:
        stmts = [n for n in scope.named_children if n.type != "comment"]
        first = next(
            (i for i, n in enumerate(stmts) if n.start_byte <= op.call.node.start_byte < n.end_byte), None
        )
        if first is None or op.tensor is None:
            continue
        uses = re.compile(rf"\b{re.escape(op.tensor)}\b")
        last = stmts[first]
        for n in stmts[first + 1 :]:
            if deque is not None and n.start_byte <= deque.start_byte < n.end_byte:
                break  # the DeQue that must find it
            if n.type in ("return_statement", "break_statement", "continue_statement"):
                break
            if uses.search(pf.node_text(n)):
                last = n
        at = pf.span(last)
        line_text = pf.line_text(at.line)
        indent = line_text[: len(line_text) - len(line_text.lstrip())]
        edit = Edit(
            Span(ctx.path, at.end_line, at.end_column, at.end_line, at.end_column),
            f"\n{indent}{queue}.EnQue({op.tensor});",
        )
        yield Proposal(
            Fix(f"EnQue '{op.tensor}' on '{queue}' after its last use (line {at.end_line})", (edit,)),
            False,
            NAME,
        )
