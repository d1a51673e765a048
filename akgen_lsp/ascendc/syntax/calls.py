"""Call resolution: every named call of the file (`calls`, `Call`) with its callee, receiver, the receiver's class
and the catalog name it resolves to; `expr_type` types an expression the same way."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tree_sitter import Node

from akgen_lsp.ascendc.syntax.ascendc_types import ASCENDC, _ascendc_scopes, ascendc_visible_at, qualify_type
from akgen_lsp.ascendc.syntax.classes import class_at, class_named
from akgen_lsp.ascendc.syntax.declarations import Declaration
from akgen_lsp.ascendc.syntax.functions import _function_at, _functions_by_name
from akgen_lsp.ascendc.syntax.grammar import (
    F_ARGUMENT,
    F_ARGUMENTS,
    F_FIELD,
    F_FUNCTION,
    F_NAME,
    F_OPERATOR,
    F_SCOPE,
)
from akgen_lsp.ascendc.syntax.index import _index, _named_children_without_comments
from akgen_lsp.ascendc.syntax.names import lookup, user_defined_names
from akgen_lsp.ascendc.syntax.parsing import ParsedFile
from akgen_lsp.ascendc.syntax.type_names import _template_arg_texts, base_type_name, strip_templates
from akgen_lsp.findings import Span

if TYPE_CHECKING:
    from akgen_lsp.ascendc.catalog import Catalog


# what the core methods return when the catalog does not say (it is filled concurrently): short name -> class
_RETURNS_FALLBACK = {
    "AllocTensor": "AscendC::LocalTensor",
    "DeQue": "AscendC::LocalTensor",
    "Get": "AscendC::LocalTensor",
    "GetWithOffset": "AscendC::LocalTensor",
    "GetTPipePtr": "AscendC::TPipe",
}
_SAME_AS_RECEIVER = frozenset({"ReinterpretCast", "operator[]"})


@dataclass(eq=False, slots=True)
class Call:
    """One call expression with a named callee.

    `text` is the callee as written without template arguments and spaces (``AscendC::DataCopy``, ``DataCopy``,
    ``inQueueX.AllocTensor``, ``GetTPipePtr()->FetchEventID``); `short` its last name part; `qualifier` the
    ``::`` scope it was written with (``AscendC``, ``AscendC::TQue``) or None; `receiver` the object node of a
    member call; `receiver_type` the object's class with templates stripped and the namespace resolved
    (``AscendC::TQue``, ``AscendC::LocalTensor``, a class of the file by its name) when known; `resolved` the
    catalog name the call resolves to (``AscendC::DataCopy``, ``AscendC::TQueBind::AllocTensor``) or None;
    `user_defined` whether the callee name is defined in the file (a function, class, macro...); `ascendc_visible`
    whether an unqualified name here can reach namespace AscendC (``using namespace AscendC`` or inside
    ``namespace AscendC``); `args` the argument nodes; `template_args` the texts of the explicit template arguments;
    `name_node` / `name_span` the callee's last name part; `in_function` the enclosing function_definition node.
    """

    node: Node
    text: str
    short: str
    qualifier: str | None
    receiver: Node | None
    receiver_type: str | None
    resolved: str | None
    args: tuple[Node, ...]
    template_args: tuple[str, ...]
    name_node: Node
    in_function: Node | None
    user_defined: bool = False
    ascendc_visible: bool = False
    arrow: bool = False
    pf: ParsedFile | None = field(default=None, repr=False)

    @property
    def is_member(self) -> bool:
        return self.receiver is not None

    @property
    def name_span(self) -> Span:
        """The span of the callee's last name part (``DataCopy`` in ``AscendC::DataCopy<half>(...)``)."""
        assert self.pf is not None
        return self.pf.span(self.name_node)


def _callee_parts(
    pf: ParsedFile, fn: Node
) -> tuple[str, str, str | None, Node | None, Node | None, tuple[str, ...], bool] | None:
    """(text, short, qualifier, receiver, name node, template args, arrow) of a callee, or None (not a name)."""
    receiver = None
    arrow = False
    qualifier: str | None = None
    node = fn
    fn_type = node.type
    if fn_type == "field_expression":
        receiver = node.child_by_field_id(F_ARGUMENT)
        op = node.child_by_field_id(F_OPERATOR)
        arrow = op is not None and pf.data[op.start_byte : op.end_byte] == b"->"
        node = node.child_by_field_id(F_FIELD)
        if node is not None and node.type == "dependent_name":
            node = node.named_children[0] if node.named_child_count else None
        if node is None:
            return None
    elif fn_type == "qualified_identifier":
        scopes: list[str] = []
        while node is not None and node.type == "qualified_identifier":
            sc = node.child_by_field_id(F_SCOPE)
            if sc is not None:
                scopes.append(strip_templates(pf.node_text(sc)).replace(" ", ""))
            node = node.child_by_field_id(F_NAME)
        if node is None:
            return None
        qualifier = "::".join(scopes) if scopes else ""
        if node.type == "dependent_name":
            node = node.named_children[0] if node.named_child_count else None
            if node is None:
                return None
    targs: tuple[str, ...] = ()
    node_type = node.type
    if node_type in ("template_function", "template_method"):
        targs = _template_arg_texts(pf, node.child_by_field_id(F_ARGUMENTS))
        node = node.child_by_field_id(F_NAME)
        if node is None:
            return None
        node_type = node.type
    if node_type not in (
        "identifier",
        "field_identifier",
        "type_identifier",
        "destructor_name",
        "operator_name",
    ):
        return None
    short = pf.node_text(node)
    if receiver is not None:
        text = " ".join(strip_templates(pf.node_text(fn)).split()).replace(" ", "")
    elif qualifier is not None:
        text = f"{qualifier}::{short}" if qualifier else f"::{short}"
    else:
        text = short
    return text, short, qualifier, receiver, node, targs, arrow


def expr_type(pf: ParsedFile, catalog: Catalog | None, node: Node | None, depth: int = 0) -> str | None:
    """The class of the value of an expression (templates stripped, namespace resolved) when it can be told from
    the file: declared types of variables, fields and parameters, ``auto`` initializers, what catalog methods
    return, ``this``, ``*p``, ``x[i]`` on tensors and ``GetTPipePtr()``."""
    if node is None or depth > 12:
        return None
    t = node.type
    if t in ("identifier", "field_identifier"):
        d = lookup(pf, pf.node_text(node), node)
        return _decl_type(pf, catalog, d, depth)
    if t == "this":
        cls = class_at(pf, node)
        return cls.name if cls is not None else None
    if t == "parenthesized_expression":
        inner = [c for c in node.named_children if c.type != "comment"]
        return expr_type(pf, catalog, inner[0], depth + 1) if inner else None
    if t == "pointer_expression":
        return expr_type(pf, catalog, node.child_by_field_id(F_ARGUMENT), depth + 1)
    if t == "subscript_expression":
        base = expr_type(pf, catalog, node.child_by_field_id(F_ARGUMENT), depth + 1)
        if base in ("AscendC::LocalTensor", "AscendC::GlobalTensor"):
            return base
        # an array of objects: `LocalTensor<T> xs[4]; xs[i]`
        arg = node.child_by_field_id(F_ARGUMENT)
        if arg is not None and arg.type == "identifier":
            d = lookup(pf, pf.node_text(arg), arg)
            if d is not None and d.array_size is not None:
                return _decl_type(pf, catalog, d, depth)
        return None
    if t == "field_expression":
        obj = node.child_by_field_id(F_ARGUMENT)
        fld = node.child_by_field_id(F_FIELD)
        if obj is None or fld is None:
            return None
        if obj.type == "this":
            cls = class_at(pf, node)
        else:
            owner = expr_type(pf, catalog, obj, depth + 1)
            cls = class_named(pf, owner) if owner and not owner.startswith(ASCENDC + "::") else None
        seen: set[str] = set()
        while cls is not None and cls.name not in seen:
            seen.add(cls.name)
            f = cls.field(pf.node_text(fld))
            if f is not None:
                return _decl_type(pf, catalog, f, depth)
            cls = next((c for c in (class_named(pf, b) for b in cls.bases) if c is not None), None)
        return None
    if t == "call_expression":
        fn = node.child_by_field_id(F_FUNCTION)
        if fn is None:
            return None
        parts = _callee_parts(pf, fn)
        if parts is None:
            return None
        _t, short, qualifier, receiver, _nn, _targs, _arrow = parts
        recv_type = expr_type(pf, catalog, receiver, depth + 1) if receiver is not None else None
        if short in _SAME_AS_RECEIVER and recv_type:
            return recv_type
        resolved = _resolve(pf, catalog, short, qualifier, recv_type, node)
        entry = catalog.get(resolved) if (catalog is not None and resolved) else None
        if entry is not None and entry.kind == "class":
            return entry.name  # a constructor call `TQue<...>()`
        if entry is not None and entry.overloads:
            ret = base_type_name(entry.overloads[0].returns)
            if ret and ret not in ("void", "auto", "T", "U"):
                return qualify_type(pf, catalog, ret if "::" in ret else f"{ASCENDC}::{ret}", None, depth + 1)
        if short in _RETURNS_FALLBACK and (
            (recv_type or "").startswith(ASCENDC + "::")
            or (
                receiver is None
                and short == "GetTPipePtr"
                and _reaches_ascendc(pf, qualifier, node)
                and short not in user_defined_names(pf)
            )
        ):
            return _RETURNS_FALLBACK[short]
        fn_def = _functions_by_name(pf).get(short)
        if fn_def is not None and receiver is None:
            r = fn_def.return_type
            return (
                None
                if base_type_name(r) in ("auto", "void")
                else qualify_type(pf, catalog, r, node, depth + 1)
            )
        if receiver is None and class_named(pf, short) is not None:
            return class_named(pf, short).name  # type: ignore[union-attr]
        return None
    if t in ("template_function", "qualified_identifier"):
        return None
    return None


def _decl_type(pf: ParsedFile, catalog: Catalog | None, d: Declaration | None, depth: int) -> str | None:
    if d is None:
        return None
    table = pf.memo.get("decl_type")
    if table is None:
        table = pf.memo["decl_type"] = {}
    assert isinstance(table, dict)
    key = (
        id(d),
        depth,
        id(catalog),
    )  # declarations live as long as `pf`, the catalog as long as the caller's lint
    if key in table:
        return table[key]  # type: ignore[no-any-return]
    got = table[key] = _decl_type_uncached(pf, catalog, d, depth)
    return got


def _decl_type_uncached(pf: ParsedFile, catalog: Catalog | None, d: Declaration, depth: int) -> str | None:
    if d.type_name in ("auto", "decltype(auto)") or d.type_name.startswith("decltype"):
        if d.init is None:
            return None
        init = d.init
        if init.type == "initializer_list" or init.type == "argument_list":
            return None
        return expr_type(pf, catalog, init, depth + 1)
    return qualify_type(pf, catalog, d.type_name, d.name_node, depth + 1)


def _reaches_ascendc(pf: ParsedFile, qualifier: str | None, at: Node) -> bool:
    """Whether a free name written with `qualifier` (None: unqualified; "": ``::name``) is in the API: qualified
    with ``AscendC::``, global (``::GetTPipePtr``), or unqualified where AscendC is visible."""
    if qualifier is not None:
        return qualifier == "" or qualifier.split("::")[0] == ASCENDC
    return True  # unqualified: the global API names (GetTPipePtr) are reachable everywhere


def _resolve(
    pf: ParsedFile,
    catalog: Catalog | None,
    short: str,
    qualifier: str | None,
    recv_type: str | None,
    at: Node,
    visible: bool | None = None,
) -> str | None:
    if catalog is None:
        return None
    if recv_type is not None:
        members = pf.memo.get(("members", id(catalog)))
        if members is None:
            members = pf.memo[("members", id(catalog))] = {}
        assert isinstance(members, dict)
        key = (recv_type, short)
        if key not in members:  # the same method of the same class is called many times in a file
            e = catalog.member(recv_type, short) if recv_type in catalog else None
            members[key] = e.name if e is not None else None
        return members[key]  # type: ignore[no-any-return]
    if qualifier is not None:
        if not qualifier:  # ::Name, a global
            return short if short in catalog else None
        q = qualify_type(pf, catalog, qualifier, at)
        if q in catalog and catalog.get(q).kind == "class":  # type: ignore[union-attr]
            e = catalog.member(q, short)
            return e.name if e is not None else None
        name = f"{q}::{short}"
        return name if name in catalog else None
    if short in user_defined_names(pf):
        return None
    if visible if visible is not None else ascendc_visible_at(pf, at):
        name = f"{ASCENDC}::{short}"
        if name in catalog:
            return name
    return short if short in catalog else None  # global names of the API (GetTPipePtr, the tiling macros)


def calls(pf: ParsedFile, catalog: Catalog | None = None) -> list[Call]:
    """Every call with a named callee, in document order, resolved against `catalog` (memoized per file and
    catalog)."""
    key = ("calls", id(catalog))
    got = pf.memo.get(key)
    if got is not None:
        return got  # type: ignore[return-value]
    user = user_defined_names(pf)
    scopes = _ascendc_scopes(pf)  # as in `ascendc_visible_at`
    out: list[Call] = []
    for node in _index(pf).get("call", ()):
        fn = node.child_by_field_id(F_FUNCTION)
        if fn is None:
            continue
        parts = _callee_parts(pf, fn)
        if parts is None:
            continue
        text, short, qualifier, receiver, name_node, targs, arrow = parts
        if name_node is None:
            continue
        recv_type = expr_type(pf, catalog, receiver) if receiver is not None else None
        start, end = node.start_byte, node.end_byte
        visible = any(a <= start < b for a, b in scopes) if scopes else False
        resolved = _resolve(pf, catalog, short, qualifier, recv_type, node, visible)
        args_node = node.child_by_field_id(F_ARGUMENTS)
        args = _named_children_without_comments(pf, args_node) if args_node is not None else ()
        fdef = _function_at(pf, start, end)
        out.append(
            Call(
                node=node,
                text=text,
                short=short,
                qualifier=qualifier,
                receiver=receiver,
                receiver_type=recv_type,
                resolved=resolved,
                args=args,
                template_args=targs,
                name_node=name_node,
                in_function=fdef.node if fdef is not None else None,
                user_defined=receiver is None and (qualifier is None or qualifier == "") and short in user,
                ascendc_visible=visible,
                arrow=arrow,
                pf=pf,
            )
        )
    pf.memo[key] = out
    return out
