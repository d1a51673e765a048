"""AKG172 sync-direction: a ``HardEvent`` whose direction does not match the pipes of the work it orders, or a
``PipeBarrier`` where a flag pair between two pipes is needed.

## What it does
Reads the Ascend C calls next to each synchronisation call, in the same block, with the pipe each one issues on
(from the API catalog; ``DataCopy`` from GM to a local tensor is MTE2, from a local tensor to GM is MTE3) and
reports:

- a ``SetFlag<HardEvent::X_Y>`` right after work on pipe Y, with its ``WaitFlag`` (in the same function) right
  before work on pipe X (error; both sides must be seen, and events with the scalar pipe S are not judged): the event is written backwards (``V_MTE2`` where ``MTE2_V`` is meant), so the wait holds back the wrong
  pipe and the vector op reads what the copy has not finished writing;
- ``PipeBarrier<PIPE_Y>()`` between work on another pipe X (a ``DataCopy`` into a tensor) and work on pipe Y that
  reads that tensor (error): a barrier orders the instructions of one pipe, it does not wait for another pipe;
  the X -> Y dependency needs ``SetFlag``/``WaitFlag<HardEvent::X_Y>``.

Only the nearest work in the same block is compared (up to four statements away, passing over other
synchronisation calls, declarations and scalar calls; a helper the file defines counts as the last work
(before the set) or the first work (after the wait) of its body; a call whose pipe is not known ends the
search).

## Why is this bad?
Each pipe runs its own instruction queue. ``SetFlag<X_Y>`` is issued on pipe X and ``WaitFlag<X_Y>`` holds pipe Y
until it; the other way round, nothing holds the consumer back: a race that reads stale or partial data, seen
only at run time and not on every run.

## Example
```cpp
AscendC::DataCopy(xLocal, xGm, n);                          // MTE2
AscendC::SetFlag<AscendC::HardEvent::V_MTE2>(EVENT_ID0);    // backwards
AscendC::WaitFlag<AscendC::HardEvent::V_MTE2>(EVENT_ID0);
AscendC::Abs(yLocal, xLocal, n);                            // V
```

Use instead:
```cpp
AscendC::DataCopy(xLocal, xGm, n);
AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
AscendC::Abs(yLocal, xLocal, n);
```

## Fix safety
Swapping the event's direction is offered as an unsafe fix (both calls of the pair must change together).

## References
- Ascend C API: ``HardEvent``, ``SetFlag`` / ``WaitFlag``, ``PipeBarrier`` (``kernel_operator_block_sync_intf.h``)
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator

from tree_sitter import Node

from akgen_lsp.ascendc.context import LintContext
from akgen_lsp.ascendc.kernel_model.sync import (
    PREPROC_BLOCKS,
    STATEMENTS,
    SyncOp,
    block_neighbours,
    helper_pipe,
    pipe_of,
    sync_model,
)
from akgen_lsp.ascendc.rules import Rule
from akgen_lsp.ascendc.syntax import Call
from akgen_lsp.ascendc.syntax.grammar import F_ALTERNATIVE, F_BODY, F_CONSEQUENCE
from akgen_lsp.findings import Finding, Severity

CODE = "AKG172"
_REACH = 4
_SYNC = ("SetFlag", "WaitFlag", "PipeBarrier", "CrossCoreSetFlag", "CrossCoreWaitFlag", "SyncAll")


def check(ctx: LintContext) -> Iterator[Finding]:
    model = sync_model(ctx)
    if not model.ops:
        return
    by_statement: dict[int, Call] = {}
    for c in model.calls:
        st = c.node.parent
        if st is not None and st.type == "expression_statement":
            by_statement.setdefault(st.id, c)
    # events with the scalar pipe are left out: scalar work (any statement) is everywhere and has no call to see
    flags = [
        o for o in model.ops if o.kind in ("set", "wait") and o.src and o.dst and "S" not in (o.src, o.dst)
    ]
    for s in (o for o in flags if o.kind == "set"):
        w = next(
            (
                o
                for o in flags
                if o.kind == "wait"
                and o.event == s.event
                and o.event_id == s.event_id
                and o.start > s.start
                and o.function is not None
                and s.function is not None
                and o.function.id == s.function.id
            ),
            None,
        )
        passed: list[str] = []
        before = _neighbour_pipes(ctx, s.statement, -1, by_statement, passed)
        after = _neighbour_pipes(ctx, w.statement, +1, by_statement, passed) if w is not None else None
        if f"{s.dst}_{s.src}" in passed:
            continue  # the right pair is already there: this one is redundant, not backwards
        back_before, back_after = before == {s.dst}, after == {s.src}
        if back_before and back_after:
            yield Finding(
                CODE,
                f"SetFlag<HardEvent::{s.event}> is written backwards: the work before it is on "
                f"{s.dst} and the work after its WaitFlag on {s.src}, so this event "
                f"does not hold the consumer back; use HardEvent::{s.dst}_{s.src}",
                s.call.name_span,
                Severity.ERROR,
                "akgen-lint",
                "memory",
                data={"event": s.event, "suggested": f"{s.dst}_{s.src}"},
            )
    for b in (o for o in model.ops if o.kind == "barrier" and o.event and o.event != "ALL"):
        yield from _barrier(ctx, b, by_statement)


class _Side:
    """What the search found on one side of a synchronisation call: the pipes of the nearest work on each path
    (`pipes`), whether some path runs past the statements looked at (`open`: a loop that may not run, an ``if``
    without ``else``), or that a statement of unknown effect was met (`unknown`)."""

    __slots__ = ("open", "pipes", "unknown")

    def __init__(
        self, pipes: frozenset[str] = frozenset(), open_: bool = True, unknown: bool = False
    ) -> None:
        self.pipes, self.open, self.unknown = pipes, open_, unknown


_UNKNOWN = _Side(unknown=True)
_PASS = _Side()


def _neighbour_pipes(
    ctx: LintContext,
    statement: Node,
    step: int,
    by_statement: dict[int, Call],
    passed: list[str] | None = None,
) -> frozenset[str] | None:
    """The pipes of the nearest work in the same block, `step` = -1 before or +1 after the statement, on every path:
    up to four statements away, passing over other synchronisation calls (their template arguments are added to
    `passed`; declarations do not count against the four), declarations, scalar statements and calls; looking into ``if``/``else`` branches, loop bodies and
    blocks (an ``if`` without ``else`` may be passed over, so what lies beyond it counts too; a loop is taken to
    run); a helper the
    file defines counts as the last (before) or first (after) work of its body. None when a call whose pipe is not
    known, a jump, or the edge of the block comes before work on every path."""
    items, i = block_neighbours(statement)
    if i < 0:
        return None
    side = _scan(ctx, items, i + step, step, by_statement, passed, 0)
    if side.unknown or side.open or not side.pipes:
        return None
    return side.pipes


def _scan(
    ctx: LintContext,
    items: list[Node],
    j: int,
    step: int,
    by_statement: dict[int, Call],
    passed: list[str] | None,
    depth: int,
) -> _Side:
    found: set[str] = set()
    reach = _REACH
    for _ in range(4 * _REACH):  # declarations do not count against the reach, but the walk stays short
        if not 0 <= j < len(items):
            return _Side(frozenset(found))
        node = items[j]
        side = _statement_side(ctx, node, step, by_statement, passed, depth)
        if side.unknown:
            return _UNKNOWN
        found |= side.pipes
        if not side.open:
            return _Side(frozenset(found), False)
        if node.type != "declaration":
            reach -= 1
            if reach == 0:
                break
        j += step
    return _UNKNOWN


def _statement_side(
    ctx: LintContext,
    node: Node,
    step: int,
    by_statement: dict[int, Call],
    passed: list[str] | None,
    depth: int,
) -> _Side:
    kind = node.type
    if kind == "declaration":
        return _PASS
    if kind == "expression_statement":
        c = by_statement.get(node.id)
        if c is None:
            return _PASS if not _has_call(ctx, node) else _UNKNOWN  # plain scalar code: `i = 0;`, `x += y;`
        if c.short in _SYNC:
            if passed is not None and c.template_args:
                passed.append(c.template_args[0].replace(" ", "").rsplit("::", 1)[-1])
            return _PASS
        pipe = pipe_of(ctx, c)
        if pipe is None:
            # a helper of the kernel's own: the last (before) or first (after) work in its body, else unknown
            pipe = helper_pipe(ctx, c, last=step < 0) if c.user_defined else None
            return _Side(frozenset((pipe,)), False) if pipe is not None else _UNKNOWN
        return _PASS if pipe == "S" else _Side(frozenset((pipe,)), False)
    if depth >= 4:
        return _UNKNOWN
    if kind == "compound_statement":
        inner, _i = block_neighbours(node.named_children[0]) if node.named_child_count else ([], 0)
        return _scan(ctx, inner, len(inner) - 1 if step < 0 else 0, step, by_statement, passed, depth + 1)
    if kind == "if_statement":
        branches = [node.child_by_field_id(F_CONSEQUENCE)]
        alt = node.child_by_field_id(F_ALTERNATIVE)
        if alt is not None:
            branches.append(
                alt.named_children[-1] if alt.type == "else_clause" and alt.named_child_count else alt
            )
        pipes: set[str] = set()
        open_ = alt is None
        for b in branches:
            if b is None:
                return _UNKNOWN
            side = _statement_side(ctx, b, step, by_statement, passed, depth + 1)
            if side.unknown:
                return _UNKNOWN
            pipes |= side.pipes
            open_ = open_ or side.open
        return _Side(frozenset(pipes), open_)
    if kind in PREPROC_BLOCKS:
        # `#if A ... #elif B ... #else ... #endif`: one branch is compiled; each is a branch of an if
        inner = [
            c
            for c in node.named_children
            if c.type in STATEMENTS or c.type.endswith("_statement") or c.type in PREPROC_BLOCKS
        ]
        alt = node.child_by_field_id(F_ALTERNATIVE)
        inner = [c for c in inner if alt is None or c.id != alt.id]
        side = _scan(ctx, inner, len(inner) - 1 if step < 0 else 0, step, by_statement, passed, depth + 1)
        if side.unknown:
            return _UNKNOWN
        if alt is None:
            return _Side(
                side.pipes,
                side.open or node.type in ("preproc_if", "preproc_ifdef", "preproc_elif", "preproc_elifdef"),
            )
        other = _statement_side(ctx, alt, step, by_statement, passed, depth + 1)
        return _UNKNOWN if other.unknown else _Side(side.pipes | other.pipes, side.open or other.open)
    if kind in ("for_statement", "while_statement", "for_range_loop"):
        body = node.child_by_field_id(F_BODY)
        side = (
            _statement_side(ctx, body, step, by_statement, passed, depth + 1)
            if body is not None
            else _UNKNOWN
        )
        return side  # taken to run at least once (kernel loops run over tiles, and there is at least one)
    return _UNKNOWN


def _has_call(ctx: LintContext, node: Node) -> bool:
    starts = ctx.memo.get("sync.call_starts")
    if starts is None:
        starts = ctx.memo["sync.call_starts"] = [c.node.start_byte for c in sync_model(ctx).calls]
    k = bisect.bisect_left(starts, node.start_byte)
    return k < len(starts) and starts[k] < node.end_byte


def _barrier(ctx: LintContext, b: SyncOp, by_statement: dict[int, Call]) -> Iterator[Finding]:
    items, i = block_neighbours(b.statement)
    if i <= 0 or i + 1 >= len(items):
        return
    prev, nxt = by_statement.get(items[i - 1].id), by_statement.get(items[i + 1].id)
    if prev is None or nxt is None or not prev.args:
        return
    p_prev, p_next = pipe_of(ctx, prev), pipe_of(ctx, nxt)
    if p_prev is None or p_next is None or p_prev == p_next or p_next != b.event or p_prev in ("S", "V"):
        return
    written = ctx.parsed.node_text(prev.args[0]).split("[")[0].strip()
    if not written or not any(written == ctx.parsed.node_text(a).split("[")[0].strip() for a in nxt.args[1:]):
        return  # the next op does not read what the previous one wrote
    yield Finding(
        CODE,
        f"PipeBarrier<PIPE_{b.event}> does not wait for the {p_prev} work before it: a barrier "
        f"orders one pipe only, and '{nxt.short}' on {p_next} reads '{written}' that the {p_prev} "
        f"'{prev.short}' writes; use SetFlag/WaitFlag<HardEvent::{p_prev}_{p_next}> instead",
        b.call.name_span,
        Severity.ERROR,
        "akgen-lint",
        "memory",
        data={"pipe": b.event, "needed": f"{p_prev}_{p_next}"},
    )


RULE = Rule(
    CODE,
    "sync-direction",
    "A HardEvent written backwards, or a PipeBarrier where a flag pair is needed.",
    check,
)
