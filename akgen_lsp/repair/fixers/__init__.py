"""Deterministic fixes for the findings of a check (build, run, wrong numbers): one module per kind of fix.

`propose(ctx, finding)` gathers what every fixer proposes for one finding, the compiler's own fix-its (already on
the finding) first, one proposal per distinct resulting text. Nothing here is offered as it is: `repair.deterministic`
verifies each proposal on the simulator and offers only those that verify.

| fixer | finding | fix |
| --- | --- | --- |
| the compiler's fix-its | any compile error (g++, bisheng) | the compiler's edit ("did you mean") |
| `names` | an unknown ``AscendC::`` name or member | the catalog's name: invented -> real, renamed for the CANN version, did you mean |
| `names` (local) | an undeclared plain name | the file's names one or two letters off (the compiler suggests only one) |
| `type_spelling` | ``float16`` / ``bfloat16`` | ``half`` / ``bfloat16_t`` at every use |
| `template_arg` | ``AllocTensor()`` / ``DeQue()`` without ``<T>`` | ``<T>`` from the declaration or the queue's other calls |
| `entry` | a missing ``extern "C"``, ``__global__``, ``__aicore__`` | the linter's AKG110 insertion |
| `overload` | one argument too many or too few | the one overload that fits the arguments given |
| `datacopy_pad` | ``DataCopy`` length not a multiple of 32 bytes | ``DataCopyPad`` with the exact byte count |
| `free_tensor` | a queue that runs dry, a tensor held at the end; a double free | ``FreeTensor`` at the end of the block that took it; the second one removed |
| `deque_queue` | ``DeQue`` from a queue nothing fills | the queue that is filled and never emptied |
| `enque` | ``DeQue`` from a queue nothing fills | ``EnQue`` of the tensor allocated from it, after its last use |
| `repeat_loop` | ``repeatTime`` over 255 | the call in a loop of at most 255 repeats |
"""

from __future__ import annotations

from akgen_lsp.findings import Finding, apply_edits
from akgen_lsp.repair.fixers import (
    datacopy_pad,
    deque_queue,
    enque,
    entry,
    free_tensor,
    names,
    overload,
    repeat_loop,
    template_arg,
    type_spelling,
)
from akgen_lsp.repair.fixers.base import FixContext, Fixer, Proposal

FIXERS: tuple[tuple[str, Fixer], ...] = (
    (names.NAME, names.propose),
    ("local names", names.propose_local),
    (type_spelling.NAME, type_spelling.propose),
    (template_arg.NAME, template_arg.propose),
    (entry.NAME, entry.propose),
    (overload.NAME, overload.propose),
    (datacopy_pad.NAME, datacopy_pad.propose),
    (free_tensor.NAME, free_tensor.propose),
    (deque_queue.NAME, deque_queue.propose),
    (enque.NAME, enque.propose),
    (repeat_loop.NAME, repeat_loop.propose),
)
COMPILER = "compiler"

__all__ = ["COMPILER", "FIXERS", "FixContext", "Proposal", "propose"]


def propose(ctx: FixContext, finding: Finding) -> list[Proposal]:
    """Every distinct fix proposed for `finding`: its own fixes (the compiler's fix-its, a lint rule's) first."""
    out: list[Proposal] = []
    seen = {ctx.text}
    own = [Proposal(fx, True, COMPILER if "fix-it" in fx.title else "lint") for fx in finding.fixes]
    found = list(own)
    for _name, fixer in FIXERS:
        try:
            found.extend(fixer(ctx, finding))
        except Exception:  # a fixer that trips on odd code proposes nothing; the others go on
            continue
    for p in found:
        try:
            new = apply_edits(ctx.text, p.fix.edits)
        except (ValueError, IndexError):
            continue
        if new in seen:
            continue
        seen.add(new)
        out.append(p)
    return out
