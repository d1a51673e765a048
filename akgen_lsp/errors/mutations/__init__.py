"""Realistic mistakes applied to correct kernels (the synthesis of `akgen errors synthesize`).

Each operator reads a `MutationContext` (the text, its parse, the catalog) and yields `Mutation`s, each one mistake
of the kinds models make, with its class in the taxonomy:

| operator | class | the mistake |
| --- | --- | --- |
| invented_api | hallucinated_api | an API, type or enumerator renamed to a name models invent (the catalog's list) |
| renamed_api | renamed_api | a name of a later CANN version (``Subs`` on CANN 8.5) |
| drop_argument, extra_argument | api_mismatch | a call with one argument less or more |
| wrong_dtype | dtype | the wrong template dtype (``Get<half>`` for float), ``float16`` / ``bfloat16`` spellings |
| drop_free_tensor, drop_enque | memory | a FreeTensor or EnQue removed |
| deque_wrong_queue | memory | a DeQue from another queue |
| unaligned_datacopy | memory | a DataCopy length that is not a whole number of 32-byte blocks |
| drop_sync | memory | a SetFlag / WaitFlag pair or a PipeBarrier removed |
| ub_overrun | memory | an InitBuffer larger than the Unified Buffer |
| tail_off_by_one | runtime | a tile loop one step too far, a tail one element too long |
| tiling_wrong_field | tiling | a tiling field read from the wrong place |
| device_stl | device_restriction | std::vector or new in device code |

`OBSERVABLE` are the operators whose mistake shows in the log as its own class (a compile error, a queue-protocol
check); the others (a tail off by one, a tiling field swapped) show as what they cause (an out-of-bounds access,
wrong numbers), so their injected class is not a label the classifier can read from the log.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

from akgen_lsp.errors.mutations.api import (
    drop_argument,
    extra_argument,
    invented_api,
    renamed_api,
    wrong_dtype,
)
from akgen_lsp.errors.mutations.base import Edit, Mutation, MutationContext
from akgen_lsp.errors.mutations.logic import device_stl, tail_off_by_one, tiling_wrong_field
from akgen_lsp.errors.mutations.memory import (
    deque_wrong_queue,
    drop_enque,
    drop_free_tensor,
    drop_sync,
    ub_overrun,
    unaligned_datacopy,
)

Operator = Callable[[MutationContext], Iterator[Mutation]]

OPERATORS: dict[str, Operator] = {
    "invented_api": invented_api,
    "renamed_api": renamed_api,
    "drop_argument": drop_argument,
    "extra_argument": extra_argument,
    "wrong_dtype": wrong_dtype,
    "drop_free_tensor": drop_free_tensor,
    "drop_enque": drop_enque,
    "deque_wrong_queue": deque_wrong_queue,
    "unaligned_datacopy": unaligned_datacopy,
    "drop_sync": drop_sync,
    "ub_overrun": ub_overrun,
    "tail_off_by_one": tail_off_by_one,
    "tiling_wrong_field": tiling_wrong_field,
    "device_stl": device_stl,
}
OBSERVABLE = frozenset(
    {
        "invented_api",
        "renamed_api",
        "drop_argument",
        "extra_argument",
        "wrong_dtype",
        "drop_free_tensor",
        "drop_enque",
        "deque_wrong_queue",
        "unaligned_datacopy",
        "ub_overrun",
        "device_stl",
    }
)

__all__ = ["OBSERVABLE", "OPERATORS", "Edit", "Mutation", "MutationContext", "mutations"]


def mutations(ctx: MutationContext, operators: Sequence[str] | None = None) -> list[Mutation]:
    """Every mutation of the selected operators (all by default), each applied alone, in a stable order; those whose
    result equals the original or another mutation's result are left out."""
    out: list[Mutation] = []
    seen = {ctx.text}
    for name in operators or OPERATORS:
        for m in OPERATORS[name](ctx):
            result = m.apply(ctx.text)
            if result in seen:
                continue
            seen.add(result)
            out.append(m)
    return out


def pick(muts: Sequence[Mutation], n: int | None) -> list[Mutation]:
    """At most `n` mutations, spread over the operators: round-robin in operator order, each operator's own sites
    in text order."""
    if n is None or len(muts) <= n:
        return list(muts)
    by_op: dict[str, list[Mutation]] = {}
    for m in muts:
        by_op.setdefault(m.operator, []).append(m)
    out: list[Mutation] = []
    queues = list(by_op.values())
    i = 0
    while len(out) < n and any(queues):
        q = queues[i % len(queues)]
        if q:
            out.append(q.pop(0))
        i += 1
    return out
