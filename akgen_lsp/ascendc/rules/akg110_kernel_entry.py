"""AKG110 kernel-entry: a kernel entry declared wrong, or device code calling a host function.

## What it does
Checks every kernel entry (a function declared ``__global__``):

- it is a vector or cube kernel: ``__global__ __aicore__`` (or ``__vector__``, ``__cube__``, ``__mix__(c, v)``);
- it has C linkage (``extern "C"``) when nothing in the file launches it, so the runtime can find it by name;
- it returns ``void`` and is a free function, not a member of a class.

An ``extern "C" __aicore__ void`` function with ``GM_ADDR`` parameters, in a file without any ``__global__``
function, is reported as a kernel entry that lacks ``__global__``.

It also reports a call from device code (an ``__aicore__`` function) to a function of this file that is not
``__aicore__``.

SIMT kernels (``__global__ __launch_bounds__(n)``, plain pointer parameters) and template kernels (which cannot
have C linkage) are left alone.

## Why is this bad?
The kernel launcher looks the entry up by its unmangled name (``kernel entry 'x' not implement in 'x.cpp'``);
``__aicore__`` compiles the function for the AI Core; a kernel returns nothing. Device code can only call device
functions: bisheng stops with ``calling a __host__ function("f") from a __aicore__ function("k") is not allowed``.

## Example
```cpp
__global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    KernelAdd op;
    op.Init(x, y, z);
    op.Process();
}
```

Use instead:
```cpp
extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
    KernelAdd op;
    op.Init(x, y, z);
    op.Process();
}
```

## Fix safety
Inserting ``extern "C"``, ``__aicore__`` after ``__global__``, or ``__global__`` before ``__aicore__`` on an entry
is safe. Adding ``__aicore__`` to a called host function is unsafe: host code that calls the same function would
then no longer compile.

## References
- Ascend C programming guide: kernel function definition (``extern "C" __global__ __aicore__ void``)
- bisheng (clang) diagnostic: ``calling a __host__ function(...) from a __aicore__ function(...) is not allowed``
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

from tree_sitter import Node

from akgen_lsp.ascendc.context import LintContext
from akgen_lsp.ascendc.kernel_model import (
    Function,
    KernelModel,
    _strip_ns,
    call_parts,
    kernel_model,
    receiver_base,
)
from akgen_lsp.ascendc.rules import Rule
from akgen_lsp.ascendc.syntax import walk
from akgen_lsp.findings import Edit, Finding, Fix, Severity, Span

CODE = "AKG110"
_GM_PARAM_RE = re.compile(r"\bGM_ADDR\b|__gm__")


def check(ctx: LintContext) -> Iterator[Finding]:
    model = kernel_model(ctx)
    entries = model.entries
    for fn in entries:
        yield from _entry(ctx, model, fn)
    if not entries:
        yield from _missing_global(ctx, model)
    yield from _host_calls(ctx, model)


def _point(ctx: LintContext, byte: int) -> Span:
    sp = ctx.parsed.span_of_bytes(byte, byte)
    return sp


def _orig(ctx: LintContext) -> bytes:
    data = ctx.memo.get("akg110_orig")
    if data is None:
        data = ctx.text.encode("utf-8", errors="surrogatepass")
        ctx.memo["akg110_orig"] = data
    return data


def _params_text(ctx: LintContext, fn: Function) -> str:
    orig = _orig(ctx)
    return " ".join(orig[p.start_byte : p.end_byte].decode("utf-8", errors="replace") for p in fn.params)


def _is_simt(ctx: LintContext, fn: Function) -> bool:
    return "__launch_bounds__" in fn.qualifiers or not _GM_PARAM_RE.search(_params_text(ctx, fn))


def _entry(ctx: LintContext, model: KernelModel, fn: Function) -> Iterator[Finding]:
    pf = ctx.parsed
    name_span = pf.span(fn.name_node)
    if fn.class_name is not None and "static" not in fn.qualifiers.split():
        yield Finding(CODE, f"kernel function '{fn.name}' must be a free function or static member function: "
                            f"move it out of '{fn.class_name}' and create the class object inside it",
                      name_span, Severity.ERROR, "akgen-lint", "syntax")
        return
    typ = fn.node.child_by_field_name("type")
    if fn.return_type != "void" and typ is not None:
        yield Finding(CODE, f"kernel function '{fn.name}' must have void return type (it returns "
                            f"'{fn.return_type}'); write results to a GM_ADDR output parameter instead",
                      pf.span(typ), Severity.ERROR, "akgen-lint", "syntax")
    if not fn.is_aicore and not _is_simt(ctx, fn):
        m = re.search(r"\b__global__\b", fn.qualifiers)
        fixes: tuple[Fix, ...] = ()
        if m is not None:
            at = fn.start_byte + len(fn.qualifiers[: m.end()].encode())
            fixes = (Fix("Add __aicore__ after __global__", (Edit(_point(ctx, at), " __aicore__"),), safe=True),)
        yield Finding(CODE, f"kernel entry '{fn.name}' is __global__ but not __aicore__: declare it "
                            f"'__global__ __aicore__' (or __vector__ / __cube__ / __mix__(c, v))",
                      name_span, Severity.ERROR, "akgen-lint", "syntax", fixes)
    if not fn.extern_c and not fn.is_template and not _launched_here(ctx, fn.name) and not _is_simt(ctx, fn):
        fix = Fix('Insert extern "C"', (Edit(_point(ctx, fn.start_byte), 'extern "C" '),), safe=True)
        yield Finding(CODE, f"kernel entry '{fn.name}' lacks extern \"C\": its name is mangled, so the launcher "
                            f"does not find it (\"kernel entry '{fn.name}' not implement\"); declare it "
                            f"'extern \"C\" __global__ __aicore__ void {fn.name}(...)'",
                      name_span, Severity.ERROR, "akgen-lint", "syntax", (fix,))


def _launched_here(ctx: LintContext, name: str) -> bool:
    text = ctx.text
    if Path(ctx.path).suffix.lower() == ".asc" and name in text:
        return True
    return re.search(rf"\b{re.escape(name)}\s*(?:<[^<>;]*>\s*)?<<<|ACLRT_LAUNCH_KERNEL\s*\(\s*{re.escape(name)}\s*\)",
                     text) is not None


def _missing_global(ctx: LintContext, model: KernelModel) -> Iterator[Finding]:
    pf = ctx.parsed
    for fn in model.functions:
        if not (fn.extern_c and fn.is_aicore and fn.class_name is None and fn.return_type == "void"):
            continue
        if not _GM_PARAM_RE.search(_params_text(ctx, fn)):
            continue
        if _called_anywhere(model, fn.name):
            continue
        m = re.search(r"__aicore__|\[\s*aicore\s*\]", fn.qualifiers)
        fixes: tuple[Fix, ...] = ()
        if m is not None:
            at = fn.start_byte + len(fn.qualifiers[: m.start()].encode())
            fixes = (Fix("Insert __global__", (Edit(_point(ctx, at), "__global__ "),), safe=True),)
        yield Finding(CODE, f"kernel entry '{fn.name}' is not __global__: a kernel entry is declared "
                            f"'extern \"C\" __global__ __aicore__ void {fn.name}(...)'",
                      pf.span(fn.name_node), Severity.ERROR, "akgen-lint", "syntax", fixes)


def _called_anywhere(model: KernelModel, name: str) -> bool:
    pf = model.pf
    for fn in model.functions:
        if fn.body is None:
            continue
        for n in walk(fn.body):
            if n.type == "call_expression" and call_parts(pf, n)[0] == name:
                return True
    return False


# ------------------------------------------------------------------------------------------------ host calls


def _host_calls(ctx: LintContext, model: KernelModel) -> Iterator[Finding]:
    pf = ctx.parsed
    orig = _orig(ctx)
    for caller in model.functions:
        if caller.body is None or not caller.has_device_mark or model.in_cpu_only(caller.node):
            continue
        for n in walk(caller.body):
            if n.type != "call_expression":
                continue
            name, name_node, receiver, _args = call_parts(pf, n)
            if not name or name_node is None or name not in model.function_names:
                continue
            fn_node = n.child_by_field_name("function")
            if fn_node is not None and fn_node.type == "qualified_identifier":
                continue  # Ns::f or Class::f: another overload set than the one we index
            candidates = _candidates(model, caller, name, receiver)
            if not candidates or any(_device_ok(c) for c in candidates):
                continue
            if _declared_device(orig, name) or model.in_cpu_only(n):
                continue
            callee = candidates[0]
            fixes = (Fix(f"Declare '{callee.name}' __aicore__",
                         (Edit(_point(ctx, callee.node.start_byte), "__aicore__ "),), safe=False),)
            yield Finding(
                CODE,
                f"calling a __host__ function(\"{name}\") from a __aicore__ function(\"{caller.name}\") is not "
                f"allowed; declare '{name}' '__aicore__ inline'",
                pf.span(name_node), Severity.ERROR, "akgen-lint", "scope", fixes)


def _device_ok(fn: Function) -> bool:
    return fn.has_device_mark or fn.is_constexpr or "__host__" in fn.qualifiers


def _declared_device(orig: bytes, name: str) -> bool:
    """A prototype elsewhere that declares `name` with a device qualifier."""
    pat = re.compile(rb"(?:__aicore__|__device__|\[\s*aicore\s*\])[^;{}()]*\b" + re.escape(name.encode()) + rb"\s*\(")
    return pat.search(orig) is not None


def _candidates(model: KernelModel, caller: Function, name: str, receiver: Node | None) -> list[Function]:
    defs = model.function_names.get(name, [])
    if receiver is None:
        free = [d for d in defs if d.class_name is None]
        own = [d for d in defs if caller.class_name and d.class_name == caller.class_name]
        if own:
            return own
        if caller.class_name and _class_chain_unknown(model, caller.class_name):
            return []  # may be a member of a base we cannot see
        return free
    if receiver.type == "this":
        return [d for d in defs if caller.class_name and d.class_name == caller.class_name]
    obj = receiver_base(model.pf, receiver)
    if obj is None or receiver.type != "identifier" or caller.body is None:
        return []
    cls_name = _local_type(model, caller, obj)
    if cls_name is None or cls_name not in model.classes:
        return []
    if _class_chain_unknown(model, cls_name):
        return []
    return [d for d in defs if d.class_name == cls_name]


def _class_chain_unknown(model: KernelModel, name: str) -> bool:
    cls = model.classes.get(name)
    return cls is None or any(b not in model.classes for b in cls.bases)


def _local_type(model: KernelModel, fn: Function, obj: str) -> str | None:
    pf = model.pf
    assert fn.body is not None
    found = set()
    for n in walk(fn.body):
        if n.type != "declaration":
            continue
        typ = n.child_by_field_name("type")
        if typ is None:
            continue
        for d in n.children_by_field_name("declarator"):
            ident = d if d.type == "identifier" else d.child_by_field_name("declarator")
            if ident is not None and ident.type == "identifier" and pf.node_text(ident) == obj:
                found.add(_strip_ns(pf.node_text(typ)))
    return next(iter(found)) if len(found) == 1 else None


RULE = Rule(CODE, "kernel-entry", "Kernel entry not extern \"C\" __global__ __aicore__ void, or device code calling "
                                  "a host function", check)
