"""AKG173 sync-event-id: an event id outside the ids the hardware has.

## What it does
Reports a ``SetFlag`` / ``WaitFlag`` whose event id is a constant (``3``, ``EVENT_ID7``,
``static_cast<event_t>(9)``) outside ``0 .. event_ids - 1`` of the target's profile (8 ids per event type on Atlas
A2/A3 and Ascend 950: ``EVENT_ID0`` .. ``EVENT_ID7``).

## Why is this bad?
Each ``HardEvent`` type has a fixed set of hardware flags. An id past them does not name a flag: bisheng may
accept the number, but the set and the wait do not meet, and the pipes are not ordered (or the wait never ends).

## Example
```cpp
AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(8);
AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(8);
```

Use instead:
```cpp
event_t id = static_cast<event_t>(GetTPipePtr()->FetchEventID(AscendC::HardEvent::MTE2_V));
AscendC::SetFlag<AscendC::HardEvent::MTE2_V>(id);
AscendC::WaitFlag<AscendC::HardEvent::MTE2_V>(id);
```

## Fix safety
No automatic fix.

## References
- Ascend C API: ``SetFlag`` / ``WaitFlag``, ``TPipe::FetchEventID``; the profiles' ``limits.event_ids``
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from akgen_lsp.ascendc.context import LintContext
from akgen_lsp.ascendc.kernel_model.sync import sync_model
from akgen_lsp.ascendc.rules import Rule
from akgen_lsp.findings import Finding, Severity

CODE = "AKG173"
_ID = re.compile(r"^(?:\(?(?:static_cast<event_t>|\(event_t\)|event_t)\(?)?(-?\d+|EVENT_ID(\d+))[uU]?\)*$")


def check(ctx: LintContext) -> Iterator[Finding]:
    model = sync_model(ctx)
    limit = int(ctx.arch.limits.get("event_ids", 8))
    for op in model.ops:
        if op.kind not in ("set", "wait") or not op.event_id:
            continue
        m = _ID.match(op.event_id)
        if m is None:
            continue
        value = int(m.group(2) if m.group(2) is not None else m.group(1))
        if 0 <= value < limit:
            continue
        yield Finding(
            CODE,
            f"event id {value} is out of range: {ctx.arch.name} has ids 0 to {limit - 1} per event "
            f"type (EVENT_ID0 .. EVENT_ID{limit - 1}); take one from "
            "GetTPipePtr()->FetchEventID(...) or use a smaller constant",
            ctx.parsed.span(op.call.args[0]),
            Severity.ERROR,
            "akgen-lint",
            "memory",
            data={"event_id": value, "limit": limit},
        )


RULE = Rule(CODE, "sync-event-id", "A SetFlag/WaitFlag event id outside the ids the hardware has.", check)
