"""AKG174 double-buffer-underflow: a double-buffer (ping-pong) index or event id taken from the previous iteration,
``i - 1``, in a loop whose counter starts at 0, with no guard for the first iteration.

## What it does
Reads every ``for`` loop whose counter starts at 0 and grows (``for (uint32_t i = 0; i < n; i++)``) and reports a
use of ``i - k`` (a constant k >= 1) in the loop's body, outside any ``if`` / ``?:`` / early ``continue`` that tests
the counter, as:

- the index of a subscript: ``buf[i - 1]``, ``bufs[(i - 1) % 2]``, ``ping[(i - 1) & 1]``, ``yGm[(i - 1) * TILE]``
  (the buffer or tile of the previous iteration, the pipelined pattern "copy in tile i while computing tile i - 1");
- the event id of a ``SetFlag`` / ``WaitFlag``: ``WaitFlag<HardEvent::V_MTE2>((i - 1) % 2)``.

## Why is this bad?
On the first iteration ``i - 1`` is -1: a signed index reads before the array (a negative ``% 2`` stays -1 in C++),
an unsigned one wraps to 4294967295 (or, taken ``% 2``, picks the other buffer, which no iteration has filled yet,
or waits on an event no iteration has set, so the core hangs). The pipelined loops of the samples either start at
1, guard the previous-tile work with ``if (i > 0)``, or run it after the loop for the last tile.

## Example
```cpp
for (uint32_t i = 0; i < tileNum; i++) {
    CopyIn(i, bufs[i % 2]);
    Compute(bufs[(i - 1) % 2]);                     // i = 0: the tile before the first
    WaitFlag<HardEvent::MTE2_V>((i - 1) % 2);       // waits on an id nothing has set
}
```

Use instead:
```cpp
for (uint32_t i = 0; i < tileNum; i++) {
    CopyIn(i, bufs[i % 2]);
    if (i > 0) {
        WaitFlag<HardEvent::MTE2_V>((i - 1) % 2);
        Compute(bufs[(i - 1) % 2]);
    }
}
```

## Fix safety
No automatic fix: whether to guard, start at 1 or peel the first iteration depends on the pipeline.

## References
- Ascend C programming guide: double buffer ("BUFFER_NUM = 2", ping-pong buffers and event ids)
- CANN mssanitizer: out-of-bounds UB access; the simulator's SIM-SYNC hang report
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from tree_sitter import Node

from akgen_lsp.ascendc.context import LintContext
from akgen_lsp.ascendc.rules import Rule
from akgen_lsp.ascendc.syntax import for_loops, walk
from akgen_lsp.findings import Finding, Severity

CODE = "AKG174"
_MINUS = re.compile(r"\b([A-Za-z_]\w*)\s*-\s*(\d+)[uUlL]*\b")
_ZERO = re.compile(r"^\(?\s*(?:static_cast<\w+>\()?\s*0[uUlL]*\s*\)?\)?$")
_GUARD_STOP = ("function_definition", "lambda_expression")


def check(ctx: LintContext) -> Iterator[Finding]:
    pf = ctx.parsed
    if not _MINUS.search(pf.code):
        return
    for loop in for_loops(pf):
        var = _counter_from_zero(ctx, loop)
        if var is None:
            continue
        body = loop.child_by_field_name("body")
        if body is None or not re.search(rf"\b{re.escape(var)}\s*-\s*\d", ctx.parsed.node_text(body)):
            continue
        seen: set[tuple[str, int]] = set()
        for node in walk(body):
            if node.type != "binary_expression" or not _is_minus_const(ctx, node, var):
                continue
            use = _use_of(ctx, node)
            if use is None or _guarded(ctx, node, loop, var):
                continue
            text = " ".join(ctx.parsed.node_text(node).split())
            if (use, node.start_point[0]) in seen:
                continue  # one finding per line and use (``bufs[(i - 1) % 2], bufs[(i - 1) % 2]``)
            seen.add((use, node.start_point[0]))
            what = (
                "-1, or the other buffer, which no iteration has filled yet"
                if use == "a buffer index"
                else "-1, or the other id, which no iteration has set yet: the wait never ends"
            )
            yield Finding(
                CODE,
                f"'{text}' is {use} that underflows on the first iteration of the loop on line "
                f"{loop.start_point[0] + 1}, where {var} is 0 ({what}); guard the previous-"
                f"iteration work with 'if ({var} > 0)', or start the loop at 1",
                ctx.parsed.span(node),
                Severity.ERROR,
                "akgen-lint",
                "memory",
                data={"counter": var, "expression": text, "use": use},
            )


def _counter_from_zero(ctx: LintContext, loop: Node) -> str | None:
    """The counter of `for (T v = 0; ...; v++ / ++v / v += k)`, else None."""
    init = loop.child_by_field_name("initializer")
    update = loop.child_by_field_name("update")
    if init is None or update is None:
        return None
    m = re.fullmatch(
        r"(?:[\w:<>\s]+\s)?([A-Za-z_]\w*)\s*=\s*(.+?);?", " ".join(ctx.parsed.node_text(init).split())
    )
    if m is None or not _ZERO.match(m.group(2).strip()):
        return None
    var = m.group(1)
    up = " ".join(ctx.parsed.node_text(update).split())
    if not re.fullmatch(rf"(?:\+\+\s*{var}|{var}\s*\+\+|{var}\s*\+=\s*\w+)", up):
        return None
    return var


def _is_minus_const(ctx: LintContext, node: Node, var: str) -> bool:
    op = node.child_by_field_name("operator")
    left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
    if op is None or left is None or right is None or op.type != "-":
        return False
    return (
        left.type == "identifier"
        and ctx.parsed.node_text(left) == var
        and right.type == "number_literal"
        and int(re.sub(r"[uUlL]+$", "", ctx.parsed.node_text(right)) or "0", 0) >= 1
    )


def _use_of(ctx: LintContext, node: Node) -> str | None:
    """'a buffer index' / 'an event id' when `node` (``v - k``) is the whole index of a subscript or the id of a
    SetFlag/WaitFlag, alone or taken ``% m`` / ``& m`` / ``* m``; else None."""
    cur = node
    parent = cur.parent
    while parent is not None:
        if parent.type == "parenthesized_expression":
            pass
        elif parent.type == "binary_expression":
            op = parent.child_by_field_name("operator")
            left = parent.child_by_field_name("left")
            if op is None or op.type not in ("%", "&", "*") or left is None or left.id != cur.id:
                return None
        elif parent.type == "subscript_argument_list" or (
            parent.type == "subscript_expression"
            and cur.id != (parent.child_by_field_name("argument") or cur).id
        ):
            return "a buffer index"
        elif parent.type == "argument_list":
            call = parent.parent
            fn = call.child_by_field_name("function") if call is not None else None
            name = ctx.parsed.node_text(fn) if fn is not None else ""
            short = name.split("<", 1)[0].rsplit("::", 1)[-1].strip()
            return (
                "an event id" if short in ("SetFlag", "WaitFlag") and parent.named_child_count == 1 else None
            )
        else:
            return None
        cur, parent = parent, parent.parent
    return None


def _guarded(ctx: LintContext, node: Node, loop: Node, var: str) -> bool:
    """Whether an ``if``/``?:`` between `node` and the loop tests the counter, or an earlier statement of the loop
    body leaves the first iteration (``if (i == 0) { ...; continue; }``)."""
    mentions = re.compile(rf"\b{re.escape(var)}\b")
    n = node.parent
    while n is not None and n.id != loop.id and n.type not in _GUARD_STOP:
        if n.type in ("if_statement", "conditional_expression", "while_statement"):
            cond = n.child_by_field_name("condition")
            if cond is not None and mentions.search(ctx.parsed.node_text(cond)):
                return True
        n = n.parent
    body = loop.child_by_field_name("body")
    for st in body.named_children if body is not None else ():
        if st.start_byte >= node.start_byte:
            break
        if st.type == "if_statement":
            cond = st.child_by_field_name("condition")
            text = ctx.parsed.node_text(st)
            if (
                cond is not None
                and mentions.search(ctx.parsed.node_text(cond))
                and re.search(r"\b(?:continue|break|return)\b", text)
            ):
                return True
    return False


RULE = Rule(
    CODE,
    "double-buffer-underflow",
    "A ping-pong index or event id of the previous iteration (i - 1) on the first iteration.",
    check,
)
