"""``DeQue`` from the wrong queue (the simulator's ``SIM-QUE-EMPTY``: nothing was ``EnQue``d on it; on the NPU it
waits forever) -> the queue that is filled and never emptied.

The queues of the file are counted: the one the DeQue names has more DeQues than EnQues; a queue with more EnQues
than DeQues (of the same element type, where the file says) is the one meant, at the reported DeQue or at an
earlier DeQue of that queue in the same function (the one that emptied it). Certain when exactly one queue and one
place are.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator

from akgen_lsp.findings import Edit, Finding, Fix
from akgen_lsp.repair.fixers.base import FixContext, Proposal

NAME = "DeQue queue"
CODES = frozenset({"SIM-QUE-EMPTY", "AKG120"})
_DEQUE = re.compile(
    r"(?P<queue>\w+)\s*(?:\.|->)\s*(?:template\s+)?DeQue\s*(?:<\s*(?P<type>[\w:]+)\s*>)?\s*\("
)
_TYPED = r"\b{queue}\s*(?:\.|->)\s*(?:template\s+)?(?:AllocTensor|DeQue|EnQue)\s*<\s*(?P<type>[\w:]+)\s*>"


def _types(ctx: FixContext, queue: str) -> set[str]:
    return {m.group("type") for m in re.finditer(_TYPED.format(queue=re.escape(queue)), ctx.code)}


def propose(ctx: FixContext, finding: Finding) -> Iterator[Proposal]:
    if finding.code not in CODES or (finding.code == "AKG120" and "DeQue" not in finding.message):
        return
    line = finding.span.line
    m = _DEQUE.search(ctx.code_line(line))
    if m is None:
        return
    wrong = m.group("queue")
    enq: Counter[str] = Counter()
    deq: Counter[str] = Counter()
    for op in ctx.model.queue_ops:
        if op.op == "EnQue":
            enq[op.queue] += 1
        elif op.op == "DeQue":
            deq[op.queue] += 1
    if deq[wrong] <= enq[wrong]:
        return
    want = m.group("type")
    candidates = [
        q
        for q in enq
        if q != wrong and enq[q] > deq[q] and (want is None or not _types(ctx, q) or want in _types(ctx, q))
    ]
    if not candidates:
        return
    # the DeQue that finds the queue empty may be the right one, after an earlier DeQue of the same function took
    # its tensor (``x = qY.DeQue(); y = qY.DeQue();``): such a DeQue is a place the other queue may be meant (the
    # one reported first), unless that queue is EnQue'd only after it in that function (it would be empty there).
    # A DeQue of another function emptied the queue the way it should.
    ops = ctx.model.queue_ops
    reported = next(
        (
            op
            for op in ops
            if op.op == "DeQue" and op.queue == wrong and ctx.parsed.span(op.call.node).line == line
        ),
        None,
    )
    earlier = [
        op
        for op in ops
        if reported is not None
        and op.op == "DeQue"
        and op.queue == wrong
        and op is not reported
        and op.function.node.start_byte == reported.function.node.start_byte
        and op.call.node.start_byte < reported.call.node.start_byte
    ]
    for q in candidates:
        sites = [(line, m.start("queue") + 1)]
        for op in earlier:
            here = [
                o
                for o in ops
                if o.op == "EnQue"
                and o.queue == q
                and o.function.node.start_byte == op.function.node.start_byte
            ]
            if here and all(o.call.node.start_byte > op.call.node.start_byte for o in here):
                continue
            at = ctx.parsed.span(op.call.node)
            if at.line != line:
                sites.append((at.line, at.column))
        for n, (where, col) in enumerate(sites):
            span = ctx.word_span(where, wrong, col)
            if span is None:
                continue
            place = "" if n == 0 else f" at line {where}"
            yield Proposal(
                Fix(
                    f"DeQue from '{q}'{place} (it is EnQue'd and never DeQue'd), not '{wrong}'",
                    (Edit(span, q),),
                ),
                len(candidates) == 1 and len(sites) == 1,
                NAME,
            )
