"""Names as the file writes them: every outermost ``A::B::C`` name with its role (`qualified_refs`,
`QualifiedRef`), the names used as types (`type_name_nodes`) and the operands of ``sizeof`` (`sizeof_operands`)."""

from __future__ import annotations

from dataclasses import dataclass

from tree_sitter import Node

from akgen_lsp.ascendc.syntax.grammar import F_FUNCTION, F_NAME, F_SCOPE, F_TYPE, F_VALUE
from akgen_lsp.ascendc.syntax.index import _index
from akgen_lsp.ascendc.syntax.parsing import ParsedFile


@dataclass(frozen=True)
class QualifiedRef:
    """One outermost ``A::B::C`` name as written. `parts` are the name parts without template arguments
    (``("AscendC", "HardEvent", "V_S")``), `part_nodes` their nodes; `role` is what the last part is used as:
    ``call`` (the callee of a call), ``template`` (a template name, ``AscendC::LocalTensor<half>``), ``type``
    or ``value``."""

    node: Node
    parts: tuple[str, ...]
    part_nodes: tuple[Node, ...]
    role: str

    @property
    def text(self) -> str:
        return "::".join(self.parts)


def qualified_refs(pf: ParsedFile) -> list[QualifiedRef]:
    """Every outermost qualified name of the file, in document order (memoized)."""
    got = pf.memo.get("qualified_refs")
    if got is not None:
        return got  # type: ignore[return-value]
    out: list[QualifiedRef] = []
    qualified = _index(pf).get("qualified", ())
    # the qualified names inside another one (its name field), found from above: tree-sitter's `parent` walks down
    # from the root each time, which made a file of 24,000 `a::a::...` take a minute (docs/security.md)
    inner: set[tuple[int, int]] = set()
    for node in qualified:
        name = node.child_by_field_id(F_NAME)
        if name is not None and name.type == "qualified_identifier":
            inner.add((name.start_byte, name.end_byte))
    for node in qualified:
        if (node.start_byte, node.end_byte) in inner:
            continue
        parent = node.parent
        parts: list[str] = []
        nodes: list[Node] = []
        cur: Node | None = node
        last: Node | None = None
        ok = True
        while cur is not None and cur.type == "qualified_identifier":
            sc = cur.child_by_field_id(F_SCOPE)
            if sc is not None:
                sc_name = sc.child_by_field_id(F_NAME) if sc.type == "template_type" else sc
                if sc_name is None or sc_name.type not in (
                    "namespace_identifier",
                    "type_identifier",
                    "identifier",
                ):
                    ok = False
                    break
                parts.append(pf.node_text(sc_name))
                nodes.append(sc_name)
            cur = cur.child_by_field_id(F_NAME)
        if not ok or cur is None or not parts:
            continue
        role = "value"
        last = cur
        if cur.type in ("template_type", "template_function", "template_method"):
            last = cur.child_by_field_id(F_NAME)
            role = "template"
        elif cur.type == "type_identifier":
            role = "type"
        elif cur.type == "dependent_name":
            continue
        if last is None or last.type not in (
            "identifier",
            "type_identifier",
            "field_identifier",
            "namespace_identifier",
        ):
            continue
        if (
            parent is not None
            and parent.type == "call_expression"
            and parent.child_by_field_id(F_FUNCTION) == node
        ):
            role = "call"
        parts.append(pf.node_text(last))
        nodes.append(last)
        out.append(QualifiedRef(node, tuple(parts), tuple(nodes), role))
    pf.memo["qualified_refs"] = out
    return out


def type_name_nodes(pf: ParsedFile) -> list[Node]:
    """Every ``type_identifier`` node (a name used as a type), in document order."""
    return list(_index(pf).get("type_name", ()))


def sizeof_operands(pf: ParsedFile) -> list[Node]:
    """The operand of every ``sizeof(x)``: a type node, or the expression inside the parentheses (an identifier
    when the name could be a type or a variable)."""
    out: list[Node] = []
    for node in _index(pf).get("sizeof", ()):
        target = node.child_by_field_id(F_TYPE) or node.child_by_field_id(F_VALUE)
        while target is not None and target.type in ("parenthesized_expression", "type_descriptor"):
            inner = [c for c in target.named_children if c.type != "comment"]
            if len(inner) != 1:
                break
            target = inner[0]
        if target is not None:
            out.append(target)
    return out
