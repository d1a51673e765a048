"""Signature help: every overload of the called API, the active one chosen by the number of arguments typed so far."""

from __future__ import annotations

from lsprotocol import types

from akgen_lsp.ascendc.catalog import Catalog, Overload
from akgen_lsp.config import Settings
from akgen_lsp.server.features import analysis
from akgen_lsp.server.features.docs import entry_markdown

TRIGGER_CHARACTERS = ["(", ","]
RETRIGGER_CHARACTERS = [")"]


def signature_help(
    text: str, line: int, character: int, settings: Settings, catalog: Catalog
) -> types.SignatureHelp | None:
    offset = analysis.offset_of(text, line, character)
    call = analysis.enclosing_call(text, offset)
    if call is None:
        return None
    entries = [e for e in analysis.resolve_name(text, call.callee_offset, call.callee, catalog) if e.overloads]
    if not entries:
        return None
    entry = entries[0]
    overloads = list(entry.overloads)
    doc = types.MarkupContent(
        kind=types.MarkupKind.Markdown,
        value=entry_markdown(entry, settings["arch"], settings["cann.version"], with_signature=False),
    )
    signatures = [_signature(ov, doc) for ov in overloads]
    active = active_overload(overloads, call.active_argument)
    ov = overloads[active]
    param = call.active_argument
    if ov.params:
        param = min(param, len(ov.params) - 1)
    return types.SignatureHelp(signatures=signatures, active_signature=active, active_parameter=param)


def active_overload(overloads: list[Overload], argument_index: int) -> int:
    """The overload that can take ``argument_index + 1`` arguments and needs the fewest more; the first on ties."""
    typed = argument_index + 1
    best, best_key = 0, None
    for i, ov in enumerate(overloads):
        top = ov.max_args
        fits = top is None or typed <= top or (typed == 1 and top == 0)
        key = (0 if fits else 1, abs(ov.min_args - typed) if fits else 0, i)
        if best_key is None or key < best_key:
            best, best_key = i, key
    return best


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
