"""Mutations of memory and object use: the queue protocol, DataCopy alignment, synchronisation, the UB budget."""

from __future__ import annotations

from collections.abc import Iterator

from akgen_lsp.errors.mutations.base import Edit, Mutation, MutationContext


def _drop_statement(ctx: MutationContext, op: str, api: str, why: str) -> Iterator[Mutation]:
    for c in ctx.calls_named(api):
        if not c.is_member:
            continue
        rng = ctx.statement(c.node)
        if rng is None:
            continue
        a, b = rng
        stmt = ctx.text[a:b].strip()
        yield Mutation(
            op,
            "memory",
            (Edit(a, b, ""),),
            ctx.line_of(a),
            f"removed `{stmt}`",
            f"`{stmt}` is missing: {why}",
        )


def drop_free_tensor(ctx: MutationContext) -> Iterator[Mutation]:
    yield from _drop_statement(
        ctx,
        "drop_free_tensor",
        "FreeTensor",
        "the tensor is never given back to its queue, so the queue runs out of buffers "
        "(AllocTensor with no free buffer) or the tensor is still held when the kernel ends.",
    )


def drop_enque(ctx: MutationContext) -> Iterator[Mutation]:
    yield from _drop_statement(
        ctx,
        "drop_enque",
        "EnQue",
        "the tensor is never put into its queue, so the DeQue that waits for it finds the queue "
        "empty (on the NPU it waits forever).",
    )


def deque_wrong_queue(ctx: MutationContext) -> Iterator[Mutation]:
    """A DeQue from another queue of the same kind (``inQ1.DeQue`` where ``inQ0`` is meant)."""
    deques = [c for c in ctx.calls_named("DeQue") if c.is_member and c.receiver is not None]
    names = sorted({ctx.node_text(c.receiver) for c in deques})
    for c in deques:
        assert c.receiver is not None
        own = ctx.node_text(c.receiver)
        other = next(
            (n for n in names if n != own and n.rstrip("0123456789") == own.rstrip("0123456789")), None
        )
        other = other or next((n for n in names if n != own), None)
        if other is None:
            continue
        a, b = ctx.span(c.receiver)
        yield Mutation(
            "deque_wrong_queue",
            "memory",
            (Edit(a, b, other),),
            ctx.line_of(a),
            f"{own}.DeQue written as {other}.DeQue",
            f"the tensor is taken from `{other}` instead of `{own}`: the wrong queue is emptied and the "
            f"one that holds the data is never dequeued.",
        )


def unaligned_datacopy(ctx: MutationContext) -> Iterator[Mutation]:
    """A DataCopy whose length is no longer a whole number of 32-byte blocks (one element short)."""
    for c in ctx.calls_named("DataCopy"):
        if len(c.args) != 3:
            continue
        count = c.args[2]
        a, b = ctx.span(count)
        text = ctx.text[a:b]
        yield Mutation(
            "unaligned_datacopy",
            "memory",
            (Edit(a, b, f"({text}) - 1"),),
            ctx.line_of(a),
            f"DataCopy length {text} written as ({text}) - 1",
            "DataCopy moves whole 32-byte blocks: a length that is not a multiple of 32 bytes is rounded "
            "down, so the last elements are never copied. Copy the full, aligned length (or use "
            "DataCopyPad for an arbitrary one).",
        )


def drop_sync(ctx: MutationContext) -> Iterator[Mutation]:
    """A removed SetFlag / WaitFlag pair (same event type, adjacent), or a removed PipeBarrier."""
    sets = [c for c in ctx.calls_named("SetFlag") if not c.is_member]
    waits = [c for c in ctx.calls_named("WaitFlag") if not c.is_member]
    for s in sets:
        event = ",".join(s.template_args)
        w = next(
            (
                w
                for w in waits
                if ",".join(w.template_args) == event
                and w.node.start_byte > s.node.start_byte
                and [ctx.node_text(x) for x in w.args] == [ctx.node_text(x) for x in s.args]
            ),
            None,
        )
        rs, rw = ctx.statement(s.node), (ctx.statement(w.node) if w is not None else None)
        if w is None or rs is None or rw is None:
            continue
        yield Mutation(
            "drop_sync",
            "memory",
            (Edit(*rs, ""), Edit(*rw, "")),
            ctx.line_of(rs[0]),
            f"removed the SetFlag/WaitFlag<{event}> pair",
            f"the SetFlag/WaitFlag<{event}> pair is missing: the next pipe reads what the previous one has "
            "not finished writing (a race: stale or partial data).",
        )
    for c in ctx.calls_named("PipeBarrier"):
        rng = ctx.statement(c.node)
        if rng is not None:
            yield Mutation(
                "drop_sync",
                "memory",
                (Edit(*rng, ""),),
                ctx.line_of(rng[0]),
                "removed a PipeBarrier",
                "the PipeBarrier is missing: the instructions after it may run before those before it "
                "are done.",
            )


def ub_overrun(ctx: MutationContext) -> Iterator[Mutation]:
    """An InitBuffer far larger than the tile needs: the kernel's buffers no longer fit in the Unified Buffer."""
    for c in ctx.calls_named("InitBuffer"):
        if not c.args:
            continue
        size = c.args[-1]
        a, b = ctx.span(size)
        text = ctx.text[a:b]
        yield Mutation(
            "ub_overrun",
            "memory",
            (Edit(a, b, f"({text}) * 64"),),
            ctx.line_of(a),
            f"InitBuffer size {text} written as ({text}) * 64",
            "the buffers asked of the TPipe are larger than the Unified Buffer (192 KiB per core on A2/A3): "
            "size each buffer for one tile.",
        )
        return  # one per kernel: every InitBuffer site is the same mistake
