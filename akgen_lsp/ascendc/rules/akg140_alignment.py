"""AKG140 alignment: a DataCopy length that is not a multiple of 32 bytes, a Compare length not of 256 bytes.

## What it does
For ``DataCopy(dst, src, count)`` (the count form) whose ``count`` is a compile-time constant and whose tensors'
element type is known, it checks that ``count x sizeof(T)`` is a multiple of 32 bytes. For
``Compare(dst, src0, src1, mode, count)`` it checks that ``count x sizeof(T)`` is a multiple of 256 bytes. In a
class template, a count or element type written with its parameters is checked for each instantiation the file
writes out (``KernelAdd<half, 100> op;``); lengths from tiling data are runtime values and are not checked.

## Why is this bad?
DataCopy moves whole 32-byte blocks: the length is silently rounded down, so the tail of the data is never
copied (and a copy shorter than 32 bytes copies nothing). The kernel runs and produces wrong numbers at the end
of each tile. Compare's count form works on whole 256-byte repeats; another count is outside the API's contract.

## Example
```cpp
constexpr int32_t TAIL = 100;            // 200 bytes of half
DataCopy(xLocal, xGm[offset], TAIL);     // copies 192 bytes: the last 4 elements are lost
```

Use instead:
```cpp
DataCopyExtParams params{1, TAIL * sizeof(half), 0, 0, 0};
DataCopyPad(xLocal, xGm[offset], params, DataCopyPadExtParams<half>{false, 0, 0, 0});
```

## Fix safety
The DataCopy finding offers an unsafe fix that rewrites the call to ``DataCopyPad`` with a
``DataCopyExtParams`` of the exact byte length (GM to UB also gets a ``DataCopyPadExtParams<T>`` without
padding). ``DataCopyPad`` exists on Atlas A2/A3 but not on every part, and a padded UB tile may need a different
stride in later vector code, so the rewrite is offered, never applied silently. Compare has no automatic fix.

## References
- Ascend C API: ``DataCopy``, ``DataCopyPad``, ``DataCopyExtParams``, ``Compare``
"""

from __future__ import annotations

from collections.abc import Iterator

from tree_sitter import Node

from akgen_lsp.ascendc.context import LintContext
from akgen_lsp.ascendc.kernel_model import (
    Binding,
    Function,
    KernelModel,
    kernel_model,
    tensor_info,
    type_size,
)
from akgen_lsp.ascendc.rewrites import datacopy_pad
from akgen_lsp.ascendc.rules import Rule
from akgen_lsp.ascendc.syntax import Call
from akgen_lsp.findings import Edit, Finding, Fix, Severity

CODE = "AKG140"


def check(ctx: LintContext) -> Iterator[Finding]:
    if "DataCopy" not in ctx.text and "Compare" not in ctx.text:
        return
    model = kernel_model(ctx)
    block = ctx.arch.alignment.get("datacopy", 32) or 32
    repeat = ctx.arch.alignment.get("compare", 256) or 256
    bindings_of: dict[int, list[Binding | None]] = {}
    for fn, c in model.calls_named("DataCopy", "Compare"):
        if c.receiver is not None or c.user_defined or c.qualifier not in (None, "AscendC"):
            continue
        if c.short == "DataCopy" and len(c.args) == 3:
            check_one, unit = _data_copy, block
        elif c.short == "Compare" and len(c.args) == 5:
            check_one, unit = _compare, repeat
        else:
            continue
        if not model.is_device(fn):
            continue
        bindings = bindings_of.get(fn.node.start_byte)
        if bindings is None:
            bindings = bindings_of[fn.node.start_byte] = [None, *model.bindings_for(fn)]
        for binding in bindings:  # the generic code first, then each instantiation the file writes out
            found = check_one(ctx, model, fn, c, binding, unit)
            if found is not None:
                yield found
                break


def _element(
    model: KernelModel, args: tuple[Node, ...], binding: Binding | None
) -> tuple[str, str, int] | None:
    """(element type as written, as instantiated, its size) of the tensors `args`, when known and the same."""
    infos = [(tensor_info(model, a), tensor_info(model, a, binding)) for a in args]
    written = {w[1] for w, _b in infos if w is not None}
    bound = {b[1] for _w, b in infos if b is not None}
    if len(written) != 1 or len(bound) != 1:
        return None
    t = next(iter(bound))
    size = type_size(model.pf, t)
    return (next(iter(written)), t, size) if size else None


def _where(fn: Function, binding: Binding | None) -> str:
    return f" (in {fn.class_name}<{binding.label()}>)" if binding is not None else ""


def _data_copy(
    ctx: LintContext, model: KernelModel, fn: Function, c: Call, binding: Binding | None, block: int
) -> Finding | None:
    count = model.eval(c.args[2], fn, binding)
    if count is None or count <= 0:
        return None
    elem = _element(model, c.args[:2], binding)
    if elem is None:
        return None
    written, type_name, size = elem
    length = count * size
    if length % block == 0:
        return None
    kept = length // block * block
    pf = ctx.parsed
    dst, src = tensor_info(model, c.args[0]), tensor_info(model, c.args[1])
    fixes: tuple[Fix, ...] = ()
    generic = binding is not None  # the code is generic: the byte length must stay an expression
    byte_len = (
        f"static_cast<uint32_t>(({pf.node_text(c.args[2])}) * sizeof({written}))" if generic else str(length)
    )
    if dst is not None and src is not None and (dst[0] == "GlobalTensor") != (src[0] == "GlobalTensor"):
        new = datacopy_pad(
            pf.node_text(c.args[0]),
            pf.node_text(c.args[1]),
            byte_len,
            written,
            "AscendC::" if c.qualifier == "AscendC" else "",
            src[0] == "GlobalTensor",
        )
        fixes = (
            Fix(
                f"Use DataCopyPad with the exact length ({length} bytes)",
                (Edit(pf.span(c.node), new),),
                safe=False,
            ),
        )
    effect = (
        f"rounds it down to {kept} bytes and the last {length - kept} bytes are silently not copied"
        if kept
        else "rounds it down to 0 bytes: nothing is copied"
    )
    return Finding(
        CODE,
        f"DataCopy length is {count} x sizeof({type_name}) = {length} bytes{_where(fn, binding)}, not a multiple of "
        f"{block}: DataCopy {effect}; copy a multiple of {max(block // size, 1)} elements or use DataCopyPad with "
        f"DataCopyExtParams{{1, {length}, 0, 0, 0}}",
        pf.span(c.args[2]),
        Severity.WARNING,
        "akgen-lint",
        "memory",
        fixes,
        data={"count": count, "element": type_name, "bytes": length},
    )


def _compare(
    ctx: LintContext, model: KernelModel, fn: Function, c: Call, binding: Binding | None, repeat: int
) -> Finding | None:
    count = model.eval(c.args[4], fn, binding)
    if count is None or count <= 0:
        return None
    elem = _element(model, c.args[1:3], binding)
    if elem is None:
        return None
    _written, type_name, size = elem
    length = count * size
    if length % repeat == 0:
        return None
    return Finding(
        CODE,
        f"Compare count is {count} x sizeof({type_name}) = {length} bytes{_where(fn, binding)}, not a multiple of "
        f"{repeat}: the count form of Compare works on whole {repeat}-byte repeats; compare a multiple of "
        f"{max(repeat // size, 1)} elements (pad the tail) or use the mask/repeat form",
        ctx.parsed.span(c.args[4]),
        Severity.ERROR,
        "akgen-lint",
        "memory",
        data={"count": count, "element": type_name, "bytes": length},
    )


RULE = Rule(
    CODE,
    "alignment",
    "DataCopy length not a multiple of 32 bytes; Compare length not of 256 bytes",
    check,
    region="function",
)
