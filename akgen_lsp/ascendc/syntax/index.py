"""One tree-sitter query over a parsed file collects every node the file's model reads (`_index`, by capture name, in
document order), and properly nested containers (scopes, class bodies, functions) answer "the innermost one around
this node" by bisection (`_containers`). Both are computed once per `ParsedFile` (in ``pf.memo``); nodes are nodes of
`pf.tree`, and their byte offsets are offsets in the user's text as well (the masking never moves a character)."""

from __future__ import annotations

import bisect
import operator

from tree_sitter import Node, Query, QueryCursor

from akgen_lsp.ascendc.syntax.grammar import CPP, F_BODY
from akgen_lsp.ascendc.syntax.parsing import ParsedFile

_INDEX_QUERY = Query(
    CPP,
    """
    (call_expression) @call
    (declaration) @decl
    (field_declaration) @field
    (parameter_declaration) @param
    (optional_parameter_declaration) @param
    (variadic_parameter_declaration) @param
    (function_definition) @func
    (class_specifier) @class
    (struct_specifier) @class
    (union_specifier) @class
    (enum_specifier) @enum
    (preproc_def) @define
    (preproc_function_def) @define
    (type_definition) @typedef
    (alias_declaration) @alias
    (using_declaration) @using
    (namespace_definition) @namespace
    (template_declaration) @template
    (for_range_loop) @range_for
    (lambda_expression) @lambda
    (qualified_identifier) @qualified
    (type_identifier) @type_name
    (sizeof_expression) @sizeof
    (compound_statement) @scope
    (for_statement) @scope
    (for_range_loop) @scope
    (if_statement) @scope
    (while_statement) @scope
    (switch_statement) @scope
    (catch_clause) @scope
    (lambda_expression) @scope
    (function_definition) @scope
    (field_declaration_list) @scope
    (declaration_list) @scope
    (template_declaration) @scope
    """,
)

_START_BYTE = operator.attrgetter("start_byte")


def _index(pf: ParsedFile) -> dict[str, list[Node]]:
    """All nodes of the kinds the helpers need, by capture name, in document order (one query over the tree)."""
    got = pf.memo.get("index")
    if got is None:
        caps = QueryCursor(_INDEX_QUERY).captures(pf.root)
        got = {k: sorted(v, key=_START_BYTE) for k, v in caps.items()}
        pf.memo["index"] = got
    return got  # type: ignore[return-value]


def for_loops(pf: ParsedFile) -> list[Node]:
    """The ``for`` statements of the file, in document order (from the one query over the tree)."""
    return [n for n in _index(pf).get("scope", ()) if n.type == "for_statement"]


def _text(pf: ParsedFile, node: Node | None) -> str:
    return "" if node is None else pf.node_text(node)


def _named_children_without_comments(pf: ParsedFile, node: Node) -> tuple[Node, ...]:
    """The named children of `node` that are not comments (a comment's text starts with "/")."""
    if pf.data.find(b"/", node.start_byte, node.end_byte) < 0:
        return tuple(node.named_children)
    return tuple(c for c in node.named_children if c.type != "comment")


def _tree_has_error(pf: ParsedFile) -> bool:
    got = pf.memo.get("has_error")
    if got is None:
        got = pf.memo["has_error"] = pf.root.has_error
    return bool(got)


class _Containers:
    """Properly nested nodes (scopes, class bodies, functions) answering "the innermost one around this range"
    by bisection, without walking parents (a tree-sitter parent lookup costs a walk from the root)."""

    def __init__(self, nodes: list[Node], root: Node) -> None:
        # sorted by (start, -end), stably (the byte offsets read once: each node attribute read costs)
        keyed = sorted(((n.start_byte, -n.end_byte, i) for i, n in enumerate(nodes)), key=_first_two)
        self.nodes = [nodes[k[2]] for k in keyed]
        self.root = root
        starts = self.starts = [k[0] for k in keyed]
        ends = self.ends = [-k[1] for k in keyed]
        self.parent: list[int] = []
        parent = self.parent
        stack: list[int] = []
        for i, (start, end) in enumerate(zip(starts, ends, strict=True)):
            while stack and not (starts[stack[-1]] <= start and end <= ends[stack[-1]]):
                stack.pop()
            parent.append(stack[-1] if stack else -1)
            stack.append(i)

    def around(self, node: Node) -> Node | None:
        """The innermost container around `node` other than `node` itself. The last container starting at or
        before `node` is inside every container around `node`, so the answer is on its chain of parents."""
        start, end = node.start_byte, node.end_byte
        i = bisect.bisect_right(self.starts, start) - 1
        while i >= 0:
            if self.ends[i] >= end and not (self.starts[i] == start and self.ends[i] == end):
                return self.nodes[i]
            i = self.parent[i]
        return None


def _first_two(k: tuple[int, int, int]) -> tuple[int, int]:
    return k[0], k[1]


def _containers(pf: ParsedFile, key: str) -> _Containers:
    got = pf.memo.get(("containers", key))
    if got is None:
        idx = _index(pf)
        if key == "scope":
            nodes = list(idx.get("scope", ()))
        elif key == "class_body":
            nodes = [b for c in idx.get("class", ()) if (b := c.child_by_field_id(F_BODY)) is not None]
        else:  # functions and lambdas
            nodes = list(idx.get("func", ())) + list(idx.get("lambda", ()))
        got = pf.memo[("containers", key)] = _Containers(nodes, pf.root)
    return got  # type: ignore[return-value]


def _class_of_body(pf: ParsedFile) -> dict[int, Node]:
    """Class node by the start byte of its body."""
    got = pf.memo.get("class_of_body")
    if got is None:
        got = {}
        for c in _index(pf).get("class", ()):
            b = c.child_by_field_id(F_BODY)
            if b is not None:
                got[b.start_byte] = c
        pf.memo["class_of_body"] = got
    return got  # type: ignore[return-value]


def _scope_around(pf: ParsedFile, node: Node) -> Node:
    found = _containers(pf, "scope").around(node)
    return found if found is not None else pf.root


def _class_around(pf: ParsedFile, node: Node) -> Node | None:
    """The class whose body is the innermost class body around `node` (with no function in between)."""
    body = _containers(pf, "class_body").around(node)
    if body is None:
        return None
    fn = _containers(pf, "func").around(node)
    if fn is not None and fn.start_byte > body.start_byte:
        return None  # inside a function defined in the class: not directly in the class
    return _class_of_body(pf).get(body.start_byte)
