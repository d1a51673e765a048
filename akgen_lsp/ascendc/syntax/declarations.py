"""Declarations: every variable, field and parameter of the file (`declarations`, `Declaration`), by name."""

from __future__ import annotations

from dataclasses import dataclass

from tree_sitter import Node

from akgen_lsp.ascendc.syntax.grammar import (
    F_BODY,
    F_DECLARATOR,
    F_DEFAULT_VALUE,
    F_NAME,
    F_SIZE,
    F_TYPE,
    F_VALUE,
)
from akgen_lsp.ascendc.syntax.index import _class_of_body, _containers, _index, _text, _tree_has_error
from akgen_lsp.ascendc.syntax.parsing import ParsedFile
from akgen_lsp.ascendc.syntax.type_names import _template_arg_texts, base_type_name

_DECLARATOR_WRAPPERS = frozenset(
    {
        "init_declarator",
        "pointer_declarator",
        "reference_declarator",
        "array_declarator",
        "parenthesized_declarator",
        "attributed_declarator",
    }
)
_NAME_TYPES = frozenset({"identifier", "field_identifier", "type_identifier", "namespace_identifier"})


@dataclass(eq=False, slots=True)
class Declaration:
    """One declared name: a variable, a class field or a function parameter.

    `type_text` is the declared type as written (masked text, so without ``__gm__``); `type_name` is that type with
    cv-qualifiers, pointers, references and template arguments removed (``AscendC::TQue``, ``TQue``, ``half``,
    ``auto``); `template_args` are the texts of the type's template arguments (``("QuePosition::VECIN",
    "BUFFER_NUM")``). `kind` is ``local``, ``param``, ``field`` or ``global``. `node` is the whole declaration,
    `name_node` the declared identifier; `scope` is the node whose extent the name is visible in (a block, a
    function, a class body, a namespace body or the file) and `owner` the class name for fields. `init` is the
    initializer (or a field's default member initializer), `array_size` the size expression of ``T x[N]``.
    """

    name: str
    type_text: str
    type_name: str
    template_args: tuple[str, ...]
    kind: str
    node: Node
    name_node: Node
    scope: Node
    init: Node | None = None
    is_const: bool = False
    is_constexpr: bool = False
    is_static: bool = False
    is_pointer: bool = False
    is_reference: bool = False
    array_size: Node | None = None
    owner: str | None = None

    @property
    def start(self) -> int:
        return self.name_node.start_byte


def _unwrap_declarator(node: Node | None) -> tuple[Node | None, Node | None, bool, bool, Node | None, bool]:
    """(name node, init value, is_pointer, is_reference, array size, is_function) of a declarator."""
    init = None
    ptr = ref = False
    size = None
    while node is not None and node.type in _DECLARATOR_WRAPPERS:
        if node.type == "init_declarator":
            init = node.child_by_field_id(F_VALUE)
        elif node.type == "pointer_declarator":
            ptr = True
        elif node.type == "reference_declarator":
            ref = True
        elif node.type == "array_declarator":
            size = size or node.child_by_field_id(F_SIZE)
        inner = node.child_by_field_id(F_DECLARATOR)
        if inner is None:  # reference_declarator has no field name
            named = [c for c in node.named_children if c.type not in ("type_qualifier", "comment")]
            inner = named[0] if named else None
        node = inner
    if node is None:
        return None, init, ptr, ref, size, False
    if node.type == "function_declarator":
        return node, init, ptr, ref, size, True
    if node.type in _NAME_TYPES:
        return node, init, ptr, ref, size, False
    if node.type == "qualified_identifier":
        name = node.child_by_field_id(F_NAME)
        while name is not None and name.type == "qualified_identifier":
            name = name.child_by_field_id(F_NAME)
        return name, init, ptr, ref, size, False
    return None, init, ptr, ref, size, False


def _qualifiers(pf: ParsedFile, node: Node) -> tuple[bool, bool, bool]:
    const = constexpr = static = False
    data, start, end = pf.data, node.start_byte, node.end_byte
    if data.find(b"const", start, end) < 0 and data.find(b"static", start, end) < 0:
        return const, constexpr, static  # no child can be one of the words below
    for c in node.children:
        if c.type == "type_qualifier":
            t = pf.node_text(c)
            const |= t == "const"
            constexpr |= t in ("constexpr", "consteval", "constinit")
        elif c.type == "storage_class_specifier":
            static |= pf.node_text(c) == "static"
    return const, constexpr, static


def _enclosing_class_name(pf: ParsedFile, node: Node) -> str | None:
    body = _containers(pf, "class_body").around(node)
    if body is None:
        return None
    names = pf.memo.get("class_name_of_body")
    if names is None:
        names = pf.memo["class_name_of_body"] = {}
    assert isinstance(names, dict)
    key = body.start_byte
    if key not in names:
        cls = _class_of_body(pf).get(key)
        name = cls.child_by_field_id(F_NAME) if cls is not None else None
        names[key] = base_type_name(_text(pf, name)) if name is not None else None
    return names[key]  # type: ignore[no-any-return]


def declarations(pf: ParsedFile) -> list[Declaration]:
    """Every variable, field and parameter declared in the file, in document order (memoized)."""
    got = pf.memo.get("declarations")
    if got is not None:
        return got  # type: ignore[return-value]
    idx = _index(pf)
    out: list[Declaration] = []
    data = pf.data
    scopes = _containers(pf, "scope")
    funcs = _containers(pf, "func")
    exact_tokens = not _tree_has_error(pf)
    starts: list[int] = []  # each declaration's name start (`Declaration.start`), to sort by
    body_start: dict[int, int] = {}  # start of each function's body (-1: none) by the function's start
    of_type: dict[str, tuple[str, tuple[str, ...]]] = {}  # type text -> (type name, template argument texts)
    for cap, kind_default in (("decl", ""), ("field", "field"), ("param", "param")):
        for node in idx.get(cap, ()):
            type_node = node.child_by_field_id(F_TYPE)
            if type_node is None:
                continue
            # the declared names first: a declaration of functions only (a prototype, a method) declares no variable
            named = []
            for d in node.children_by_field_id(F_DECLARATOR):
                name_node, init, ptr, ref, size, is_fn = _unwrap_declarator(d)
                if name_node is not None and not is_fn:
                    named.append((name_node, init, ptr, ref, size))
            if not named:
                continue
            if kind_default == "param":
                # parameters are visible in the function body: scope is the function definition (or lambda)
                owner_fn = funcs.around(node)
                if owner_fn is None:
                    continue
                fn_start = owner_fn.start_byte
                at = body_start.get(fn_start)
                if at is None:
                    owner_body = owner_fn.child_by_field_id(F_BODY)
                    at = body_start[fn_start] = owner_body.start_byte if owner_body is not None else -1
                if at < 0 or node.start_byte >= at:
                    continue  # a parameter of a declaration or function pointer type: not visible anywhere
                scope = owner_fn
                kind = "param"
            else:
                found = scopes.around(node)
                scope = outer = found if found is not None else pf.root
                while outer.type == "template_declaration":
                    found = scopes.around(outer)
                    outer = found if found is not None else pf.root
                if kind_default:
                    kind = kind_default
                elif outer.type in ("translation_unit", "declaration_list"):
                    kind = "global"
                else:
                    kind = "local"
            type_text = " ".join(
                data[type_node.start_byte : type_node.end_byte].decode("utf-8", errors="replace").split()
            )
            const, constexpr, static = _qualifiers(pf, node)
            owner = _enclosing_class_name(pf, node) if kind == "field" else None
            # a type written the same way has the same name and arguments: read once per spelling (most repeat)
            known = of_type.get(type_text)
            if known is None:
                known = of_type[type_text] = (base_type_name(type_text), _template_arg_texts(pf, type_node))
            tname, targs = known
            default_value = node.child_by_field_id(F_DEFAULT_VALUE)
            pointer_type = "*" in type_text
            node_start, node_end = node.start_byte, node.end_byte
            for name_node, init, ptr, ref, size in named:
                if init is None and default_value is not None:
                    init = default_value
                if (
                    kind == "field"
                    and init is None
                    and (not exact_tokens or data.find(b"{", node_start, node_end) >= 0)
                ):
                    # (an initializer_list starts with "{")
                    init = next((c for c in node.named_children if c.type == "initializer_list"), None)
                starts.append(name_node.start_byte)
                out.append(
                    Declaration(
                        data[name_node.start_byte : name_node.end_byte].decode("utf-8", errors="replace"),
                        type_text,
                        tname,
                        targs,
                        kind,
                        node,
                        name_node,
                        scope,
                        init,
                        const or constexpr,
                        constexpr,
                        static,
                        ptr or pointer_type,
                        ref,
                        size,
                        owner,
                    )
                )
    # range-for loop variables: `for (auto& x : xs)`
    for node in idx.get("range_for", ()):
        type_node = node.child_by_field_id(F_TYPE)
        name_node, _init, ptr, ref, size, _fn = _unwrap_declarator(node.child_by_field_id(F_DECLARATOR))
        if type_node is None or name_node is None:
            continue
        type_text = " ".join(_text(pf, type_node).split())
        starts.append(name_node.start_byte)
        out.append(
            Declaration(
                pf.node_text(name_node),
                type_text,
                base_type_name(type_text),
                _template_arg_texts(pf, type_node),
                "local",
                node,
                name_node,
                node,
                None,
                is_pointer=ptr,
                is_reference=ref,
            )
        )
    # by `Declaration.start`, stably, without reading the offsets back from the nodes
    out = [out[i] for i in sorted(range(len(out)), key=starts.__getitem__)]
    pf.memo["declarations"] = out
    return out


def _declarations_by_name(pf: ParsedFile) -> dict[str, list[Declaration]]:
    got = pf.memo.get("declarations_by_name")
    if got is None:
        got = {}
        for d in declarations(pf):
            got.setdefault(d.name, []).append(d)
        pf.memo["declarations_by_name"] = got
    return got  # type: ignore[return-value]


def _starts_by_name(pf: ParsedFile, name: str) -> list[int]:
    table = pf.memo.get("decl_starts")
    if table is None:
        table = pf.memo["decl_starts"] = {}
    assert isinstance(table, dict)
    got = table.get(name)
    if got is None:
        got = table[name] = [d.start for d in _declarations_by_name(pf).get(name, ())]
    return got  # type: ignore[no-any-return]
