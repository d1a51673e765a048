"""Function definitions of the file (`functions`, `Function`), the kernel entries among them and the function
around a node."""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass

from tree_sitter import Node

from akgen_lsp.ascendc.syntax.declarations import Declaration, _unwrap_declarator, declarations
from akgen_lsp.ascendc.syntax.grammar import F_BODY, F_DECLARATOR, F_NAME, F_PARAMETERS, F_TYPE
from akgen_lsp.ascendc.syntax.index import _class_around, _index, _text
from akgen_lsp.ascendc.syntax.parsing import ParsedFile
from akgen_lsp.ascendc.syntax.type_names import base_type_name, strip_templates


@dataclass(frozen=True)
class Function:
    """A function definition. `name` is the last name part (``Init``), `qualified` the name as written in the
    declarator without template arguments (``KernelAdd::Init`` out of class, ``Init`` inside), `class_name` the class
    it belongs to (in-class definition or ``Class::`` qualifier), `is_kernel` whether it is a kernel entry
    (``__global__``, or ``extern "C"`` with ``__aicore__``), `template_params` the names of its template parameters
    (and of its class's, for methods defined in a class template)."""

    name: str
    qualified: str
    node: Node
    name_node: Node
    body: Node | None
    params: tuple[Declaration, ...]
    return_type: str
    class_name: str | None
    is_kernel: bool
    template_params: tuple[str, ...] = ()


def _function_name_parts(pf: ParsedFile, fdecl: Node) -> tuple[str, str, Node | None, str | None]:
    """(name, qualified, name node, class qualifier) of a function_declarator."""
    d = fdecl.child_by_field_id(F_DECLARATOR)
    if d is None:
        return "", "", None, None
    qualified = " ".join(strip_templates(pf.node_text(d)).split())
    scope = None
    name_node: Node | None = d
    while name_node is not None and name_node.type == "qualified_identifier":
        name_node = name_node.child_by_field_id(F_NAME)
    if name_node is not None and name_node.type == "template_function":
        name_node = name_node.child_by_field_id(F_NAME)
    if "::" in qualified:
        scope = qualified.rsplit("::", 1)[0]
    name = qualified.rsplit("::", 1)[-1].replace(" ", "")
    return name, qualified.replace(" ", ""), name_node, scope


def _declared_function_names(pf: ParsedFile, node: Node) -> list[str]:
    """Names of the functions a declaration or field declaration only declares (prototypes, method declarations)."""
    out: list[str] = []
    for d in node.children_by_field_id(F_DECLARATOR):
        nm, _i, _p, _r, _s, is_fn = _unwrap_declarator(d)
        if is_fn and nm is not None:
            fn_name, _q, _n, _sc = _function_name_parts(pf, nm)
            if fn_name:
                out.append(fn_name)
    return out


def _template_params(pf: ParsedFile, node: Node) -> tuple[str, ...]:
    """Names of the template parameters of the template_declaration directly around `node` (if any)."""
    p = node.parent
    if p is None or p.type != "template_declaration":
        return ()
    return _params_of_template(pf, p)


def _params_of_template(pf: ParsedFile, p: Node) -> tuple[str, ...]:
    """Names of the template parameters of the template_declaration `p`."""
    plist = p.child_by_field_id(F_PARAMETERS)
    names: list[str] = []
    for c in plist.named_children if plist is not None else ():
        nm = c.child_by_field_id(F_NAME) or c.child_by_field_id(F_DECLARATOR)
        if nm is None:
            ids = [x for x in c.named_children if x.type in ("type_identifier", "identifier")]
            nm = ids[-1] if ids else None
        if nm is not None:
            names.append(pf.node_text(nm).lstrip("."))
    return tuple(names)


def _head_is_kernel(pf: ParsedFile, node: Node, body: Node | None, parent: Node | None) -> bool:
    """Whether the user's text of a function's head (from the end of what precedes it, so that blanked keywords
    before the return type count) marks a kernel entry. `parent` is ``node.parent`` (slow to ask twice)."""
    prev = node.prev_sibling
    start = prev.end_byte if prev is not None else (parent.start_byte if parent is not None else 0)
    end = body.start_byte if body is not None else node.end_byte
    raw = pf.memo.get("original_bytes")
    if raw is None:
        raw = pf.memo["original_bytes"] = pf.text.encode("utf-8", errors="surrogatepass")
    assert isinstance(raw, bytes)
    head = raw[start:end].decode("utf-8", errors="replace")
    if "__global__" in head and re.search(r"\b__global__\b", head):
        return True
    p = parent
    while p is not None and p.type == "declaration_list":
        p = p.parent
    extern_c = (p is not None and p.type == "linkage_specification") or head.lstrip().startswith("extern")
    return extern_c and ("__aicore__" in head or "[aicore]" in head)


def functions(pf: ParsedFile) -> list[Function]:
    """Every function definition in the file, in document order (memoized)."""
    got = pf.memo.get("functions")
    if got is not None:
        return got  # type: ignore[return-value]
    out: list[Function] = []
    class_tparams: dict[int, tuple[str, ...]] = {}  # template parameters of each class around a method
    params_by_fn: dict[tuple[int, int], list[Declaration]] = {}
    for d in declarations(pf):
        if d.kind == "param" and d.scope.type == "function_definition":
            params_by_fn.setdefault((d.scope.start_byte, d.scope.end_byte), []).append(d)
    for node in _index(pf).get("func", ()):
        fdecl = node.child_by_field_id(F_DECLARATOR)
        while fdecl is not None and fdecl.type != "function_declarator":
            inner = fdecl.child_by_field_id(F_DECLARATOR)
            if inner is None:
                named = [c for c in fdecl.named_children if c.type not in ("type_qualifier", "comment")]
                inner = named[0] if named else None
            fdecl = inner
        if fdecl is None:
            continue
        name, qualified, name_node, scope = _function_name_parts(pf, fdecl)
        if not name or name_node is None:
            continue
        cls_node = _class_around(pf, node)
        name_of_cls = cls_node.child_by_field_id(F_NAME) if cls_node is not None else None
        in_class = base_type_name(_text(pf, name_of_cls)) if name_of_cls is not None else None
        class_name = in_class or scope
        body = node.child_by_field_id(F_BODY)
        parent = node.parent
        tparams = (
            _params_of_template(pf, parent)
            if parent is not None and parent.type == "template_declaration"
            else ()
        )
        if cls_node is not None:
            key = cls_node.start_byte
            if key not in class_tparams:
                class_tparams[key] = _template_params(pf, cls_node)
            tparams = tparams + class_tparams[key]
        out.append(
            Function(
                name=name,
                qualified=qualified,
                node=node,
                name_node=name_node,
                body=body,
                params=tuple(params_by_fn.get((node.start_byte, node.end_byte), ())),
                return_type=" ".join(_text(pf, node.child_by_field_id(F_TYPE)).split()),
                class_name=class_name,
                is_kernel=_head_is_kernel(pf, node, body, parent),
                template_params=tparams,
            )
        )
    pf.memo["functions"] = out
    return out


def _functions_by_name(pf: ParsedFile) -> dict[str, Function]:
    got = pf.memo.get("functions_by_name")
    if got is None:
        got = {}
        for f in functions(pf):
            if f.return_type:
                got.setdefault(f.name, f)
        pf.memo["functions_by_name"] = got
    return got  # type: ignore[return-value]


def kernel_entries(pf: ParsedFile) -> list[Function]:
    """The kernel entry functions (``extern "C" __global__ __aicore__ void name(...)``)."""
    return [f for f in functions(pf) if f.is_kernel]


def function_at(pf: ParsedFile, node: Node) -> Function | None:
    """The innermost function definition containing `node`."""
    return _function_at(pf, node.start_byte, node.end_byte)


def _function_at(pf: ParsedFile, start: int, end: int) -> Function | None:
    """`function_at` for the byte range [start, end)."""
    bounds = pf.memo.get("function_bounds")
    if bounds is None:
        fns = functions(pf)
        bounds = pf.memo["function_bounds"] = (
            fns,
            [f.node.start_byte for f in fns],
            [f.node.end_byte for f in fns],
        )
    fns, starts, ends = bounds  # type: ignore[misc]
    i = bisect.bisect_right(starts, start) - 1
    for _ in range(8):  # definitions nest only through local classes: a few steps back are enough
        if i < 0:
            break
        if starts[i] <= start and end <= ends[i]:
            return fns[i]  # type: ignore[no-any-return]
        i -= 1
    return None
