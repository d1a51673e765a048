"""The file's names against namespace AscendC: where an unqualified name reaches it (`ascendc_visible_at`), a type
name as the catalog knows it (`qualify_type`), and a class's fields of the core Ascend C classes (`ascendc_fields`)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from tree_sitter import Node

from akgen_lsp.ascendc.syntax.classes import ClassInfo, class_named
from akgen_lsp.ascendc.syntax.declarations import Declaration
from akgen_lsp.ascendc.syntax.grammar import F_NAME
from akgen_lsp.ascendc.syntax.index import _index, _scope_around
from akgen_lsp.ascendc.syntax.names import type_aliases
from akgen_lsp.ascendc.syntax.parsing import ParsedFile
from akgen_lsp.ascendc.syntax.type_names import base_type_name

if TYPE_CHECKING:
    from akgen_lsp.ascendc.catalog import Catalog


ASCENDC = "AscendC"


def _ascendc_scopes(pf: ParsedFile) -> list[tuple[int, int]]:
    """Byte ranges where unqualified names reach namespace AscendC: after a ``using namespace AscendC;`` (to the end
    of its enclosing block or file) and inside ``namespace AscendC { }``."""
    got = pf.memo.get("ascendc_scopes")
    if got is not None:
        return got  # type: ignore[return-value]
    out: list[tuple[int, int]] = []
    idx = _index(pf)
    for node in idx.get("using", ()):
        t = " ".join(pf.node_text(node).split())
        if re.match(r"using\s+namespace\s+(::)?AscendC\s*;", t):
            scope = _scope_around(pf, node)
            out.append((node.start_byte, scope.end_byte if scope is not pf.root else len(pf.data)))
    for node in idx.get("namespace", ()):
        nm = node.child_by_field_id(F_NAME)
        if nm is not None and pf.node_text(nm).split("::")[0] == ASCENDC:
            out.append((node.start_byte, node.end_byte))
    if not out and re.search(r"using\s+namespace\s+(?:::)?AscendC\s*;", pf.masked):
        # the using directive sits in a region the parser lost: treat the whole file as using it
        out.append((0, len(pf.data)))
    pf.memo["ascendc_scopes"] = out
    return out


def ascendc_visible_at(pf: ParsedFile, node: Node) -> bool:
    """Whether an unqualified name at `node` can reach namespace AscendC."""
    scopes = _ascendc_scopes(pf)
    if not scopes:
        return False
    pos = node.start_byte
    for a, b in scopes:  # noqa: SIM110 (a loop: called for every call, and any() with a generator costs more)
        if a <= pos < b:
            return True
    return False


def qualify_type(
    pf: ParsedFile, catalog: Catalog | None, type_name: str, at: Node | None = None, depth: int = 0
) -> str:
    """A type name as the catalog or the file knows it: aliases of the file followed, ``AscendC::`` added where an
    unqualified name reaches the namespace and the catalog has it (or it is a core class): ``TQue`` ->
    ``AscendC::TQue``. Unknown names come back unchanged."""
    name = base_type_name(type_name)
    if not name or depth > 8:
        return name
    aliases = type_aliases(pf)
    if name in aliases:
        return qualify_type(pf, catalog, aliases[name], at, depth + 1)
    if name.startswith("::"):
        name = name[2:]
    if "::" in name:
        return name
    if class_named(pf, name) is not None:
        return name
    candidate = f"{ASCENDC}::{name}"
    known = (catalog is not None and candidate in catalog) or name in _CORE_CLASSES
    if known and (at is None or ascendc_visible_at(pf, at)):
        return candidate
    return name


_CORE_CLASSES = frozenset(
    {
        "TPipe",
        "TQue",
        "TQueBind",
        "TBuf",
        "LocalTensor",
        "GlobalTensor",
        "TBufPool",
        "TSCM",
        "TPosition",
        "QuePosition",
    }
)


ASCEND_MEMBER_CLASSES = ("TPipe", "TQue", "TQueBind", "TBuf", "TBufPool", "LocalTensor", "GlobalTensor")


def ascendc_fields(pf: ParsedFile, catalog: Catalog | None, cls: ClassInfo) -> dict[str, list[Declaration]]:
    """The fields of `cls` (and of its bases defined in the file) whose type is a core Ascend C class, by that
    class's short name: ``{"TPipe": [pipe], "TQue": [inQueueX, outQueueZ], "TBuf": [tmp], "GlobalTensor": [...]}``.
    A field's ``template_args`` give the queue position and depth (``("QuePosition::VECIN", "BUFFER_NUM")``)."""
    out: dict[str, list[Declaration]] = {}
    seen: set[str] = set()
    todo: list[ClassInfo] = [cls]
    while todo:
        c = todo.pop(0)
        if c.name in seen:
            continue
        seen.add(c.name)
        for f in c.fields:
            q = qualify_type(pf, catalog, f.type_name, None)
            short = q.removeprefix(ASCENDC + "::")
            if short in ASCEND_MEMBER_CLASSES and (q.startswith(ASCENDC + "::") or short == f.type_name):
                out.setdefault(short, []).append(f)
        todo.extend(b for b in (class_named(pf, base) for base in c.bases) if b is not None)
    return out
