"""AKG171 sync-path: a ``SetFlag`` whose ``WaitFlag`` some path skips: an early ``return`` between them, or the last
iteration of a loop.

## What it does
For each ``SetFlag<HardEvent::E>(id)`` followed in the same function by the ``WaitFlag<HardEvent::E>(id)`` of the
same event and id (free calls, the event written as a ``HardEvent`` enumerator), reports:

- a ``return`` statement between the two, in a branch of its own (an ``if`` that exits), not in the block that
  holds the ``SetFlag`` (error): on the path that returns there, the flag is set and never waited on. A set
  followed by a return of its own block hands the flag to a later call on purpose, and is left alone;
- a loop whose body waits on ``(E, id)`` before setting it again (the double-buffer pattern: the wait at the top
  consumes the previous iteration's set), when nothing after the loop in that function, nor any other function of
  the file, waits on it, and the set is not conditional inside the loop (``if (i != last)``) (warning): the set
  of the last iteration is never consumed.

## Why is this bad?
Every ``SetFlag`` must be consumed by exactly one ``WaitFlag``. A set left over when the kernel ends unbalances the
event: the simulator and CANN's mssanitizer report it, and the next user of that id (the next launch, another
loop) passes its wait before the data is ready, reading stale data.

## Example
```cpp
AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
if (len == 0) {
    return;                      // the MTE2_V flag is never waited on along this path
}
AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
```

Use instead:
```cpp
if (len == 0) {
    return;
}
AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
```

## Fix safety
No automatic fix: the early exit or a final WaitFlag has to be placed by hand.

## References
- Ascend C API: ``SetFlag`` / ``WaitFlag``; the simulator's "unpaired SetFlag" finding
"""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from akgen_lsp.ascendc.context import LintContext
from akgen_lsp.ascendc.kernel_model.sync import SyncOp, sync_model
from akgen_lsp.ascendc.rules import Rule
from akgen_lsp.ascendc.syntax import walk
from akgen_lsp.findings import Finding, Severity

CODE = "AKG171"
_LOOPS = ("for_statement", "while_statement", "do_statement", "for_range_loop")


def check(ctx: LintContext) -> Iterator[Finding]:
    model = sync_model(ctx)
    flags = [o for o in model.ops if o.kind in ("set", "wait") and o.event and o.function is not None]
    if not flags:
        return
    by_fn: dict[int, list[SyncOp]] = {}
    for o in flags:
        assert o.function is not None
        by_fn.setdefault(o.function.id, []).append(o)
    returns_of: dict[int, list[Node]] = {}
    for ops in by_fn.values():
        ops.sort(key=lambda o: o.start)
        fn = ops[0].function
        assert fn is not None
        for i, s in enumerate(ops):
            if s.kind != "set":
                continue
            w = next((o for o in ops[i + 1 :] if o.event == s.event and o.event_id == s.event_id), None)
            if w is None or w.kind != "wait":
                continue
            rets = returns_of.get(fn.id)
            if rets is None:
                rets = returns_of[fn.id] = [
                    n for n in walk(fn) if n.type == "return_statement" and not _in_lambda(n, fn)
                ]
            ret = next(
                (
                    r
                    for r in rets
                    if s.start < r.start_byte < w.start
                    and not _exclusive(s.call.node, r)
                    and not _encloses(r.parent, s.call.node)
                ),
                None,
            )
            if ret is not None:
                yield Finding(
                    CODE,
                    f"the return on line {ret.start_point[0] + 1} skips the WaitFlag<HardEvent::"
                    f"{w.event}>({w.event_id}) on line {w.call.name_span.line}: on that path this "
                    "SetFlag is never waited on; set the flag after the early exit, or wait before "
                    "returning",
                    s.call.name_span,
                    Severity.ERROR,
                    "akgen-lint",
                    "memory",
                    data={"event": s.event, "event_id": s.event_id},
                )
        yield from _loop_tail(ctx, ops, flags)


def _in_lambda(node: Node, fn: Node) -> bool:
    n = node.parent
    while n is not None and n.id != fn.id:
        if n.type == "lambda_expression":
            return True
        n = n.parent
    return False


def _encloses(block: Node | None, node: Node) -> bool:
    """Whether `block` (the block a return stands in) holds `node`: a set followed by a return of its own block is a
    flag handed on to a later call on purpose (its wait is elsewhere), not a path that skips a wait."""
    return block is not None and block.start_byte <= node.start_byte and node.end_byte <= block.end_byte


def _exclusive(a: Node, b: Node) -> bool:
    """Whether `a` and `b` sit in different branches of one ``if`` (no path runs both)."""
    ids: dict[int, Node] = {}
    n: Node | None = a
    while n is not None:
        ids[n.id] = n
        n = n.parent
    n = b
    while n is not None and n.id not in ids:
        n = n.parent
    return n is not None and n.type in (
        "if_statement",
        "else_clause",
        "switch_statement",
        "conditional_expression",
    )


def _loop_of(node: Node, fn: Node) -> Node | None:
    n = node.parent
    while n is not None and n.id != fn.id:
        if n.type in _LOOPS:
            return n
        n = n.parent
    return None


def _loop_tail(ctx: LintContext, ops: list[SyncOp], flags: list[SyncOp]) -> Iterator[Finding]:
    fn = ops[0].function
    assert fn is not None
    for i, w in enumerate(ops):
        if w.kind != "wait":
            continue
        loop = _loop_of(w.call.node, fn)
        if loop is None:
            continue
        s = next((o for o in ops[i + 1 :] if o.event == w.event and o.event_id == w.event_id), None)
        if s is None or s.kind != "set" or s.start > loop.end_byte:
            continue  # not the carried pattern (wait, then set again in the same loop body)
        body = s.statement.parent
        if body is None or body.parent is None or body.parent.id != loop.id:
            continue  # the set is conditional (``if (i != last) SetFlag(...)``): the last iteration may skip it
        after = [o for o in ops if o.kind == "wait" and o.event == w.event and o.start > loop.end_byte]
        outside = [
            o
            for o in flags
            if o.kind == "wait" and o.event == w.event and o.function is not None and o.function.id != fn.id
        ]
        if after or outside:
            continue
        yield Finding(
            CODE,
            f"the loop waits on HardEvent::{w.event}({w.event_id}) before setting it again, and "
            "nothing waits on it after the loop: the SetFlag of the last iteration is never "
            f"consumed; add WaitFlag<HardEvent::{w.event}>({w.event_id}) after the loop",
            s.call.name_span,
            Severity.WARNING,
            "akgen-lint",
            "memory",
            data={"event": s.event, "event_id": s.event_id},
        )


RULE = Rule(
    CODE,
    "sync-path",
    "A SetFlag whose WaitFlag an early return or a loop's last iteration skips.",
    check,
    region="function",
)
