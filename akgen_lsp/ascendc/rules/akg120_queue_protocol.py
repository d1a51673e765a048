"""AKG120 queue-protocol: a queue used out of its AllocTensor / EnQue / DeQue / FreeTensor protocol.

## What it does
Follows every ``TQue``/``TQueBind`` of a kernel class (or of a kernel function) across the methods that use it
and reports:

- a tensor taken with ``AllocTensor`` that its function neither ``EnQue``s nor ``FreeTensor``s;
- ``DeQue`` from a queue that nothing ever ``EnQue``s: not this file, nor another file of the same kernel (the
  headers of its ``op_kernel`` folder and what they include, read once and kept while unchanged, so a class
  hierarchy split over headers, a base class that DeQues and a derived class that EnQues, is one class);
- a tensor taken with ``DeQue`` that its function never ``FreeTensor``s (nor passes on with ``EnQue``);
- ``AllocTensor<T>()`` or ``DeQue<T>()`` on a queue of depth 0 (the form that needs a depth of at least 1);
- more buffers on one queue position than the hardware has events for (8 on Atlas A2/A3: the sum of the constant
  ``num`` arguments of ``InitBuffer`` over the queues of that position in one function).

A tensor that is handed to a helper function, stored in a member or returned counts as passed on, and is not
reported.

## Why is this bad?
A queue has a fixed number of buffers. A buffer that is allocated and never freed is gone for good: the next
``AllocTensor`` on that queue waits for it forever and the core hangs. ``DeQue`` on a queue that nothing fills
waits forever too. Each buffer of a position holds a hardware event id, and there are only 8 per position:
the 9th stops the kernel ("max buffer number in same queue position is 8").

## Example
```cpp
__aicore__ inline void Compute(int32_t progress)
{
    LocalTensor<half> xLocal = inQueueX.DeQue<half>();
    LocalTensor<half> zLocal = outQueueZ.AllocTensor<half>();
    Abs(zLocal, xLocal, tileLength);
    outQueueZ.EnQue(zLocal);
}
```

Use instead:
```cpp
__aicore__ inline void Compute(int32_t progress)
{
    LocalTensor<half> xLocal = inQueueX.DeQue<half>();
    LocalTensor<half> zLocal = outQueueZ.AllocTensor<half>();
    Abs(zLocal, xLocal, tileLength);
    outQueueZ.EnQue(zLocal);
    inQueueX.FreeTensor(xLocal);
}
```

## Fix safety
A missing ``FreeTensor`` of a ``DeQue``'d tensor gets an unsafe fix that frees it at the end of the function
(where the tensor is last used may be earlier). The other findings have no automatic fix.

## References
- Ascend C API: ``TQue``, ``TQueBind::AllocTensor/EnQue/DeQue/FreeTensor`` (``kernel_tpipe.h``)
- CANN: "must use AllocTensor<LocalTensor&> api while tque's depth is zero" (static assertion)
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from tree_sitter import Node

from akgen_lsp.ascendc import syntax
from akgen_lsp.ascendc.context import LintContext
from akgen_lsp.ascendc.includes import project_index
from akgen_lsp.ascendc.kernel_model import (
    Function,
    InitBuffer,
    KernelModel,
    QueueOp,
    identifier_uses,
    kernel_model,
    receiver_base,
)
from akgen_lsp.ascendc.rules import Rule
from akgen_lsp.ascendc.syntax import walk
from akgen_lsp.findings import Edit, Finding, Fix, Severity, Span

CODE = "AKG120"
_ENQUE_RE = re.compile(r"\bEnQue\b")
_RECEIVER_RE = re.compile(r"\b(\w+)\s*(?:\[[^\]\n]*\]\s*)?(?:\.|->)\s*(?:template\s+)?\Z")
_HANDLING = frozenset({"EnQue", "FreeTensor"})


def check(ctx: LintContext) -> Iterator[Finding]:
    model = kernel_model(ctx)
    if not model.queue_ops and not model.init_buffers:
        return
    yield from _depth_zero(ctx, model)
    yield from _tensor_lifetimes(ctx, model)
    yield from _deque_without_enque(ctx, model)
    yield from _buffers_per_position(ctx, model)


def _finding(
    span: Span, message: str, severity: Severity = Severity.ERROR, fixes: tuple[Fix, ...] = ()
) -> Finding:
    return Finding(CODE, message, span, severity, "akgen-lint", "memory", fixes)


# ------------------------------------------------------------------------------------------------ depth 0


def _depth_zero(ctx: LintContext, model: KernelModel) -> Iterator[Finding]:
    for op in model.queue_ops:
        buf = op.buffer
        if (
            op.nargs != 0
            or op.op not in ("AllocTensor", "DeQue")
            or buf is None
            or not buf.is_queue
            or buf.depth != 0
        ):
            continue
        text = f"must use {op.op}<LocalTensor&> api while tque's depth is zero"
        yield _finding(
            ctx.parsed.span(op.name_node),
            f"static assertion failed: {text}: '{buf.name}' is declared with depth 0; give the queue a "
            f"depth of 1, or pass the tensor in: {op.queue}.{op.op}<T>(tensor)",
        )


# ------------------------------------------------------------------------------------------------ tensors


def _tensor_lifetimes(ctx: LintContext, model: KernelModel) -> Iterator[Finding]:
    pf = ctx.parsed
    by_function: dict[int, list[QueueOp]] = {}
    for op in model.queue_ops:
        by_function.setdefault(op.function.node.start_byte, []).append(op)
    for ops in by_function.values():
        fn = ops[0].function
        if fn.body is None:
            continue
        handled = {op.tensor for op in ops if op.op in _HANDLING and op.tensor}
        count: dict[tuple[str, str], int] = {}
        for op in ops:
            count[(op.queue, op.op)] = count.get((op.queue, op.op), 0) + 1
        for op in ops:
            if (
                op.op not in ("AllocTensor", "DeQue")
                or op.nargs != 0
                or op.stored_elsewhere
                or op.tensor is None
            ):
                continue
            if op.buffer is None or not op.buffer.is_queue or op.buffer.depth == 0:
                continue
            name = op.tensor
            if name in handled or _is_member_or_param(model, fn, name) or _escapes(model, fn, name, op):
                continue
            if _hidden_uses(model, fn, name):
                continue
            q = op.queue
            allocs, enques = count.get((q, "AllocTensor"), 0), count.get((q, "EnQue"), 0)
            deques, frees = count.get((q, "DeQue"), 0), count.get((q, "FreeTensor"), 0)
            if op.op == "AllocTensor":
                if enques + frees - deques >= allocs:
                    continue  # a dequeued alias of the allocated tensor may be the one that is freed
                yield _finding(
                    pf.span(op.name_node),
                    f"tensor '{name}' allocated from '{q}' is never enqueued or freed in '{fn.name}'; every "
                    f"AllocTensor needs an EnQue({name}) or a FreeTensor({name}), or the queue runs out of buffers "
                    "and the next AllocTensor hangs",
                    Severity.WARNING,
                )
            else:
                if frees >= deques:
                    continue  # as many frees as dequeues: an alias may be the one freed
                yield _finding(
                    pf.span(op.name_node),
                    f"tensor '{name}' dequeued from '{q}' is never freed in '{fn.name}'; call "
                    f"{q}.FreeTensor({name}) after its last use, or the queue runs out of buffers",
                    Severity.WARNING,
                    _free_fix(ctx, fn, op),
                )


def _free_fix(ctx: LintContext, fn: Function, op: QueueOp) -> tuple[Fix, ...]:
    body = fn.body
    if body is None or body.type != "compound_statement" or not body.named_children:
        return ()
    last = body.named_children[-1]
    if last.type in ("return_statement", "comment"):
        return ()
    pf = ctx.parsed
    end = pf.span(last)
    line_text = pf.line_text(end.line)
    indent = line_text[: len(line_text) - len(line_text.lstrip())]
    at = Span(pf.path, end.end_line, end.end_column, end.end_line, end.end_column)
    return (
        Fix(
            f"Free '{op.tensor}' at the end of '{fn.name}'",
            (Edit(at, f"\n{indent}{op.queue}.FreeTensor({op.tensor});"),),
            safe=False,
        ),
    )


def _is_member_or_param(model: KernelModel, fn: Function, name: str) -> bool:
    if any(p.name == name for p in fn.params):
        return True
    cls = model.classes.get(fn.class_name or "")
    return cls is not None and cls.field_decl(name) is not None and not _declared_locally(model, fn, name)


def _declared_locally(model: KernelModel, fn: Function, name: str) -> bool:
    assert fn.body is not None
    for n in identifier_uses(model.pf, fn.body, name):
        p = n.parent
        if p is not None and (
            p.type == "declaration"
            or (p.type == "init_declarator" and p.child_by_field_id(syntax.F_DECLARATOR) == n)
        ):
            return True
    return False


_STOP = frozenset(
    {
        "expression_statement",
        "compound_statement",
        "if_statement",
        "for_statement",
        "while_statement",
        "condition_clause",
        "declaration",
        "switch_statement",
        "do_statement",
    }
)
_ESCAPE = frozenset(
    {
        "return_statement",
        "lambda_expression",
        "initializer_list",
        "initializer_pair",
        "co_return_statement",
        "throw_statement",
        "assignment_expression",
        "init_declarator",
    }
)


def _escapes(model: KernelModel, fn: Function, name: str, op: QueueOp) -> bool:
    """Whether the tensor is handed on: passed to a function of the file or to another object's method, assigned,
    returned, captured or used in an initialiser."""
    pf = model.pf
    assert fn.body is not None
    for use in identifier_uses(pf, fn.body, name):
        if use == op.tensor_node:
            continue
        node, parent = use, use.parent
        while parent is not None and parent.type not in _STOP:
            if parent.type == "init_declarator" and parent.child_by_field_id(syntax.F_DECLARATOR) == node:
                break  # a redeclaration of the name
            if parent.type in _ESCAPE:
                return True
            if parent.type == "argument_list":
                call = model.call_at(parent.parent) if parent.parent is not None else None
                if call is None:
                    return True
                if call.receiver is not None:
                    if call.short in _HANDLING or receiver_base(pf, call.receiver) == name:
                        break
                    return True
                if call.user_defined:
                    return True
                break  # an Ascend C API call (Add, DataCopy, ...)
            node, parent = parent, parent.parent
    return False


def _hidden_uses(model: KernelModel, fn: Function, name: str) -> bool:
    """Whether the user's text of `fn` names the tensor more often than the tree does (a macro call that the
    syntax layer blanked may hand it on)."""
    assert fn.body is not None
    pattern = re.compile(rb"\b" + re.escape(name.encode()) + rb"\b")
    pf = model.pf
    original = pf.text.encode("utf-8", errors="surrogatepass")[fn.body.start_byte : fn.body.end_byte]
    return len(pattern.findall(original)) > len(
        pattern.findall(pf.data[fn.body.start_byte : fn.body.end_byte])
    )


# ------------------------------------------------------------------------------------------------ DeQue without EnQue


def _escaped_queues(model: KernelModel) -> set[int]:
    """Buffers whose name is used other than as a method receiver or as InitBuffer's first argument (a pointer, a
    reference, an argument to a helper): their protocol is not followed."""
    pf = model.pf
    names = {b.name for b in model.buffers}
    out: set[int] = set()
    for fn in model.functions:
        if fn.body is None:
            continue
        for n in walk(fn.body):
            if n.type not in ("identifier", "field_identifier"):
                continue
            text = pf.node_text(n)
            if text not in names:
                continue
            buf = model.buffer_for(fn, text)
            if buf is not None and not _receiver_or_init_use(model, n):
                out.add(id(buf))
    return out


def _receiver_or_init_use(model: KernelModel, node: Node) -> bool:
    top, parent = node, node.parent
    while parent is not None and (
        (
            parent.type == "field_expression"
            and parent.child_by_field_id(syntax.F_FIELD) == top
            and (a := parent.child_by_field_id(syntax.F_ARGUMENT)) is not None
            and a.type == "this"
        )
        or (parent.type == "subscript_expression" and parent.child_by_field_id(syntax.F_ARGUMENT) == top)
    ):
        top, parent = parent, parent.parent
    if parent is None:
        return False
    if parent.type == "field_expression" and parent.child_by_field_id(syntax.F_ARGUMENT) == top:
        return True  # q.Method(...)
    if parent.type == "argument_list" and parent.parent is not None:
        call = model.call_at(parent.parent)
        return call is not None and call.short == "InitBuffer" and bool(call.args) and call.args[0] == top
    return parent.type in ("declaration", "field_declaration", "init_declarator")  # its own declaration


def _deque_without_enque(ctx: LintContext, model: KernelModel) -> Iterator[Finding]:
    enqueued_names = {op.queue for op in model.queue_ops if op.op == "EnQue"}
    dequeues: dict[int, list[QueueOp]] = {}
    for op in model.queue_ops:
        if (
            op.buffer is not None
            and op.op == "DeQue"
            and op.queue not in enqueued_names
            and op.buffer.is_queue
        ):
            dequeues.setdefault(id(op.buffer), []).append(op)
    if not dequeues:
        return
    if any("EnQue" in (m.body or "") for m in syntax.macros(model.pf).values()):
        return  # a macro enqueues: which queue is not told by the tree
    enqueued_names |= _enqueued_in_text(model.pf.text)  # also in code the syntax layer blanked
    escaped = _escaped_queues(model)
    elsewhere: frozenset[str] | None = None
    for key, ops in dequeues.items():
        buf = ops[0].buffer
        assert buf is not None
        if key in escaped or buf.name in enqueued_names:
            continue
        if elsewhere is None:  # the other files of the kernel: a derived class in another header EnQues it
            index = project_index(ctx.path)
            elsewhere = index.enqueued(Path(ctx.path)) if index is not None else frozenset()
        if buf.name in elsewhere:
            continue
        yield _finding(
            ctx.parsed.span(ops[0].name_node),
            f"DeQue from '{buf.name}', but nothing ever calls {buf.name}.EnQue: the DeQue waits forever; EnQue the "
            "tensor (after AllocTensor and filling it) before this DeQue",
        )


def _enqueued_in_text(text: str) -> set[str]:
    """Receivers of ``.EnQue`` / ``->EnQue`` / ``.template EnQue`` anywhere in the user's text."""
    out = set()
    for m in _ENQUE_RE.finditer(text):
        before = _RECEIVER_RE.search(text, max(0, m.start() - 120), m.start())
        if before is not None:
            out.add(before.group(1))
    return out


# ------------------------------------------------------------------------------------------------ buffers per position


def _buffers_per_position(ctx: LintContext, model: KernelModel) -> Iterator[Finding]:
    limit = ctx.arch.limits.get("buffers_per_position")
    if not limit:
        return
    groups: dict[tuple[int, str, tuple[str, str]], list[InitBuffer]] = {}
    for ib in model.init_buffers:
        buf = ib.buffer
        if buf is None or not buf.is_queue or ib.conditional or buf.position_key is None or buf.is_array:
            continue
        groups.setdefault((ib.function.node.start_byte, ib.pipe, buf.position_key), []).append(ib)
    for (_fid, _pipe, key), group in groups.items():
        if len({id(c.buffer) for c in group}) != len(group):
            continue  # one queue initialised twice: not a plain sum
        # the generic code first, then each instantiation of its class template that the file writes out
        for binding in [None, *model.bindings_for(group[0].function)]:
            calls = [c.under(binding) for c in group]
            if any(c.num is None for c in calls):
                continue
            total = sum(c.num or 0 for c in calls)
            if total <= limit:
                continue
            pos = key[0] if key[0] == key[1] else f"{key[0]}->{key[1]}"
            last = calls[-1]
            where = f" (in {last.function.class_name}<{binding.label()}>)" if binding is not None else ""
            names = ", ".join(f"{c.target}: {c.num}" for c in calls)
            yield _finding(
                ctx.parsed.span(last.node),
                f"current size is {total}, max buffer number in same queue position is {limit}: the {pos} queues "
                f"initialised in '{last.function.name}'{where} take {total} buffers ({names}); each buffer holds one "
                f"of the {limit} hardware events of its position, so the kernel hangs once they are all in use; use "
                "fewer queues or fewer buffers per queue (a TBuf for scratch space)",
                Severity.WARNING,
            )
            break


RULE = Rule(
    CODE,
    "queue-protocol",
    "A queue used out of its AllocTensor/EnQue/DeQue/FreeTensor protocol",
    check,
    region="class",
)
