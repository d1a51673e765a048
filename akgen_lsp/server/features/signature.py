"""Signature help: every overload of the called API, the active one chosen by the number of arguments typed so far."""

from __future__ import annotations

import re
from collections.abc import Sequence

from lsprotocol import types

from akgen_lsp.ascendc.catalog import Catalog, Overload
from akgen_lsp.ascendc.syntax import ParsedFile, cursor
from akgen_lsp.config import Settings
from akgen_lsp.server.features.docs import entry_markdown

TRIGGER_CHARACTERS = ["(", ","]
RETRIGGER_CHARACTERS = [")"]


def signature_help(
    text: str,
    line: int,
    character: int,
    settings: Settings,
    catalog: Catalog,
    parsed: ParsedFile | None = None,
) -> types.SignatureHelp | None:
    offset = cursor.offset_of(text, line, character)
    call = cursor.enclosing_call(text, offset)
    if call is None:
        return None
    entries = [
        e for e in cursor.resolve_name(text, call.callee_offset, call.callee, catalog, parsed) if e.overloads
    ]
    if not entries:
        return None
    entry = entries[0]
    overloads = list(entry.overloads)
    doc = types.MarkupContent(
        kind=types.MarkupKind.Markdown,
        value=entry_markdown(entry, settings["arch"], settings["cann.version"], with_signature=False),
    )
    signatures = [_signature(ov, doc) for ov in overloads]
    arg_classes = [
        _argument_class(text, call.callee_offset, arg, catalog, parsed) for arg in call.arguments[:-1]
    ]
    active = active_overload(overloads, call.active_argument, arg_classes, catalog)
    ov = overloads[active]
    param = call.active_argument
    if ov.params:
        param = min(param, len(ov.params) - 1)
    return types.SignatureHelp(signatures=signatures, active_signature=active, active_parameter=param)


def active_overload(
    overloads: list[Overload],
    argument_index: int,
    arg_classes: Sequence[str | None] = (),
    catalog: Catalog | None = None,
) -> int:
    """The overload to show while argument `argument_index` is typed.

    An overload must take at least ``argument_index + 1`` arguments; among those, the ones whose parameters agree with
    the classes of the arguments already typed (``inQueueX`` is a TQue: not ``TBuf<pos>& buf``) come first, then the
    one needing the fewest arguments, then the catalog's order.
    """
    typed = argument_index + 1
    best, best_key = 0, None
    for i, ov in enumerate(overloads):
        top = ov.max_args
        fits = top is None or typed <= top or (typed == 1 and top == 0)
        mismatches = sum(
            1
            for param, cls in zip(ov.params, arg_classes, strict=False)
            if cls is not None and catalog is not None and _names_other_class(param.type, cls, catalog)
        )
        key = (0 if fits else 1, mismatches, ov.min_args if fits else 0, i)
        if best_key is None or key < best_key:
            best, best_key = i, key
    return best


def _names_other_class(param_type: str, cls: str, catalog: Catalog) -> bool:
    """Whether a parameter type names catalog classes and `cls` is not one of them (``TBuf<pos>&`` vs a TQue)."""
    named = {
        entry.short
        for word in set(re.findall(r"[A-Za-z_]\w*", param_type))
        if (entry := cursor.resolve_class(catalog, word)) is not None
    }
    return bool(named) and cls not in named


def _argument_class(
    text: str, offset: int, argument: str, catalog: Catalog, parsed: ParsedFile | None = None
) -> str | None:
    """The catalog class (short name) of an argument that is a variable (``x``, ``this->x``, or a tensor slice
    ``xGm[offset]``, which is a tensor of the same class), else None."""
    m = re.fullmatch(r"(?:this\s*->\s*)?([A-Za-z_]\w*)\s*(?:\[.*\])?", argument.strip(), re.S)
    if not m:
        return None
    entry = cursor.receiver_class(text, offset, m.group(1), catalog, parsed)
    return entry.short if entry else None


def _signature(ov: Overload, doc: types.MarkupContent) -> types.SignatureInformation:
    label = ov.signature
    params = []
    cursor = label.find("(") + 1
    for p in ov.params:
        rendered = p.render()
        start = label.find(rendered, cursor)
        if start < 0 and p.name:
            rendered = p.name  # spelled differently (``T *dst``): highlight the name alone
            start = label.find(rendered, cursor)
        if start < 0:
            params.append(types.ParameterInformation(label=p.render()))
            continue
        end = start + len(rendered)
        params.append(types.ParameterInformation(label=(start, end)))
        cursor = end
    return types.SignatureInformation(
        label=label, documentation=doc, parameters=params, active_parameter=None
    )
