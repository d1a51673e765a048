"""Synchronisation mistakes applied to correct kernels: the mutants the static synchronisation audit is measured on.

| operator | the mistake |
| --- | --- |
| drop_wait_flag | a ``WaitFlag<HardEvent::E>(id)`` removed |
| drop_set_flag | a ``SetFlag<HardEvent::E>(id)`` removed |
| flip_hard_event | a SetFlag/WaitFlag pair's event written backwards (``MTE2_V`` -> ``V_MTE2``), both calls |
| return_between_flags | an early ``return`` between a SetFlag and its WaitFlag (the set moved before an exit) |
| drop_first_iteration_guard | ``if (i > 0)`` around a pipelined loop's previous-iteration work (``i - 1``) made ``if (true)`` |

They are kept apart from `akgen_lsp.errors.mutations.OPERATORS` (the synthesis of training data): their class is
``memory``, and what they cause at run time is a hang or a race, not a message of their own. `SYNC_OPERATORS` is
read by ``benchmarks/sync_recall.py``.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

from akgen_lsp.ascendc.syntax import Call, for_loops
from akgen_lsp.errors.mutations.base import Edit, Mutation, MutationContext

_EVENT = re.compile(r"HardEvent\s*::\s*(\w+)_(\w+)")


def _flags(ctx: MutationContext, short: str) -> list[Call]:
    return [
        c
        for c in ctx.calls_named(short)
        if not c.is_member and c.template_args and _EVENT.search(c.template_args[0]) and c.args
    ]


def _key(ctx: MutationContext, c: Call) -> tuple[str, str]:
    return c.template_args[0].replace(" ", "").rsplit("::", 1)[-1], ctx.node_text(c.args[0]).replace(" ", "")


def _drop(ctx: MutationContext, short: str, op: str, why: str) -> Iterator[Mutation]:
    for c in _flags(ctx, short):
        rng = ctx.statement(c.node)
        if rng is None:
            continue
        ev, eid = _key(ctx, c)
        yield Mutation(
            op, "memory", (Edit(*rng, ""),), ctx.line_of(rng[0]), f"removed {short}<{ev}>({eid})", why
        )


def drop_wait_flag(ctx: MutationContext) -> Iterator[Mutation]:
    yield from _drop(
        ctx,
        "WaitFlag",
        "drop_wait_flag",
        "the WaitFlag is missing: the consumer pipe runs before the producer is done, and the set is "
        "never consumed.",
    )


def drop_set_flag(ctx: MutationContext) -> Iterator[Mutation]:
    yield from _drop(
        ctx,
        "SetFlag",
        "drop_set_flag",
        "the SetFlag is missing: the WaitFlag that expects it waits forever (the core hangs).",
    )


def _pairs(ctx: MutationContext) -> Iterator[tuple[Call, Call]]:
    """Each SetFlag with the next WaitFlag of the same event and id in the same function."""
    waits = _flags(ctx, "WaitFlag")
    for s in _flags(ctx, "SetFlag"):
        key = _key(ctx, s)
        w = next(
            (
                w
                for w in waits
                if w.node.start_byte > s.node.start_byte
                and _key(ctx, w) == key
                and w.in_function is not None
                and s.in_function is not None
                and w.in_function.id == s.in_function.id
            ),
            None,
        )
        if w is not None:
            yield s, w


def flip_hard_event(ctx: MutationContext) -> Iterator[Mutation]:
    for s, w in _pairs(ctx):
        edits = []
        for c in (s, w):
            a, b = ctx.span(c.node)
            m = _EVENT.search(ctx.text, a, b)
            if m is None or m.group(1) == m.group(2):
                break
            edits.append(Edit(m.start(1), m.end(2), f"{m.group(2)}_{m.group(1)}"))
        if len(edits) != 2:
            continue
        ev = _key(ctx, s)[0]
        src, dst = ev.split("_", 1)
        yield Mutation(
            "flip_hard_event",
            "memory",
            tuple(edits),
            ctx.line_of(edits[0].start),
            f"HardEvent::{ev} written as HardEvent::{dst}_{src} in a SetFlag/WaitFlag pair",
            "the event is backwards: the wait holds back the producer instead of the consumer, so the "
            "consumer reads data the producer has not finished writing.",
        )


def return_between_flags(ctx: MutationContext) -> Iterator[Mutation]:
    for s, _w in _pairs(ctx):
        rng = ctx.statement(s.node)
        if rng is None:
            continue
        line = ctx.text[rng[0] : rng[1]]
        indent = line[: len(line) - len(line.lstrip())]
        guard = f"{indent}if (AscendC::GetBlockIdx() >= AscendC::GetBlockNum()) {{\n{indent}    return;\n{indent}}}\n"
        ev, eid = _key(ctx, s)
        yield Mutation(
            "return_between_flags",
            "memory",
            (Edit(rng[1], rng[1], guard),),
            ctx.line_of(rng[1]),
            f"an early return after SetFlag<{ev}>({eid}), before its WaitFlag",
            "on the path that returns, the flag is set and never waited on: the event is left "
            "unbalanced at the end of the kernel.",
        )


_FIRST_GUARD = re.compile(r"^\(\s*([A-Za-z_]\w*)\s*(?:>\s*0|>=\s*1|!=\s*0)[uU]?\s*\)$")


def drop_first_iteration_guard(ctx: MutationContext) -> Iterator[Mutation]:
    """``if (i > 0) { ... bufs[(i - 1) % 2] ... }`` in a loop from 0: the guard of the previous-iteration work
    written as ``if (true)``."""
    for loop in for_loops(ctx.pf):
        init = loop.child_by_field_name("initializer")
        body = loop.child_by_field_name("body")
        if init is None or body is None or not re.search(r"=\s*0[uU]?\s*;?$", ctx.node_text(init).strip()):
            continue
        for st in body.named_children:
            cond = st.child_by_field_name("condition") if st.type == "if_statement" else None
            m = _FIRST_GUARD.match(" ".join(ctx.node_text(cond).split())) if cond is not None else None
            if m is None or not re.search(rf"\b{m.group(1)}\s*-\s*1\b", ctx.node_text(st)):
                continue
            if st.child_by_field_name("alternative") is not None:
                continue
            start, end = ctx.span(cond)
            yield Mutation(
                "drop_first_iteration_guard",
                "memory",
                (Edit(start, end, "(true)"),),
                ctx.line_of(start),
                f"the guard '{ctx.node_text(cond)}' of the previous-iteration work removed",
                "on the first iteration the double-buffer index i - 1 underflows: the other "
                "buffer, which nothing filled, or an event id nothing set.",
            )


SYNC_OPERATORS: dict[str, Callable[[MutationContext], Iterator[Mutation]]] = {
    "drop_wait_flag": drop_wait_flag,
    "drop_set_flag": drop_set_flag,
    "flip_hard_event": flip_hard_event,
    "return_between_flags": return_between_flags,
    "drop_first_iteration_guard": drop_first_iteration_guard,
}
