"""AKG130 ub-budget: the buffers a kernel initialises do not fit in the Unified Buffer, or one TPipe holds too many.

## What it does
Adds up the ``InitBuffer`` calls that one function makes on one pipe, for the buffers that live in the Unified
Buffer (positions ``VECIN``, ``VECOUT``, ``VECCALC``): each call reserves ``num x len`` bytes, with ``len``
rounded up to 32 bytes. When every size is a compile-time constant (literals, ``constexpr``, ``#define``) and the
sum is larger than the UB of the target (192 KiB on Atlas A2/A3), it reports the sum and the limit. It also
reports more than 64 buffers on one ``TPipe``.

Sizes that come from tiling data are runtime values: when any of them is unknown, the rule stays silent. Calls
inside a branch, a loop or an ``#if`` are left out of the sum (so the sum it reports is always reached). In a
class template, sizes written with its parameters (``TILE * sizeof(T)``) are evaluated for each instantiation the
file writes out (``KernelAdd<half, 8192> op;``).

## Why is this bad?
``TPipe::InitBuffer`` carves the buffers out of one fixed memory. When they do not fit, the CPU debug build
stops with "buffer size is N, exceeds the limit M" and the NPU writes past the end of UB (AICore error
507015, "the ub address out of bounds").

## Example
```cpp
constexpr int32_t TILE = 16384;
pipe.InitBuffer(inQueueX, 2, TILE * sizeof(float));   // 128 KiB
pipe.InitBuffer(outQueueZ, 2, TILE * sizeof(float));  // 128 KiB: 256 KiB in all
```

Use instead:
```cpp
constexpr int32_t TILE = 8192;
pipe.InitBuffer(inQueueX, 2, TILE * sizeof(float));   // 64 KiB
pipe.InitBuffer(outQueueZ, 2, TILE * sizeof(float));  // 64 KiB: 128 KiB in all
```

## Fix safety
No automatic fix: the tile size is a design decision (and the tiling code must change with it).

## References
- Ascend C API: ``TPipe::InitBuffer`` (``kernel_tpipe.h``); CANN: "buffer size is %u, exceeds the limit %u",
  "Total buffer num managed by TPipe is %d, should be in range (0, %d]"
"""

from __future__ import annotations

from collections.abc import Iterator

from akgen_lsp.ascendc.context import LintContext
from akgen_lsp.ascendc.kernel_model import UB_POSITIONS, Binding, InitBuffer, KernelModel, kernel_model
from akgen_lsp.ascendc.rules import Rule
from akgen_lsp.findings import Finding, Severity

CODE = "AKG130"
_RESETS = ("Reset", "Destroy")


def check(ctx: LintContext) -> Iterator[Finding]:
    model = kernel_model(ctx)
    if not model.init_buffers:
        return
    groups: dict[tuple[int, str], list[InitBuffer]] = {}
    for ib in model.init_buffers:
        groups.setdefault((ib.function.node.start_byte, ib.pipe), []).append(ib)
    for calls in groups.values():
        if _resets_pipe(model, calls[0]):
            continue
        # the generic code first, then each instantiation of its class template that the file writes out
        bindings: list[Binding | None] = [None, *model.bindings_for(calls[0].function)]
        for check_one in (_ub_sum, _buffer_count):
            for binding in bindings:
                found = check_one(ctx, [c.under(binding) for c in calls], _where(calls[0], binding))
                if found is not None:
                    yield found
                    break


def _where(ib: InitBuffer, binding: Binding | None) -> str:
    return f" (in {ib.function.class_name}<{binding.label()}>)" if binding is not None else ""


def _resets_pipe(model: KernelModel, ib: InitBuffer) -> bool:
    fn = ib.function
    if fn.body is None:
        return True
    text = model.pf.node_text(fn.body)
    return any(f".{r}(" in text or f"->{r}(" in text for r in _RESETS)


def _ub_sum(ctx: LintContext, calls: list[InitBuffer], where: str) -> Finding | None:
    limit = ctx.arch.ub_usable_bytes if "ub" in ctx.arch.memory else None
    if not limit:
        return None
    ub = [
        c
        for c in calls
        if c.buffer is not None and c.buffer.src in UB_POSITIONS | {None} and c.buffer.memory == "ub"
    ]
    unknown = [c for c in calls if c.buffer is None or c.buffer.memory is None]
    if unknown or not ub:
        return None  # a buffer we cannot place: its bytes may or may not be UB
    counted = [c for c in ub if not c.conditional]
    if not counted or any(c.rounded_bytes is None for c in counted):
        return None
    if len({id(c.buffer) for c in counted}) != len(counted):
        return None  # one buffer initialised twice: not a plain sum
    total = sum(c.rounded_bytes or 0 for c in counted)
    if total <= limit:
        return None
    parts = ", ".join(f"{c.target} {c.num} x {_rounded(c.length or 0)}" for c in counted)
    last = counted[-1]
    return Finding(
        CODE,
        f"buffer size is {total}, exceeds the limit {limit}: the UB buffers initialised in "
        f"'{last.function.name}'{where} take {total} bytes ({parts}) and {ctx.arch.name} has {limit} bytes of UB; "
        "make the tiles smaller or use fewer buffers",
        ctx.parsed.span(last.node),
        Severity.ERROR,
        "akgen-lint",
        "memory",
        data={"total": total, "limit": limit},
    )


def _rounded(length: int) -> int:
    return (length + 31) // 32 * 32


def _buffer_count(ctx: LintContext, calls: list[InitBuffer], where: str) -> Finding | None:
    limit = ctx.arch.limits.get("buffers_per_pipe")
    if not limit:
        return None
    counted = [c for c in calls if not c.conditional and c.buffer is not None and not c.buffer.is_array]
    if not counted or any(c.num is None for c in counted):
        return None
    total = sum(c.num or 0 for c in counted)
    if total <= limit:
        return None
    last = counted[-1]
    return Finding(
        CODE,
        f"Total buffer num managed by TPipe is {total}, should be in range (0, {limit}]: '{last.function.name}'{where} "
        f"initialises {total} buffers on '{last.pipe}'; use fewer buffers (one TBuf can hold several scratch "
        "tensors through Get<T>(len) and sub-tensors)",
        ctx.parsed.span(last.node),
        Severity.ERROR,
        "akgen-lint",
        "memory",
    )


RULE = Rule(
    CODE,
    "ub-budget",
    "InitBuffer sizes over the Unified Buffer, or more than 64 buffers on one TPipe",
    check,
    region="class",
)
