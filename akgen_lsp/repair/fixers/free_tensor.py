"""A tensor taken from a queue and never given back: the ``FreeTensor`` at the end of its scope.

The simulator reports the queue running dry (``SIM-QUE-ALLOC``: AllocTensor with no free buffer; on the NPU it
hangs) or a tensor still held at kernel end (``SIM-QUE-LEAK``), both at an ``AllocTensor`` of the queue. The tensor
that is never given back is the one a function takes from that queue (``DeQue``, or ``AllocTensor`` without an
``EnQue``) and neither frees nor hands on; ``q.FreeTensor(t);`` goes after the last statement of that function
(before a final ``return``). Not certain: the tensor's last use may be earlier, which only matters for speed.
A tensor freed twice (``SIM-QUE-DOUBLE-FREE``, reported at the second ``FreeTensor``) loses that second call.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from akgen_lsp.ascendc.kernel_model import Function, QueueOp
from akgen_lsp.findings import Edit, Finding, Fix, Span
from akgen_lsp.repair.fixers.base import FixContext, Proposal

NAME = "FreeTensor"
CODES = frozenset({"SIM-QUE-ALLOC", "SIM-QUE-LEAK", "SIM-QUE-LIVE"})
_QUEUE_CALL = re.compile(r"(?P<queue>\w+)\s*(?:\.|->)\s*(?:template\s+)?(?:AllocTensor|DeQue)\b")


def _end_of(ctx: FixContext, fn: Function) -> tuple[Span, str] | None:
    """Where a statement goes at the end of `fn` (after its last statement, before a final return) and its indent."""
    body = fn.body
    if body is None or body.type != "compound_statement":
        return None
    stmts = [n for n in body.named_children if n.type != "comment"]
    if not stmts:
        return None
    last = stmts[-1]
    pf = ctx.parsed
    if last.type == "return_statement":
        at = pf.span(last)
        line_text = pf.line_text(at.line)
        indent = line_text[: len(line_text) - len(line_text.lstrip())]
        return Span(ctx.path, at.line, at.column, at.line, at.column), indent
    end = pf.span(last)
    line_text = pf.line_text(end.line)
    indent = line_text[: len(line_text) - len(line_text.lstrip())]
    return Span(ctx.path, end.end_line, end.end_column, end.end_line, end.end_column), indent


def _never_given_back(ctx: FixContext, queue: str) -> list[QueueOp]:
    by_fn: dict[int, list[QueueOp]] = {}
    for op in ctx.model.queue_ops:
        by_fn.setdefault(op.function.node.start_byte, []).append(op)
    out = []
    for ops in by_fn.values():
        handled = {op.tensor for op in ops if op.op in ("EnQue", "FreeTensor") and op.tensor}
        for op in ops:
            if (op.queue == queue and op.op in ("DeQue", "AllocTensor") and op.tensor and op.nargs == 0
                    and not op.stored_elsewhere and op.tensor not in handled):
                out.append(op)
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
        for op in _never_given_back(ctx, queue):
            key = (op.function.node.start_byte, op.tensor or "")
            if key in seen:
                continue
            seen.add(key)
            where = _end_of(ctx, op.function)
            if where is None:
                continue
            at, indent = where
            text = (f"\n{indent}{queue}.FreeTensor({op.tensor});" if at.column > 1 and
                    ctx.parsed.line_text(at.line)[: at.column - 1].strip() else f"{queue}.FreeTensor({op.tensor});\n"
                    f"{indent}")
            yield Proposal(Fix(f"Free '{op.tensor}' at the end of '{op.function.name}'", (Edit(at, text),)), False, NAME)
