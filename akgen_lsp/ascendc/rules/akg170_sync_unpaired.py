"""AKG170 sync-unpaired: a ``WaitFlag`` that no ``SetFlag`` of its event answers, a wait before its set, or a
``SetFlag`` nothing waits for.

## What it does
Reads every ``SetFlag<HardEvent::X_Y>(id)`` / ``WaitFlag<HardEvent::X_Y>(id)`` of the file (free calls, the event
written as a ``HardEvent`` enumerator) and, for the events no other file of the same kernel sets or waits on (the
headers of its ``op_kernel`` folder and what they include), reports:

- a ``WaitFlag`` of an event that nothing sets (error): the wait never ends;
- a ``WaitFlag`` whose event id is set only later in the same function, and nowhere else (error): the first wait
  comes before any set, so it waits forever;
- a ``SetFlag`` of an event that nothing waits on (warning): the flag stays set and the pipes are not ordered.

A file in which some ``SetFlag``/``WaitFlag`` takes its event from a template parameter or a variable is checked
only for the events it writes literally, and only for waits that nothing sets.

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

from collections.abc import Iterator

from akgen_lsp.ascendc.context import LintContext
from akgen_lsp.ascendc.includes import project_index
from akgen_lsp.ascendc.kernel_model.sync import SyncOp, sync_model
from akgen_lsp.ascendc.rules import Rule
from akgen_lsp.findings import Finding, Severity

CODE = "AKG170"


def _elsewhere(ctx: LintContext) -> frozenset[tuple[str, str]]:
    from pathlib import Path

    index = project_index(ctx.path)
    return index.flags(exclude=Path(ctx.path)) if index is not None else frozenset()


def check(ctx: LintContext) -> Iterator[Finding]:
    model = sync_model(ctx)
    flags = [o for o in model.ops if o.kind in ("set", "wait") and o.event]
    if not flags:
        return
    sets, waits = model.events_set(), model.events_waited()
    other = None
    for op in flags:
        ev = op.event
        assert ev is not None
        if op.kind == "wait" and ev not in sets:
            other = _elsewhere(ctx) if other is None else other
            if ("SetFlag", ev) in other:
                continue
            yield _finding(ctx, op, f"WaitFlag<HardEvent::{ev}> waits for an event that nothing sets: no "
                                    f"SetFlag<HardEvent::{ev}> in this kernel, so the wait never ends (the core "
                                    f"hangs); set it on the {op.src} pipe after the work it guards")
            continue
        if op.kind == "wait" and not model.unknown_events:
            later = _set_only_later(flags, op)
            if later:
                other = _elsewhere(ctx) if other is None else other
                if ("SetFlag", ev) not in other:
                    yield _finding(ctx, op, f"WaitFlag<HardEvent::{ev}>({op.event_id}) comes before the only "
                                            f"SetFlag of that event and id (line {later}): nothing has set it yet, "
                                            "so the wait never ends; issue the SetFlag first")
            continue
        if op.kind == "set" and ev not in waits and not model.unknown_events:
            other = _elsewhere(ctx) if other is None else other
            if ("WaitFlag", ev) in other:
                continue
            yield _finding(ctx, op, f"SetFlag<HardEvent::{ev}> is never waited on: no WaitFlag<HardEvent::{ev}> in "
                                    f"this kernel, so the {op.dst} pipe is not held back and the flag stays set; "
                                    "add the WaitFlag before the work that needs the data", Severity.WARNING)


def _set_only_later(flags: list[SyncOp], wait: SyncOp) -> int | None:
    """The line of the set of the same event and id, when every such set is in the wait's function, after it."""
    same = [o for o in flags if o.kind == "set" and o.event == wait.event]
    if not same or any(o.function is None or wait.function is None or o.function.id != wait.function.id
                       or o.event_id != wait.event_id or o.start < wait.start for o in same):
        return None
    first = min(same, key=lambda o: o.start)
    return first.call.name_span.line


def _finding(ctx: LintContext, op: SyncOp, message: str, severity: Severity = Severity.ERROR) -> Finding:
    return Finding(CODE, message, op.call.name_span, severity, "akgen-lint", "memory",
                   data={"event": op.event, "event_id": op.event_id, "kind": op.kind})


RULE = Rule(CODE, "sync-unpaired", "A WaitFlag nothing sets, a wait before its set, or a SetFlag nothing waits for.",
            check, region="function")
