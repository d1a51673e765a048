"""The synchronisation calls of one file, for the static synchronisation audit (AKG170-AKG173).

`sync_model(ctx)` collects, once per parse (kept in the parse's memo), every free call of ``SetFlag`` / ``WaitFlag``
(with its ``HardEvent`` and its event id as written) and ``PipeBarrier`` (with its pipe), with the statement it
stands in, that statement's block and place in the block, and the enclosing function. `pipe_of(call)` tells which
pipe an Ascend C call issues on (from the catalog's ``pipe``; ``DataCopy`` by its direction, read from the declared
types of its first two arguments, or from their names when the declarations are out of sight).

Member calls (``TQueSync::SetFlag``), and calls whose event is a template parameter or a variable
(``SetFlag<event>(id)`` in a helper), are kept with ``event = None``: a rule that needs to know every event of the
file stays silent where one is not known.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tree_sitter import Node

from akgen_lsp.ascendc.syntax import Call, calls, functions, lookup

if TYPE_CHECKING:
    from akgen_lsp.ascendc.context import LintContext

PIPES = ("MTE1", "MTE2", "MTE3", "FIX", "V", "M", "S")
_EVENT_RE = re.compile(r"(?:\bAscendC::)?\bHardEvent::(\w+)$")
_PIPE_RE = re.compile(r"\bPIPE_(\w+)$")
STATEMENTS = (
    "expression_statement",
    "return_statement",
    "declaration",
    "if_statement",
    "for_statement",
    "while_statement",
    "do_statement",
    "switch_statement",
    "compound_statement",
    "break_statement",
    "continue_statement",
)
PREPROC_BLOCKS = ("preproc_if", "preproc_ifdef", "preproc_else", "preproc_elif", "preproc_elifdef")


@dataclass
class SyncOp:
    kind: str  # set | wait | barrier
    call: Call
    event: str | None  # MTE2_V (set/wait); V, ALL (barrier: the pipe); None when not a literal
    event_id: str  # the id argument as written, spaces removed ("" for a barrier)
    statement: Node  # the statement the call stands in
    function: Node | None  # the enclosing function_definition

    @property
    def src(self) -> str | None:
        return self.event.split("_", 1)[0] if self.event and "_" in self.event else None

    @property
    def dst(self) -> str | None:
        return self.event.split("_", 1)[1] if self.event and "_" in self.event else None

    @property
    def start(self) -> int:
        return self.call.node.start_byte


@dataclass
class SyncModel:
    ops: list[SyncOp] = field(default_factory=list)
    unknown_events: bool = False  # some SetFlag/WaitFlag's event is not a literal HardEvent
    calls: list[Call] = field(default_factory=list)  # every call of the file, in order

    def events_set(self) -> set[str]:
        return {o.event for o in self.ops if o.kind == "set" and o.event}

    def events_waited(self) -> set[str]:
        return {o.event for o in self.ops if o.kind == "wait" and o.event}


def _statement_of(node: Node) -> Node:
    n = node
    while n.parent is not None and n.type not in ("expression_statement", "return_statement", "declaration"):
        n = n.parent
    return n


def _function_of(node: Node) -> Node | None:
    n = node.parent
    while n is not None and n.type != "function_definition":
        n = n.parent
    return n


def sync_model(ctx: LintContext) -> SyncModel:
    key = ("sync_model", id(ctx.catalog))
    cached = ctx.parsed.memo.get(key)
    if cached is not None:
        return cached  # type: ignore[return-value]
    model = SyncModel()
    text = ctx.text
    if "Flag" in text or "PipeBarrier" in text:
        model.calls = list(calls(ctx.parsed, ctx.catalog))
        for c in model.calls:
            if c.short not in ("SetFlag", "WaitFlag", "PipeBarrier"):
                continue
            if c.receiver is not None or (c.qualifier not in (None, "AscendC")):
                if c.short != "PipeBarrier":
                    model.unknown_events = True
                continue
            if c.short == "PipeBarrier":
                m = _PIPE_RE.search(c.template_args[0].replace(" ", "")) if c.template_args else None
                model.ops.append(
                    SyncOp("barrier", c, m.group(1) if m else None, "", _statement_of(c.node), c.in_function)
                )
                continue
            ev = _EVENT_RE.search(c.template_args[0].replace(" ", "")) if c.template_args else None
            if ev is None or not c.args:
                model.unknown_events = True
            kind = "set" if c.short == "SetFlag" else "wait"
            eid = ctx.parsed.node_text(c.args[0]).replace(" ", "") if c.args else ""
            model.ops.append(
                SyncOp(
                    kind,
                    c,
                    ev.group(1) if ev else None,
                    eid,
                    _statement_of(c.node),
                    c.in_function or _function_of(c.node),
                )
            )
    ctx.parsed.memo[key] = model
    return model


_GM_NAME = re.compile(r"(?i)(gm|global)")


def _is_global(ctx: LintContext, node: Node) -> bool | None:
    """Whether an argument is a GlobalTensor (True), a LocalTensor (False), or not known (None)."""
    pf = ctx.parsed
    base = node
    while base.type in (
        "subscript_expression",
        "field_expression",
        "call_expression",
        "parenthesized_expression",
    ):
        inner = (
            base.child_by_field_name("argument")
            or base.child_by_field_name("function")
            or base.named_child(0)
        )
        if inner is None:
            break
        base = inner
    if base.type == "identifier":
        d = lookup(pf, pf.node_text(base), node)
        if d is not None and d.type_name:
            if "GlobalTensor" in d.type_name:
                return True
            if "LocalTensor" in d.type_name:
                return False
    name = pf.node_text(node)
    return bool(_GM_NAME.search(name)) if name else None


def pipe_of(ctx: LintContext, call: Call) -> str | None:
    """The pipe an Ascend C call issues on, or None (not an Ascend C call, or not told)."""
    if call.short == "asc_vf_call":
        return "V"  # launches a vector function (the register API) on the vector pipe
    if call.resolved is None:
        return None
    if call.short in ("DataCopy", "DataCopyPad") and len(call.args) >= 2:
        dst, src = _is_global(ctx, call.args[0]), _is_global(ctx, call.args[1])
        if dst is False and src is True:
            return "MTE2"
        if dst is True and src is False:
            return "MTE3"
        return None
    entry = ctx.catalog.get(call.resolved)
    if entry is None or entry.pipe in ("none", "ALL"):
        return None
    return entry.pipe if entry.pipe in PIPES else None


def helper_pipe(ctx: LintContext, call: Call, last: bool) -> str | None:
    """For a call of a function the file defines (``CopyIn(i)``, ``this->Compute()``): the pipe of the last (or first)
    work in its body whose pipe is known and is not the scalar pipe; None when the body says nothing or the name
    has several definitions."""
    if call.receiver is not None and call.receiver.type != "this":
        return None
    bodies = ctx.memo.get("sync.bodies")
    if bodies is None:
        bodies = ctx.memo["sync.bodies"] = {}
        for fn in functions(ctx.parsed):
            if fn.body is not None:
                bodies.setdefault(fn.name, []).append(fn.node)
    defs = bodies.get(call.short, [])
    if len(defs) != 1:
        return None
    model = sync_model(ctx)
    inner = [
        c
        for c in model.calls
        if c.in_function is not None
        and c.in_function.id == defs[0].id
        and c.short not in ("SetFlag", "WaitFlag", "PipeBarrier")
    ]
    for c in reversed(inner) if last else inner:
        pipe = pipe_of(ctx, c)
        if pipe is not None and pipe != "S":
            return pipe
    return None


def block_neighbours(statement: Node) -> tuple[list[Node], int]:
    """The statements of the block `statement` stands in, and its index there."""
    parent = statement.parent
    if parent is None:
        return [statement], 0
    items = [
        c
        for c in parent.named_children
        if c.type in STATEMENTS or c.type.endswith("_statement") or c.type in PREPROC_BLOCKS
    ]
    for i, c in enumerate(items):
        if c.start_byte == statement.start_byte:
            return items, i
    return items, -1
