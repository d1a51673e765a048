"""What the function bodies do with queues and tensors: the ``InitBuffer`` calls and queue operations of each function
(`_scan_calls`), where a call's result goes, and the tensor class and element type of an expression."""

from __future__ import annotations

import re

from tree_sitter import Node

from akgen_lsp.ascendc import syntax
from akgen_lsp.ascendc.kernel_model.values import (
    _WORD_RE,
    QUEUE_OPS,
    TENSOR_CLASSES,
    Binding,
    Function,
    InitBuffer,
    KernelModel,
    QueueOp,
)
from akgen_lsp.ascendc.syntax import ParsedFile, const_eval, walk


def is_conditional(node: Node, stop: Node) -> bool:
    """Whether the call `node` may not run every time its function body `stop` runs: true unless it is a statement
    of the body itself (a call nested in a branch, a loop, a block or an expression counts as conditional; asking
    tree-sitter for parents is slow, so it looks two levels up only)."""
    statement = node.parent
    return not (
        statement is not None and statement.type == "expression_statement" and statement.parent == stop
    )


def receiver_base(pf: ParsedFile, node: Node | None) -> str | None:
    """The object's name in ``q``, ``this->q``, ``q[i]``, ``(q)``; None for anything else."""
    while node is not None:
        if node.type in ("identifier", "field_identifier"):
            return pf.node_text(node)
        if node.type == "field_expression":
            arg = node.child_by_field_id(syntax.F_ARGUMENT)
            if arg is not None and arg.type == "this":
                node = node.child_by_field_id(syntax.F_FIELD)
                continue
            return None
        if node.type == "subscript_expression":
            node = node.child_by_field_id(syntax.F_ARGUMENT)
            continue
        if node.type == "parenthesized_expression" and node.named_child_count == 1:
            node = node.named_children[0]
            continue
        return None
    return None


def _tensor_target(pf: ParsedFile, call: Node) -> tuple[str | None, Node | None, bool]:
    """Where a call's result goes: (variable name, its node, stored elsewhere)."""
    p = call.parent
    while p is not None and p.type in ("parenthesized_expression", "cast_expression"):
        p = p.parent
    if p is None:
        return None, None, True
    if p.type == "init_declarator":
        d = p.child_by_field_id(syntax.F_DECLARATOR)
        if d is not None and d.type == "identifier":
            return pf.node_text(d), d, False
    if p.type == "assignment_expression":
        left = p.child_by_field_id(syntax.F_LEFT)
        if left is not None and left.type == "identifier":
            return pf.node_text(left), left, False
        return None, None, True
    if p.type == "expression_statement":
        return None, None, False  # the result is dropped
    return None, None, True


def _scan_calls(model: KernelModel, fn: Function) -> None:
    pf = model.pf
    assert fn.body is not None
    for c in model.calls_in(fn):
        if c.receiver is None or (c.short != "InitBuffer" and c.short not in QUEUE_OPS):
            continue
        if c.short == "InitBuffer" and len(c.args) in (2, 3):
            target = receiver_base(pf, c.args[0])
            buf = model.buffer_for(fn, target) if target else None
            model.init_buffers.append(
                InitBuffer(
                    call=c,
                    function=fn,
                    pipe=" ".join(pf.node_text(c.receiver).split()),
                    target=target or pf.node_text(c.args[0]),
                    buffer=buf,
                    conditional=is_conditional(c.node, fn.body) or model.in_preprocessor_branch(c.node),
                    model=model,
                )
            )
        elif c.short in QUEUE_OPS:
            qname = receiver_base(pf, c.receiver)
            if qname is None:
                continue
            buf = model.buffer_for(fn, qname)
            tensor: str | None = None
            tnode: Node | None = None
            escaped = False
            if c.short in ("AllocTensor", "DeQue"):
                tensor, tnode, escaped = _tensor_target(pf, c.node)
            elif c.args:
                if c.args[0].type == "identifier":
                    tensor, tnode = pf.node_text(c.args[0]), c.args[0]
                else:
                    escaped = True
            model.queue_ops.append(QueueOp(c.short, c, fn, qname, buf, tensor, tnode, escaped))


def identifier_uses(pf: ParsedFile, root: Node, name: str) -> list[Node]:
    """The identifier nodes spelled `name` under `root`."""
    raw = name.encode()
    return [n for n in walk(root) if n.type == "identifier" and pf.data[n.start_byte : n.end_byte] == raw]


def tensor_info(model: KernelModel, expr: Node, binding: Binding | None = None) -> tuple[str, str] | None:
    """(``LocalTensor`` or ``GlobalTensor``, element type text) of a tensor expression (``x``, ``xGm[off]``,
    ``this->x``) from its declaration, when the file says; else None. A template parameter as element type is
    replaced by its type in `binding`."""
    info = _tensor_info(model, expr)
    if info is None or binding is None:
        return info
    return info[0], binding.type_map.get(info[1], info[1])


def _tensor_info(model: KernelModel, expr: Node) -> tuple[str, str] | None:
    pf = model.pf
    name = receiver_base(pf, expr)
    if name is None:
        return None
    d = syntax.lookup(pf, name, expr)
    if d is None:
        return None
    kind = d.type_name.rsplit("::", 1)[-1]
    if kind in TENSOR_CLASSES:
        return (kind, d.template_args[0]) if d.template_args else None
    if kind == "auto" and d.init is not None and d.init.type == "call_expression":
        fnode = d.init.child_by_field_id(syntax.F_FUNCTION)
        if fnode is None:
            return None
        short = _last_name(pf, fnode)
        if short in ("AllocTensor", "DeQue", "Get", "GetWithOffset"):
            targs = next((n for n in walk(fnode) if n.type == "template_argument_list"), None)
            if targs is not None and targs.named_children:
                return "LocalTensor", " ".join(pf.node_text(targs.named_children[0]).split())
    return None


def _last_name(pf: ParsedFile, fnode: Node) -> str:
    text = syntax.strip_templates(pf.node_text(fnode))
    return re.split(r"\.|->|::", text.replace(" ", ""))[-1]


def type_size(pf: ParsedFile, type_text: str | None) -> int | None:
    """sizeof of a scalar element type (``half`` 2, ``float`` 4, aliases of the file followed); None if unknown."""
    if not type_text or not _WORD_RE.match(type_text.strip()):
        return None
    return const_eval(f"sizeof({type_text})", pf)
