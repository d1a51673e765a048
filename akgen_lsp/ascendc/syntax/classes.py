"""Classes, structs and unions of the file with a body (`classes`, `ClassInfo`: fields, methods, bases), by name
and around a node."""

from __future__ import annotations

from dataclasses import dataclass, field

from tree_sitter import Node

from akgen_lsp.ascendc.syntax.declarations import (
    Declaration,
    _enclosing_class_name,
    declarations,
)
from akgen_lsp.ascendc.syntax.functions import (
    Function,
    _declared_function_names,
    _template_params,
    function_at,
    functions,
)
from akgen_lsp.ascendc.syntax.grammar import F_BODY, F_NAME
from akgen_lsp.ascendc.syntax.index import _containers, _index, _text
from akgen_lsp.ascendc.syntax.parsing import ParsedFile
from akgen_lsp.ascendc.syntax.type_names import base_type_name


@dataclass(frozen=True)
class ClassInfo:
    """A class, struct or union defined in the file (with a body). `fields` are its data members, `methods` the
    functions defined inside it or out of line with its name as qualifier, `method_decls` the names of the methods
    only declared in it, `bases` the base class texts (templates stripped), `template_params` its template
    parameters' names, `node` the class_specifier / struct_specifier."""

    name: str
    kind: str
    node: Node
    name_node: Node | None
    bases: tuple[str, ...]
    fields: tuple[Declaration, ...]
    methods: tuple[Function, ...]
    method_decls: tuple[str, ...]
    template_params: tuple[str, ...] = ()
    _field_index: dict[str, Declaration] = field(default_factory=dict, repr=False, compare=False, hash=False)

    def field(self, name: str) -> Declaration | None:
        index = self._field_index
        if not index and self.fields:
            for f in self.fields:
                index.setdefault(f.name, f)
        return index.get(name)

    def method(self, name: str) -> Function | None:
        return next((m for m in self.methods if m.name == name), None)


def classes(pf: ParsedFile) -> list[ClassInfo]:
    """Every class, struct and union with a body, in document order (memoized)."""
    got = pf.memo.get("classes")
    if got is not None:
        return got  # type: ignore[return-value]
    fields_by_owner: dict[tuple[int, int], list[Declaration]] = {}
    for d in declarations(pf):
        if d.kind == "field":
            body = _containers(pf, "class_body").around(d.node)
            if body is not None:
                fields_by_owner.setdefault((body.start_byte, body.end_byte), []).append(d)
    methods_by_class: dict[str, list[Function]] = {}
    for f in functions(pf):
        if f.class_name:
            methods_by_class.setdefault(f.class_name.rsplit("::", 1)[-1], []).append(f)
    out: list[ClassInfo] = []
    for node in _index(pf).get("class", ()):
        body = node.child_by_field_id(F_BODY)
        if body is None:
            continue
        name_node = node.child_by_field_id(F_NAME)
        name = base_type_name(_text(pf, name_node)) if name_node is not None else ""
        bases: list[str] = []
        for c in node.named_children:
            if c.type == "base_class_clause":
                for b in c.named_children:
                    if b.type not in ("access_specifier", "comment"):
                        t = base_type_name(pf.node_text(b))
                        if t and t not in ("public", "private", "protected", "virtual"):
                            bases.append(t)
        method_decls = []
        for c in body.named_children:
            if c.type == "field_declaration":
                method_decls.extend(_declared_function_names(pf, c))
        short = name.rsplit("::", 1)[-1]
        out.append(
            ClassInfo(
                name=name,
                kind=node.type.split("_")[0],
                node=node,
                name_node=name_node,
                bases=tuple(bases),
                fields=tuple(fields_by_owner.get((body.start_byte, body.end_byte), ())),
                methods=tuple(
                    m
                    for m in methods_by_class.get(short, ())
                    if node.start_byte <= m.node.start_byte < node.end_byte
                    or (
                        not (node.start_byte <= m.node.start_byte < node.end_byte)
                        and m.qualified.count("::") >= 1
                    )
                ),
                method_decls=tuple(method_decls),
                template_params=_template_params(pf, node),
            )
        )
    pf.memo["classes"] = out
    return out


def class_named(pf: ParsedFile, name: str) -> ClassInfo | None:
    """The class of the file with this name (last name part compared; the first definition wins)."""
    asked = pf.memo.get("class_named")
    if asked is None:
        asked = pf.memo["class_named"] = {}
    assert isinstance(asked, dict)
    if name in asked:
        return asked[name]  # type: ignore[no-any-return]
    table = pf.memo.get("classes_by_name")
    if table is None:
        table = {}
        for c in classes(pf):
            table.setdefault(c.name.rsplit("::", 1)[-1], c)
        pf.memo["classes_by_name"] = table
    assert isinstance(table, dict)
    got = asked[name] = table.get(base_type_name(name).rsplit("::", 1)[-1])
    return got


def class_at(pf: ParsedFile, node: Node) -> ClassInfo | None:
    """The class whose body or one of whose methods contains `node`."""
    return _class_at(pf, node, function_at(pf, node))


def _class_at(pf: ParsedFile, node: Node, fn: Function | None) -> ClassInfo | None:
    """`class_at` when the function around `node` is known already."""
    if fn is not None and fn.class_name:
        return class_named(pf, fn.class_name)
    name = _enclosing_class_name(pf, node)
    return class_named(pf, name) if name else None
