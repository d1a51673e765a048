"""Completion of catalog names: after ``AscendC::`` (and ``TPosition::``...), after ``.``/``->`` (members of the
receiver's class) and at statement start, each with a signature snippet and its documentation."""

from __future__ import annotations

import re

import attrs
from lsprotocol import types

from akgen_lsp.ascendc.catalog import Catalog, Entry, Overload, split_top_level
from akgen_lsp.ascendc.syntax import ParsedFile, cursor
from akgen_lsp.config import Settings
from akgen_lsp.server.features.docs import entry_markdown, signature_lines

TRIGGER_CHARACTERS = [".", ":", ">"]

KIND = {
    "class": types.CompletionItemKind.Class,
    "method": types.CompletionItemKind.Method,
    "function": types.CompletionItemKind.Function,
    "macro": types.CompletionItemKind.Constant,
    "enum": types.CompletionItemKind.Enum,
    "enumerator": types.CompletionItemKind.EnumMember,
    "type": types.CompletionItemKind.Struct,
    "variable": types.CompletionItemKind.Variable,
    "namespace": types.CompletionItemKind.Module,
}


def complete(
    text: str,
    line: int,
    character: int,
    settings: Settings,
    catalog: Catalog,
    snippets: bool = True,
    lazy_docs: bool = False,
    parsed: ParsedFile | None = None,
) -> list[types.CompletionItem]:
    """Catalog items for the cursor. With `lazy_docs` the items carry ``data`` instead of their documentation, which
    `resolve` adds when the client shows an item (a list at statement start has hundreds of entries). `parsed` is
    the document's last parse (a receiver's declaration is read from it while it holds the text)."""
    line_text = cursor.line_at(text, line)
    before = line_text[:character]
    if cursor.in_comment_or_string(before) or before.lstrip().startswith("#include"):
        return []
    partial = re.search(r"[A-Za-z_]\w*$", before)
    start = partial.start() if partial else character
    q = cursor.qualified_before(line_text, start)
    if q.operator == "::":
        scope = f"scope:{q.qualifier}"
        qualify = ""
    elif q.operator in (".", "->"):
        if before[:start].rstrip().endswith(">") and not before[:start].rstrip().endswith("->"):
            return []
        offset = cursor.offset_of(text, line, start)
        cls = cursor.receiver_class(text, offset, q.qualifier, catalog, parsed)
        if cls is None:
            return []
        scope = f"members:{cls.name}"
        qualify = ""
    else:
        if before.rstrip().endswith((">", ":")) and not partial:
            return []  # a '>' or ':' typed as an operator, not as part of '->' or '::'
        scope = "statement"
        qualify = "" if cursor.uses_namespace(text) else "AscendC::"
    key = (id(catalog), scope, settings["arch"], settings["cann.version"], snippets, lazy_docs, qualify)
    items = _ITEMS.get(key)
    if items is None:
        if len(_ITEMS) > 64:
            _ITEMS.clear()
        items = _ITEMS[key] = _items(_entries(catalog, scope), settings, snippets, lazy_docs, qualify)
    return list(items)


# Built item lists by (catalog, scope, arch, CANN version, client options): the list at statement start has
# hundreds of items and is the same wherever the cursor is.
_ITEMS: dict[tuple[object, ...], list[types.CompletionItem]] = {}


def _entries(catalog: Catalog, scope: str) -> list[Entry]:
    kind, _, name = scope.partition(":")
    if kind == "scope":
        return _scope_members(catalog, name)
    if kind == "members":
        return [e for e in catalog.members(name) if e.kind in ("method", "variable", "function")]
    entries = [e for e in catalog.namespace_members("AscendC") if e.kind not in ("enumerator",)]
    # global names: the macros, and the C API (asc_*) and SIMT functions of CANN 9.x
    return entries + [
        e
        for e in catalog.namespace_members("")
        if e.kind == "macro" or (e.kind == "function" and e.family in ("c_api", "simt_api"))
    ]


def _items(
    entries: list[Entry], settings: Settings, snippets: bool, lazy_docs: bool, qualify: str
) -> list[types.CompletionItem]:
    version = settings["cann.version"]
    arch = settings["arch"]
    return [
        _item(entry, arch, version, snippets, qualify if entry.parent == "AscendC" else "", lazy_docs)
        for entry in entries
        if entry.exists_in(version)
    ]


def resolve(item: types.CompletionItem, catalog: Catalog) -> types.CompletionItem:
    """Add the documentation of an item made with `lazy_docs` (its data says the entry, arch and CANN version)."""
    data = item.data if isinstance(item.data, dict) else {}
    entry = catalog.get(str(data.get("akgen_entry", "")))
    if entry is not None and item.documentation is None:
        item.documentation = _documentation(entry, str(data.get("arch", "")), str(data.get("cann", "")))
    return item


def plain_documentation(item: types.CompletionItem) -> types.CompletionItem:
    """A copy of `item` whose documentation is a plain string (for clients that do not render markdown)."""
    if isinstance(item.documentation, types.MarkupContent):
        return attrs.evolve(item, documentation=item.documentation.value)
    return item


def _documentation(entry: Entry, arch: str, version: str) -> types.MarkupContent:
    return types.MarkupContent(
        kind=types.MarkupKind.Markdown, value=entry_markdown(entry, arch, version, with_signature=False)
    )


def _scope_members(catalog: Catalog, qualifier: str) -> list[Entry]:
    for owner in (qualifier, f"AscendC::{qualifier}"):
        entry = catalog.get(owner)
        if entry is not None and entry.kind == "class":
            return catalog.members(owner)
        members = catalog.namespace_members(owner)
        if members:
            return members
    return []


def _item(
    entry: Entry, arch: str, version: str, snippets: bool, qualify: str, lazy_docs: bool = False
) -> types.CompletionItem:
    detail = signature_lines(entry)[0]
    if len(entry.overloads) > 1:
        detail += f"  (+{len(entry.overloads) - 1} overloads)"
    name = f"{qualify}{entry.short}"
    snippet = entry_snippet(entry) if snippets else None
    return types.CompletionItem(
        label=entry.short,
        kind=KIND.get(entry.kind, types.CompletionItemKind.Text),
        detail=detail,
        documentation=None if lazy_docs else _documentation(entry, arch, version),
        data={"akgen_entry": entry.name, "arch": arch, "cann": version} if lazy_docs else None,
        filter_text=entry.short,
        insert_text=f"{qualify}{snippet}" if snippet else name,
        insert_text_format=types.InsertTextFormat.Snippet if snippet else types.InsertTextFormat.PlainText,
        tags=[types.CompletionItemTag.Deprecated] if entry.deprecated else None,
        sort_text=f"{_rank(entry)}{entry.short}",
    )


def _rank(entry: Entry) -> str:
    return {"method": "0", "function": "1", "class": "2", "enumerator": "0", "macro": "3"}.get(
        entry.kind, "4"
    )


def _escape(text: str) -> str:
    return text.replace("\\", "\\\\").replace("$", "\\$").replace("}", "\\}")


def template_params(template: str) -> list[tuple[str, bool]]:
    """(name, has_default) of each parameter of ``template <typename T, int32_t depth, auto mask = 0>``."""
    m = re.match(r"\s*template\s*<(.*)>\s*$", template, re.S)
    if not m or not m.group(1).strip():
        return []
    out = []
    for piece in split_top_level(m.group(1)):
        has_default = "=" in piece
        decl = piece.split("=")[0].strip()
        name = re.findall(r"[A-Za-z_]\w*", decl)
        out.append((name[-1] if name else decl, has_default))
    return out


def overload_snippet(short: str, ov: Overload) -> str:
    """``AllocTensor<${1:T}>()$0``: template parameters that the arguments cannot deduce, then required arguments."""
    args = [p for p in ov.params if p.default is None]
    param_types = " ".join(p.type for p in ov.params)
    explicit = [
        name
        for name, has_default in template_params(ov.template)
        if not has_default and not re.search(rf"\b{re.escape(name)}\b", param_types)
    ]
    n = 0
    head = short
    if explicit:
        parts = []
        for name in explicit:
            n += 1
            parts.append(f"${{{n}:{_escape(name)}}}")
        head += "<" + ", ".join(parts) + ">"
    pieces = []
    for p in args:
        n += 1
        pieces.append(f"${{{n}:{_escape(p.name or p.type)}}}")
    return f"{head}({', '.join(pieces)})$0"


def entry_snippet(entry: Entry) -> str | None:
    if entry.snippet:
        return entry.snippet
    if entry.overloads:
        # the simplest form (fewest required arguments) makes the best template to fill in
        simplest = min(entry.overloads, key=lambda ov: (ov.min_args, len(ov.params)))
        return overload_snippet(entry.short, simplest)
    if entry.kind == "class" and entry.template:
        required = [n for n, has_default in template_params(entry.template) if not has_default]
        if required:
            inner = ", ".join(f"${{{i + 1}:{_escape(n)}}}" for i, n in enumerate(required))
            return f"{entry.short}<{inner}>$0"
    return None
