"""Building the model of one file (`build_model`), once per parse (`kernel_model`): the functions with their
qualifiers, the queues, buffers and pipes of each class and function, the instantiations of class templates the
file writes out, and the calls of each function."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from akgen_lsp.ascendc import syntax
from akgen_lsp.ascendc.commas import split_top_level
from akgen_lsp.ascendc.kernel_model.bodies import _scan_calls, type_size
from akgen_lsp.ascendc.kernel_model.qualifiers import _device_macros, _function, _original_bytes
from akgen_lsp.ascendc.kernel_model.regions import _cpu_only_regions, _directives, _preprocessor_branches
from akgen_lsp.ascendc.kernel_model.values import (
    _BUFFER_TYPES,
    POSITIONS,
    Binding,
    Buffer,
    Function,
    KernelClass,
    KernelModel,
    _fn_owner,
)
from akgen_lsp.ascendc.syntax import Call, ParsedFile, base_type_name, const_eval

if TYPE_CHECKING:
    from akgen_lsp.ascendc.catalog import Catalog
    from akgen_lsp.ascendc.context import LintContext


def kernel_model(ctx: LintContext) -> KernelModel:
    """The model of `ctx`'s file, built once per parse and catalog and kept in the parse's memo (it reads nothing
    but the parse and the catalog, so a re-lint of the same parse reuses it; rules only read it)."""
    key = ("kernel_model", id(ctx.catalog))
    model = ctx.parsed.memo.get(key)
    if model is None:
        model = build_model(ctx.parsed, ctx.catalog)
        ctx.parsed.memo[key] = model
    return model  # type: ignore[return-value]


def build_model(pf: ParsedFile, catalog: Catalog | None = None) -> KernelModel:
    orig = _original_bytes(pf)
    device_macros = _device_macros(pf)
    functions = [_function(pf, orig, f, device_macros) for f in syntax.functions(pf)]
    aliases = syntax.type_aliases(pf)
    classes: dict[str, KernelClass] = {}
    buffers: list[Buffer] = []
    for info in syntax.classes(pf):
        short = info.name.rsplit("::", 1)[-1]
        if not short or short in classes:
            continue
        cls = KernelClass(info)
        for d in info.fields:
            b = (
                _buffer(pf, d, short, aliases, info.template_params)
                if not (d.is_pointer or d.is_reference)
                else None
            )
            if b is not None:
                cls.buffers[d.name] = b
                buffers.append(b)
            elif _resolve_alias(d.type_name, aliases).rsplit("::", 1)[-1] == "TPipe" and not d.is_pointer:
                cls.pipes.append(d.name)
        classes[short] = cls
    _instantiations(pf, classes)
    by_name: dict[str, list[Function]] = {}
    by_start: dict[int, Function] = {}
    for f in functions:
        by_name.setdefault(f.name, []).append(f)
        by_start[f.node.start_byte] = f
        cls = classes.get(f.class_name or "")
        if cls is not None:
            cls.methods.append(f)
            cls.is_kernel_class = cls.is_kernel_class or f.has_device_mark
    calls_by_function: dict[int, list[Call]] = {}
    for c in syntax.calls(pf, catalog):
        if c.in_function is not None:
            calls_by_function.setdefault(c.in_function.start_byte, []).append(c)
    for d in syntax.declarations(pf):
        if d.kind == "local" and (d.type_name.rsplit("::", 1)[-1] in _BUFFER_TYPES or d.type_name in aliases):
            fdef = syntax.function_at(pf, d.node)
            if fdef is not None and fdef.node.start_byte in by_start:
                owner = by_start[fdef.node.start_byte]
                b = _buffer(pf, d, _fn_owner(owner), aliases, owner.fn.template_params)
                if b is not None and not d.is_reference and not d.is_pointer:
                    buffers.append(b)
    directives = _directives(orig)
    model = KernelModel(
        pf,
        catalog,
        functions,
        classes,
        buffers,
        [],
        [],
        device_macros,
        _cpu_only_regions(directives),
        _preprocessor_branches(orig, directives),
        by_name,
        calls_by_function,
    )
    model._by_start = by_start
    for f in functions:
        if f.body is not None:
            _scan_calls(model, f)
    return model


def _instantiations(pf: ParsedFile, classes: dict[str, KernelClass]) -> None:
    """Record, for each class template, the instantiations written out with scalar types and constants."""
    templates = {name: cls for name, cls in classes.items() if cls.info.template_params}
    if not templates:
        return
    for d in syntax.declarations(pf):
        cls = templates.get(d.type_name.rsplit("::", 1)[-1])
        if cls is None or not d.template_args or d.is_pointer or d.is_reference:
            continue
        params = cls.info.template_params
        types: list[tuple[str, str]] = []
        values: list[tuple[str, int]] = []
        for param, arg in zip(params, d.template_args, strict=False):
            if type_size(pf, arg) is not None and not _literal_like(arg):
                types.append((param, " ".join(arg.split())))
            else:
                v = const_eval(arg, pf, at=d.node)
                if v is None:
                    break
                values.append((param, v))
        else:
            binding = Binding(tuple(types), tuple(values))
            if binding not in cls.instantiations:
                cls.instantiations.append(binding)


def _literal_like(text: str) -> bool:
    return bool(re.fullmatch(r"[\d\s()+\-*/<>%&|^~xXa-fA-FuUlL']+", text))


def _resolve_alias(type_name: str, aliases: dict[str, str]) -> str:
    seen = 0
    while type_name in aliases and seen < 8:
        type_name = base_type_name(aliases[type_name])
        seen += 1
    return type_name


def _position(arg: str | None) -> str | None:
    if arg is None:
        return None
    last = arg.split("::")[-1].strip()
    return last if last in POSITIONS else None


def _buffer(
    pf: ParsedFile,
    d: syntax.Declaration,
    owner: str,
    aliases: dict[str, str],
    template_params: tuple[str, ...] = (),
) -> Buffer | None:
    name = d.type_name
    args = d.template_args
    if name in aliases:
        target = aliases[name]
        name = base_type_name(target)
        args = _template_args_of_text(target)
    kind = name.rsplit("::", 1)[-1]
    if kind == "TQue":
        pos = _position(args[0]) if args else None
        return Buffer(
            d.name, kind, pos, pos, args[1] if len(args) > 1 else None, owner, d, pf, template_params
        )
    if kind == "TQueBind":
        return Buffer(
            d.name,
            kind,
            _position(args[0]) if args else None,
            _position(args[1]) if len(args) > 1 else None,
            args[2] if len(args) > 2 else None,
            owner,
            d,
            pf,
            template_params,
        )
    if kind == "TBuf":
        pos = _position(args[0]) if args else "VECCALC"
        return Buffer(d.name, kind, pos, pos, None, owner, d, pf, template_params)
    return None


def _template_args_of_text(text: str) -> tuple[str, ...]:
    lt = text.find("<")
    if lt < 0:
        return ()
    inner = text[lt + 1 : text.rfind(">")]
    return tuple(p for p in split_top_level(inner) if p)
