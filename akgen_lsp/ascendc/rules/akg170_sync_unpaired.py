"""AKG170 sync-unpaired: a ``WaitFlag`` that no ``SetFlag`` of its event answers, a wait before its set, or a
``SetFlag`` nothing waits for.

## What it does
Reads every ``SetFlag<HardEvent::X_Y>(id)`` / ``WaitFlag<HardEvent::X_Y>(id)`` of the file (free calls, the event
written as a ``HardEvent`` enumerator) and, for the events no other file of the same kernel sets or waits on (the
headers of its ``op_kernel`` folder and what they include), reports:

- a ``WaitFlag`` of an event that nothing sets (error): the wait never ends;
- a ``WaitFlag`` whose event id is set only later in the same block, and nowhere else (error): the first wait
  comes before any set, so it waits forever;
- a ``SetFlag`` of an event that nothing waits on (warning): the flag stays set and the pipes are not ordered;
- a ``WaitFlag`` (error) or a ``SetFlag`` (warning) whose other half exists only on other paths: every op of the
  other kind with that event is in the same function, with the same id, but in another branch of an ``if``/``else``
  (or after a return in this one's branch), and neither is in a loop (the ``if constexpr`` scenarios of a sample
  each need their own pair);
- a loop that only sets (or only waits on) an event and id, unconditionally at the top level of its body (error):
  each iteration sets again before a wait, or the second iteration waits forever;
- two ``SetFlag`` (or two ``WaitFlag``) of one event and id in a row, with nothing of the other kind between
  them, in one block, or the second at the top level of a loop that follows the first, or the first at the top
  level of a loop and the second after that loop (error): the second wait
  never ends, or one set is never consumed. A statement between them that mentions the id outside a
  ``SetFlag``/``WaitFlag`` call (a helper that syncs on it) silences this.

A file in which some ``SetFlag``/``WaitFlag`` takes its event from a template parameter or a variable is checked
only for the events it writes literally, and only for waits that nothing sets. A wait inside an ``if constexpr``
branch is not reported as unset (the instantiation that takes the branch may set the flag in another file).

## Why is this bad?
``WaitFlag`` blocks the waiting pipe until the matching ``SetFlag`` has been issued on the source pipe. Without one
the core hangs (the task times out with no output); a set without a wait leaves the event count unbalanced at the
end of the kernel, and the next kernel that waits on that id runs early, on stale data.

## Example
```cpp
AscendC::DataCopy(xLocal, xGm, n);
AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);   // nothing set MTE2_V: waits forever
AscendC::Abs(yLocal, xLocal, n);
```

Use instead:
```cpp
AscendC::DataCopy(xLocal, xGm, n);
AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(EVENT_ID0);
AscendC::Abs(yLocal, xLocal, n);
```

## Fix safety
No automatic fix: where the set belongs depends on which data the wait guards.

## References
- Ascend C API: ``SetFlag`` / ``WaitFlag`` (``kernel_operator_block_sync_intf.h``), "同步控制"
- CANN mssanitizer / the simulator's sync check: unpaired set flag, wait without set
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from itertools import pairwise

from tree_sitter import Node

from akgen_lsp.ascendc.context import LintContext
from akgen_lsp.ascendc.includes import project_index
from akgen_lsp.ascendc.kernel_model.sync import SyncOp, sync_model
from akgen_lsp.ascendc.rules import Rule
from akgen_lsp.findings import Finding, Severity

CODE = "AKG170"


def _elsewhere(ctx: LintContext) -> frozenset[tuple[str, str]]:
    from pathlib import Path

    index = project_index(ctx.path)
    return index.flags(Path(ctx.path)) if index is not None else frozenset()


def check(ctx: LintContext) -> Iterator[Finding]:
    model = sync_model(ctx)
    flags = [o for o in model.ops if o.kind in ("set", "wait") and o.event]
    if not flags:
        return
    sets, waits = model.events_set(), model.events_waited()
    repeated: set[int] = set()
    other = _elsewhere(ctx) if flags else frozenset()
    for op, loop in _one_kind_in_loop(flags):
        if (("WaitFlag" if op.kind == "set" else "SetFlag"), op.event) in other:
            continue  # another file of the kernel does the other half
        repeated.add(id(op))
        if op.kind == "wait":
            yield _finding(
                ctx,
                op,
                f"WaitFlag<HardEvent::{op.event}>({op.event_id}) waits on every iteration of the "
                f"loop on line {loop.start_point[0] + 1}, which never sets it: the second "
                "iteration waits forever; SetFlag it again in the loop",
            )
        else:
            yield _finding(
                ctx,
                op,
                f"SetFlag<HardEvent::{op.event}>({op.event_id}) is set on every iteration of the "
                f"loop on line {loop.start_point[0] + 1}, which never waits on it: each set "
                "lands before the previous one was consumed; WaitFlag it in the loop",
            )
    for a, b in _repeats(flags):
        repeated.add(id(b))
        if b.kind == "wait":
            yield _finding(
                ctx,
                b,
                f"WaitFlag<HardEvent::{b.event}>({b.event_id}) again with no SetFlag since the "
                f"wait on line {a.call.name_span.line}: that set was consumed, so this wait never "
                "ends; set the flag again first, or drop one wait",
            )
        else:
            yield _finding(
                ctx,
                b,
                f"SetFlag<HardEvent::{b.event}>({b.event_id}) again before a WaitFlag consumed "
                f"the set on line {a.call.name_span.line}: the {b.dst} pipe is ordered against "
                "one of them only; wait between the two sets",
            )
    for op in flags:
        ev = op.event
        assert ev is not None
        if op.kind == "wait" and ev not in sets:
            if _in_if_constexpr(op.call.node):
                continue  # a compile-time branch: the instantiation that takes it may set the flag elsewhere
            other = _elsewhere(ctx) if other is None else other
            if ("SetFlag", ev) in other:
                continue
            yield _finding(
                ctx,
                op,
                f"WaitFlag<HardEvent::{ev}> waits for an event that nothing sets: no "
                f"SetFlag<HardEvent::{ev}> in this kernel, so the wait never ends (the core "
                f"hangs); set it on the {op.src} pipe after the work it guards",
            )
            continue
        if id(op) in repeated:
            continue
        if not model.unknown_events and _other_half_only_in_other_branches(flags, op):
            other = _elsewhere(ctx) if other is None else other
            if op.kind == "wait" and ("SetFlag", ev) not in other:
                yield _finding(
                    ctx,
                    op,
                    f"WaitFlag<HardEvent::{ev}>({op.event_id}) is reached by no SetFlag: every "
                    "SetFlag of that event and id is in another branch of an if/else (or "
                    "after a return), so on this path the wait never ends; set the flag in "
                    "this branch, before the wait",
                )
                continue
            if op.kind == "set" and ("WaitFlag", ev) not in other:
                yield _finding(
                    ctx,
                    op,
                    f"SetFlag<HardEvent::{ev}>({op.event_id}) is waited on by no WaitFlag on its "
                    "path: every WaitFlag of that event and id is in another branch of an "
                    f"if/else, so the {op.dst} pipe is not held back here and the flag stays "
                    "set; add the WaitFlag in this branch",
                    Severity.WARNING,
                )
                continue
        if op.kind == "wait" and not model.unknown_events:
            later = _set_only_later(flags, op)
            if later:
                other = _elsewhere(ctx) if other is None else other
                if ("SetFlag", ev) not in other:
                    yield _finding(
                        ctx,
                        op,
                        f"WaitFlag<HardEvent::{ev}>({op.event_id}) comes before the only "
                        f"SetFlag of that event and id (line {later}): nothing has set it yet, "
                        "so the wait never ends; issue the SetFlag first",
                    )
            continue
        if op.kind == "set" and ev not in waits and not model.unknown_events:
            other = _elsewhere(ctx) if other is None else other
            if ("WaitFlag", ev) in other:
                continue
            yield _finding(
                ctx,
                op,
                f"SetFlag<HardEvent::{ev}> is never waited on: no WaitFlag<HardEvent::{ev}> in "
                f"this kernel, so the {op.dst} pipe is not held back and the flag stays set; "
                "add the WaitFlag before the work that needs the data",
                Severity.WARNING,
            )


def _one_kind_in_loop(flags: list[SyncOp]) -> Iterator[tuple[SyncOp, Node]]:
    """An op at the top level of a loop's body whose event and id the loop only sets (or only waits on), with no
    statement of the loop mentioning the id outside a SetFlag/WaitFlag call (a helper that syncs on it)."""
    seen: set[tuple[int, str, str]] = set()
    for op in flags:
        body = op.statement.parent
        loop = body.parent if body is not None else None
        if body is None or loop is None or body.type != "compound_statement" or loop.type not in _LOOPS:
            continue
        key = (loop.id, str(op.event), op.event_id)
        if key in seen:
            continue
        seen.add(key)
        inside = [
            o
            for o in flags
            if o.event == op.event
            and o.event_id == op.event_id
            and loop.start_byte <= o.start <= loop.end_byte
        ]
        if any(o.kind != op.kind for o in inside):
            continue
        if op.event_id and op.event_id in _without_flags(_text(body)):
            continue
        if _varies_in(op.event_id, loop):
            continue  # the id changes from one iteration to the next (eventList[i], ping-pong): not one flag
        if any(
            o.event == op.event
            and o.kind != op.kind
            and o.function is not None
            and op.function is not None
            and o.function.id != op.function.id
            for o in flags
        ):
            continue  # another function does the other half: a helper the loop calls may set (or wait) there
        yield op, loop


def _in_if_constexpr(node: Node) -> bool:
    n = node.parent
    while n is not None and n.type != "function_definition":
        if n.type == "if_statement" and any(
            c.type == "constexpr" or c.text == b"constexpr" for c in n.children
        ):
            return True
        n = n.parent
    return False


def _repeats(flags: list[SyncOp]) -> Iterator[tuple[SyncOp, SyncOp]]:
    """Two SetFlags (or two WaitFlags) of one event and id in a row in one function, with nothing of the other kind
    between them: in one block, or the second the first of its kind in the body of a loop that follows the first in
    its block (the loop's first iteration repeats it); and no statement between them hands the id to a helper."""
    by_key: dict[tuple[int, str, str], list[SyncOp]] = {}
    for o in flags:
        if o.function is not None and o.event:
            by_key.setdefault((o.function.id, o.event, o.event_id), []).append(o)
    for ops in by_key.values():
        ops.sort(key=lambda o: o.start)
        for a, b in pairwise(ops):
            if a.kind != b.kind:
                continue
            between = _between(a, b)
            if between is not None and not any(
                a.event_id and a.event_id in _without_flags(t) for t in between
            ):
                yield a, b


_LOOPS = ("for_statement", "while_statement", "do_statement", "for_range_loop")
_ASSIGNED = re.compile(
    r"([A-Za-z_]\w*)\s*(?:\]\s*)?(?:[-+*/%&|^]?=(?!=)|\+\+|--)|(?:\+\+|--)\s*([A-Za-z_]\w*)"
)


def _varies_in(event_id: str, loop: Node) -> bool:
    """Whether the id mentions a name the loop changes (its counter, a ping-pong flag toggled in it), or is a
    call (its value may change each time)."""
    if "(" in event_id.replace("static_cast<event_t>(", "").replace("(event_t)", ""):
        return True
    text = _text(loop)
    changed = {a or b for a, b in _ASSIGNED.findall(text)}
    return any(re.search(rf"\b{re.escape(name)}\b", event_id) for name in changed if name)


_FLAG_CALL = re.compile(r"\b(?:AscendC::)?(?:SetFlag|WaitFlag)\s*<[^;]*?>\s*\([^;]*\)\s*;")


def _without_flags(text: str) -> str:
    return _FLAG_CALL.sub("", text).replace(" ", "")


def _text(node: Node) -> str:
    return node.text.decode("utf-8", "replace") if node.text else ""


def _between(a: SyncOp, b: SyncOp) -> list[str] | None:
    """The texts of the statements between `a` and `b` when they are related as `_repeats` needs, else None."""
    block = a.statement.parent
    if block is None or b.statement.parent is None:
        return None
    if b.statement.parent.id == block.id:
        return [
            _text(st)
            for st in block.named_children
            if a.statement.end_byte <= st.start_byte and st.end_byte <= b.statement.start_byte
        ]
    body = b.statement.parent
    loop = body.parent
    if (
        body.type == "compound_statement"
        and loop is not None
        and loop.type in _LOOPS
        and loop.parent is not None
        and loop.parent.id == block.id
        and not _varies_in(a.event_id, loop)
    ):
        # `a`, then a loop whose body repeats it at its top level before the other kind
        out = [
            _text(st)
            for st in block.named_children
            if a.statement.end_byte <= st.start_byte and st.end_byte <= loop.start_byte
        ]
        return out + [_text(st) for st in body.named_children if st.end_byte <= b.statement.start_byte]
    loop = block.parent
    if (
        block.type == "compound_statement"
        and loop is not None
        and loop.type in _LOOPS
        and loop.parent is not None
        and loop.parent.id == body.id
        and not _varies_in(a.event_id, loop)
    ):
        # `a` at the top level of a loop body with nothing of the other kind after it in the loop, then `b` after
        # the loop: the loop's next iteration (or the code after it) repeats `a`'s kind
        out = [_text(st) for st in block.named_children if a.statement.end_byte <= st.start_byte]
        return out + [
            _text(st)
            for st in body.named_children
            if loop.end_byte <= st.start_byte and st.end_byte <= b.statement.start_byte
        ]
    return None


def _same_block(a: SyncOp, b: SyncOp) -> bool:
    return (
        a.statement.parent is not None
        and b.statement.parent is not None
        and a.statement.parent.id == b.statement.parent.id
    )


def _handed_to_helper(a: SyncOp, b: SyncOp) -> bool:
    """Whether a statement between `a` and `b` (in one block) mentions the event id outside a SetFlag/WaitFlag call
    (a helper that sets or waits on it)."""
    between = _between(a, b)
    return between is None or any(a.event_id and a.event_id in _without_flags(t) for t in between)


def _exclusive(a: Node, b: Node) -> bool:
    """No path runs `a` and then `b`: they sit in different branches of one ``if``/``switch``, or the branch that
    holds `a` returns (or breaks out) after it."""
    chain: list[Node] = []
    n: Node | None = a
    while n is not None:
        chain.append(n)
        n = n.parent
    ids = {x.id: i for i, x in enumerate(chain)}
    n = b
    while n is not None and n.id not in ids:
        n = n.parent
    if n is None:
        return False
    if n.type in ("if_statement", "else_clause", "conditional_expression"):
        return True  # `a` and `b` in different branches (two statements of one case are on one path)
    branch = (
        chain[ids[n.id] - 1] if ids[n.id] > 0 else None
    )  # the child of the common ancestor that holds `a`
    if branch is None or branch.type not in ("if_statement", "compound_statement"):
        return False
    stack = [branch]
    while stack:
        x = stack.pop()
        if (
            x.type in ("return_statement", "break_statement", "continue_statement")
            and x.start_byte > a.start_byte
        ):
            return True
        if x.type != "lambda_expression":
            stack.extend(x.named_children)
    return False


def _other_half_only_in_other_branches(flags: list[SyncOp], op: SyncOp) -> bool:
    """Whether every op of the other kind with `op`'s event is in `op`'s function, with its id, and on no path
    through `op` (another branch of an ``if``/``else``, or after a return in `op`'s branch); none of them, nor `op`,
    in a loop (a loop's next iteration may take the other branch)."""
    kind = "set" if op.kind == "wait" else "wait"
    others = [o for o in flags if o.kind == kind and o.event == op.event]
    if not others or op.function is None or _in_loop(op.call.node):
        return False
    for o in others:
        if (
            o.function is None
            or o.function.id != op.function.id
            or o.event_id != op.event_id
            or _in_loop(o.call.node)
        ):
            return False
        a, b = (o, op) if o.start < op.start else (op, o)
        if not _exclusive(a.call.node, b.call.node):
            return False
    return True


def _in_loop(node: Node) -> bool:
    n = node.parent
    while n is not None and n.type != "function_definition":
        if n.type in _LOOPS:
            return True
        n = n.parent
    return False


def _set_only_later(flags: list[SyncOp], wait: SyncOp) -> int | None:
    """The line of the set of the same event and id, when every such set is in the wait's block, after it, with no
    statement between them that hands the id to a helper."""
    same = [o for o in flags if o.kind == "set" and o.event == wait.event]
    if not same or any(
        o.function is None
        or wait.function is None
        or o.function.id != wait.function.id
        or o.event_id != wait.event_id
        or o.start < wait.start
        or not _same_block(wait, o)
        or _handed_to_helper(wait, o)
        for o in same
    ):
        return None
    first = min(same, key=lambda o: o.start)
    return first.call.name_span.line


def _finding(ctx: LintContext, op: SyncOp, message: str, severity: Severity = Severity.ERROR) -> Finding:
    return Finding(
        CODE,
        message,
        op.call.name_span,
        severity,
        "akgen-lint",
        "memory",
        data={"event": op.event, "event_id": op.event_id, "kind": op.kind},
    )


RULE = Rule(
    CODE,
    "sync-unpaired",
    "A WaitFlag nothing sets, a wait before its set, or a SetFlag nothing waits for.",
    check,
    region="function",
)
