"""``DeQue`` from the wrong queue (the simulator's ``SIM-QUE-EMPTY``: nothing was ``EnQue``d on it; on the NPU it
waits forever) -> the queue that is filled and never emptied.

The queues of the file are counted: the one the DeQue names has more DeQues than EnQues; a queue with more EnQues
than DeQues (of the same element type, where the file says) is the one meant. Certain when exactly one queue is.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator

from akgen_lsp.findings import Edit, Finding, Fix
from akgen_lsp.repair.fixers.base import FixContext, Proposal

NAME = "DeQue queue"
CODES = frozenset({"SIM-QUE-EMPTY", "AKG120"})
_DEQUE = re.compile(r"(?P<queue>\w+)\s*(?:\.|->)\s*(?:template\s+)?DeQue\s*(?:<\s*(?P<type>[\w:]+)\s*>)?\s*\(")
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
    candidates = [q for q in enq if q != wrong and enq[q] > deq[q] and (want is None or not _types(ctx, q)
                                                                       or want in _types(ctx, q))]
    if not candidates:
        return
    col = m.start("queue") + 1
    for q in candidates:
        edit = Edit(ctx.word_span(line, wrong, col) or finding.span, q)
        yield Proposal(Fix(f"DeQue from '{q}' (it is EnQue'd and never DeQue'd), not '{wrong}'", (edit,)),
                       len(candidates) == 1, NAME)
