"""A ``repeatTime`` over 255 (the simulator's ``SIM-REPEAT``: the parameter is a uint8_t, 256 wraps to 0 and the call
does nothing) -> the same call in a loop of at most 255 repeats.

Only the mask/repeat form with its repeat parameters written out (``UnaryRepeatParams(1, 1, 8, 8)``,
``BinaryRepeatParams{}``, or none of them for the defaults) is rewritten: each tensor argument advances by its repeat
stride per repeat (``dstRepStride * 32 / sizeof(T)`` elements), the repeat count of each step is what is left, at most
255, and the count stays the author's expression. Not certain: a kernel in counter mask mode, say, means something
else by the count.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from akgen_lsp.ascendc.catalog import Overload
from akgen_lsp.ascendc.kernel_model import tensor_info, type_size
from akgen_lsp.ascendc.syntax import Call
from akgen_lsp.findings import Edit, Finding, Fix
from akgen_lsp.repair.fixers.base import FixContext, Proposal

NAME = "repeat loop"
_REPEAT_PARAMS = frozenset({"repeatTime", "repeatTimes", "repeat"})
_DEFAULTS = {"UnaryRepeatParams": (1, 1, 8, 8), "BinaryRepeatParams": (1, 1, 1, 8, 8, 8)}
_PARAMS = re.compile(
    r"^(?:AscendC::)?(?P<kind>UnaryRepeatParams|BinaryRepeatParams)\s*[({]\s*(?P<args>[^(){}]*)[)}]$"
)
MAX_REPEAT = 255


def _rep_strides(text: str, kind_hint: str) -> tuple[int, ...] | None:
    """The repeat strides (dst, src0[, src1]) of a written-out repeat-parameters argument, or None."""
    text = text.strip()
    m = _PARAMS.match(text)
    if m is None:
        return None
    kind = m.group("kind")
    values = list(_DEFAULTS[kind])
    args = [a.strip() for a in m.group("args").split(",") if a.strip()]
    if any(not a.isdigit() for a in args) or len(args) > len(values):
        return None
    values[: len(args)] = [int(a) for a in args]
    return tuple(values[2:]) if kind == "UnaryRepeatParams" else tuple(values[3:])


def _overload(ctx: FixContext, call: Call) -> Overload | None:
    entry = ctx.catalog.get(call.resolved or "") or next(
        (e for e in ctx.catalog.lookup(call.short) if e.name.startswith("AscendC::")), None
    )
    if entry is None:
        return None
    fits = [
        o
        for o in entry.overloads
        if len(o.params) == len(call.args) and any(p.name in _REPEAT_PARAMS for p in o.params)
    ]
    return fits[0] if fits else None


def _rewrite(ctx: FixContext, call: Call) -> tuple[str, str] | None:
    ov = _overload(ctx, call)
    if ov is None:
        return None
    pf = ctx.parsed
    args = [pf.node_text(a) for a in call.args]
    names = [p.name for p in ov.params]
    r = next(i for i, n in enumerate(names) if n in _REPEAT_PARAMS)
    kinds = ["Unary" if "Unary" in p.type else "Binary" if "Binary" in p.type else "" for p in ov.params]
    if "Unary" in kinds or "Binary" in kinds:
        k = next(i for i, kd in enumerate(kinds) if kd)
        strides = _rep_strides(args[k], kinds[k])
    else:
        strides = None
    if strides is None:
        return None
    tensor_args = [i for i, p in enumerate(ov.params) if "LocalTensor" in p.type]
    if not tensor_args or len(tensor_args) > len(strides):
        return None
    new_args = list(args)
    for slot, i in enumerate(tensor_args):
        info = tensor_info(ctx.model, call.args[i])
        size = type_size(pf, info[1]) if info is not None else None
        if info is None or not size or (strides[slot] * 32) % size:
            return None
        step = strides[slot] * 32 // size
        new_args[i] = f"{args[i]}[akgDone * {step}]"
    new_args[r] = (
        f"static_cast<uint8_t>(akgRepeats - akgDone < {MAX_REPEAT} ? akgRepeats - akgDone : {MAX_REPEAT})"
    )
    callee = pf.node_text(call.node)[: pf.node_text(call.node).index("(")]
    return f"{callee}({', '.join(new_args)})", args[r]


def propose(ctx: FixContext, finding: Finding) -> Iterator[Proposal]:
    if finding.code != "SIM-REPEAT" or "out of range" not in finding.message:
        return
    for call in ctx.calls_on_line(finding.span.line):
        if call.short not in finding.message.split(":", 1)[0]:
            continue
        made = _rewrite(ctx, call)
        if made is None:
            continue
        new_call, repeat = made
        stmt = call.node.parent
        if stmt is None or stmt.type != "expression_statement":
            continue
        pf = ctx.parsed
        span = pf.span(stmt)
        line_text = pf.line_text(span.line)
        indent = line_text[: len(line_text) - len(line_text.lstrip())]
        text = (
            f"for (uint32_t akgDone = 0, akgRepeats = {repeat}; akgDone < akgRepeats; akgDone += {MAX_REPEAT}) "
            f"{{\n{indent}    {new_call};\n{indent}}}"
        )
        yield Proposal(
            Fix(f"Split {call.short} into steps of at most {MAX_REPEAT} repeats", (Edit(span, text),)),
            False,
            NAME,
        )
