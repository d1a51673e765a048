"""The names of the file: those it defines itself (`user_defined_names`, `type_aliases`, `enumerators`), the
declaration a name means at a node (`lookup`), and whether an unqualified name may come from somewhere the file does
not show (`foreign_names_possible`)."""

from __future__ import annotations

import bisect
import re

from tree_sitter import Node

from akgen_lsp.ascendc.syntax.classes import ClassInfo, _class_at, class_named, classes
from akgen_lsp.ascendc.syntax.declarations import (
    Declaration,
    _declarations_by_name,
    _starts_by_name,
    _unwrap_declarator,
    declarations,
)
from akgen_lsp.ascendc.syntax.functions import (
    _declared_function_names,
    _params_of_template,
    function_at,
    functions,
)
from akgen_lsp.ascendc.syntax.grammar import F_BODY, F_DECLARATOR, F_NAME, F_TYPE
from akgen_lsp.ascendc.syntax.index import _index, _tree_has_error
from akgen_lsp.ascendc.syntax.parsing import ParsedFile
from akgen_lsp.ascendc.syntax.preprocessor import macros
from akgen_lsp.ascendc.syntax.type_names import base_type_name


def type_aliases(pf: ParsedFile) -> dict[str, str]:
    """``using A = B;`` and ``typedef B A;`` of the file: alias -> aliased type text."""
    got = pf.memo.get("aliases")
    if got is not None:
        return got  # type: ignore[return-value]
    out: dict[str, str] = {}
    idx = _index(pf)
    for node in idx.get("alias", ()):
        name = node.child_by_field_id(F_NAME)
        typ = node.child_by_field_id(F_TYPE)
        if name is not None and typ is not None:
            out[pf.node_text(name)] = " ".join(pf.node_text(typ).split())
    for node in idx.get("typedef", ()):
        typ = node.child_by_field_id(F_TYPE)
        for d in node.children_by_field_id(F_DECLARATOR):
            nm, *_rest = _unwrap_declarator(d)
            if nm is not None and typ is not None:
                out[pf.node_text(nm)] = " ".join(pf.node_text(typ).split())
    pf.memo["aliases"] = out
    return out


def user_defined_names(pf: ParsedFile) -> frozenset[str]:
    """Names the file defines itself: functions (also declared-only), classes, structs, unions, enums and their
    enumerators, macros, typedefs and aliases, namespaces, template parameters, variables at namespace scope,
    and tiling structs (``BEGIN_TILING_DATA_DEF``)."""
    got = pf.memo.get("user_names")
    if got is not None:
        return got  # type: ignore[return-value]
    names: set[str] = set()
    idx = _index(pf)
    names.update(f.name for f in functions(pf))
    names.update(c.name.rsplit("::", 1)[-1] for c in classes(pf) if c.name)
    for c in classes(pf):
        names.update(c.method_decls)
        names.update(c.template_params)
    for f in functions(pf):
        names.update(f.template_params)
    for node in idx.get("class", []) + idx.get("enum", []):
        nm = node.child_by_field_id(F_NAME)
        if nm is not None:
            names.add(base_type_name(pf.node_text(nm)).rsplit("::", 1)[-1])
    for node in idx.get("enum", ()):
        body = node.child_by_field_id(F_BODY)
        for e in body.named_children if body is not None else ():
            nm = e.child_by_field_id(F_NAME)
            if nm is not None:
                names.add(pf.node_text(nm))
    names.update(macros(pf))
    names.update(type_aliases(pf))
    for node in idx.get("namespace", ()):
        nm = node.child_by_field_id(F_NAME)
        if nm is not None:
            names.update(pf.node_text(nm).split("::"))
    for node in idx.get("template", ()):
        # the parameters of the template around its second named child: the template's own
        names.update(_params_of_template(pf, node) if node.named_child_count > 1 else ())
    for d in declarations(pf):
        if d.kind == "global":
            names.add(d.name)
    # functions that are only declared (prototypes) at namespace or class scope
    exact_tokens = not _tree_has_error(pf)
    for node in idx.get("decl", []) + idx.get("field", []):
        if exact_tokens and b"(" not in pf.data[node.start_byte : node.end_byte]:
            continue  # no parameter list, so no function declarator
        names.update(_declared_function_names(pf, node))
    result = frozenset(names)
    pf.memo["user_names"] = result
    return result


def lookup(pf: ParsedFile, name: str, at: Node | None = None) -> Declaration | None:
    """The declaration of `name` visible at `at`: the innermost local or parameter declared before it, then a field
    of the enclosing class (or its bases in the file), then a namespace-scope variable. Without `at`, the first
    namespace-scope or field declaration of that name."""
    cands = _declarations_by_name(pf).get(name)
    if not cands:
        return None
    if at is None:
        for kinds in (("global",), ("field",), ("local", "param")):
            hit = next((d for d in cands if d.kind in kinds), None)
            if hit is not None:
                return hit
        return None
    pos = at.start_byte
    fn = function_at(pf, at)
    if fn is not None:
        # the innermost visible local: scanning back from `at`, the first declaration whose scope holds `at`
        starts = _starts_by_name(pf, name)
        i = bisect.bisect_right(starts, pos) - 1
        fn_start = fn.node.start_byte
        while i >= 0 and starts[i] >= fn_start:
            d = cands[i]
            if d.kind in ("local", "param") and d.scope.start_byte <= pos < d.scope.end_byte:
                return d
            i -= 1
    return _field_or_global(pf, name, _class_at(pf, at, fn), cands)


def _field_or_global(
    pf: ParsedFile, name: str, cls: ClassInfo | None, cands: list[Declaration]
) -> Declaration | None:
    """A field `name` of `cls` or of its bases in the file, else the first namespace-scope variable (remembered per
    name and class: the class objects live as long as `pf`)."""
    table = pf.memo.get("field_or_global")
    if table is None:
        table = pf.memo["field_or_global"] = {}
    assert isinstance(table, dict)
    key = (name, id(cls))
    if key in table:
        return table[key]  # type: ignore[no-any-return]
    got = None
    seen: set[str] = set()
    while cls is not None and cls.name not in seen:
        seen.add(cls.name)
        got = cls.field(name)
        if got is not None:
            break
        cls = next((class_named(pf, b) for b in cls.bases if class_named(pf, b) is not None), None)
    if got is None:
        got = next((d for d in cands if d.kind == "global"), None)
    table[key] = got
    return got


def enumerators(pf: ParsedFile) -> dict[str, Node | None]:
    """Enumerators of the file's enums by name -> their value expression (None: previous + 1)."""
    got = pf.memo.get("enumerators")
    if got is None:
        got = {}
        for node in _index(pf).get("enum", ()):
            body = node.child_by_field_id(F_BODY)
            for e in body.named_children if body is not None else ():
                nm = e.child_by_field_id(F_NAME)
                if nm is not None:
                    got[pf.node_text(nm)] = e
        pf.memo["enumerators"] = got
    return got  # type: ignore[return-value]


_INCLUDE_RE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', re.M)
ASCEND_HEADER_PREFIXES = (
    "kernel_operator",
    "kernel_tiling",
    "lib/",
    "kernel_log",
    "acl/",
    "tiling/",
    "register/",
    "basic_api/",
    "adv_api/",
)
_USING_OTHER_RE = re.compile(r"\busing\s+namespace\s+(?!(?:::)?AscendC\s*;|std\s*;)([A-Za-z_:][\w:]*)")
# the same without the leading \b, which keeps the engine from skipping ahead to "using"; `_using_other` checks it
_USING_OTHER_TAIL_RE = re.compile(r"using\s+namespace\s+(?!(?:::)?AscendC\s*;|std\s*;)([A-Za-z_:][\w:]*)")
_WORD_CHAR_RE = re.compile(r"\w")


def _using_other(text: str) -> bool:
    """Whether `_USING_OTHER_RE` matches somewhere in `text` (tried at each "using" where \\b holds)."""
    pos = 0
    while True:
        m = _USING_OTHER_TAIL_RE.search(text, pos)
        if m is None:
            return False
        i = m.start()
        if i == 0 or not _WORD_CHAR_RE.match(text, i - 1):
            return True
        pos = i + 1


def foreign_names_possible(pf: ParsedFile) -> bool:
    """Whether an unqualified name may come from somewhere the file does not show: it includes a header that is
    neither an Ascend C nor a standard one (``"my_helpers.h"``, ``"impl/..."``) or opens another namespace with a
    using-directive (``using namespace AscendC::Te;``). Then an unqualified call can find other overloads than
    the catalog's, and rules should not judge it."""
    got = pf.memo.get("foreign_names")
    if got is None:
        got = any(
            not m.group(1).startswith(ASCEND_HEADER_PREFIXES) for m in _INCLUDE_RE.finditer(pf.text)
        ) or bool(_using_other(pf.masked))
        pf.memo["foreign_names"] = got
    return bool(got)
