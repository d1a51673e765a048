"""AKG110 kernel-entry: a kernel entry declared wrong, or device code calling a host function.

## What it does
Checks every kernel entry (a function declared ``__global__``):

- it is a vector or cube kernel: ``__global__ __aicore__`` (or ``__vector__``, ``__cube__``, ``__mix__(c, v)``);
- a kernel of a custom-op project (a file under ``op_kernel/``, one that uses ``GET_TILING_DATA`` or
  ``TILING_KEY_IS``, or an entry ending in ``GM_ADDR workspace, GM_ADDR tiling`` that the file does not launch
  itself) has C linkage (``extern "C"``), so the framework can find it by name; a direct-launch kernel
  (``<<<...>>>``, ``.asc``) does not need it, and neither does a kernel of CANN's own operator repositories
  (a project whose ``version.cmake`` calls ``set_cann_package``, such as hicann ops-math / ops-nn for CANN 9.x:
  their build generates the launch code from the op definition and binds the entry by its C++ name; 370 of the
  620 ops-math entries are written without it), nor a kernel under an ``op_kernel/`` with no ``op_host/`` beside
  it that the file launches itself with ``<<<...>>>`` (cann-bench's own kernels);
- it returns ``void`` and is a free function, not a member of a class.

An ``extern "C" __aicore__ void`` function with ``GM_ADDR`` parameters, in a file without any ``__global__``
function, is reported as a kernel entry that lacks ``__global__`` (not when it is ``inline`` or also takes a
pointer to something other than GM, such as ``TPipe*`` or a tiling struct: a helper another file calls).

It also reports a call from device code (an ``__aicore__`` function) to a function of this file that is not
``__aicore__``.

SIMT kernels (``__global__ __launch_bounds__(n)``, plain pointer parameters), AI CPU kernels (``__aicpu__``) and
template kernels (which cannot have C linkage) are left alone. A called function counts as a host function only
when every definition the file has of it lacks a device qualifier (``constexpr`` functions are fine), and none of
them sits in an ``#if`` branch.

## Why is this bad?
The op framework looks the entry up by its unmangled name (``kernel entry 'x' not implement in 'x.cpp'``);
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

from akgen_lsp.ascendc import syntax
from akgen_lsp.ascendc.context import LintContext
from akgen_lsp.ascendc.kernel_model import Function, KernelModel, kernel_model, receiver_base
from akgen_lsp.ascendc.rules import Rule
from akgen_lsp.findings import Edit, Finding, Fix, Severity, Span

CODE = "AKG110"
_GM_PARAM_RE = re.compile(r"\bGM_ADDR\b|__gm__")
_NON_GM_POINTER_RE = re.compile(r"[(,]\s*(?:const\s+)?(?!__gm__)[A-Za-z_][\w:<>]*\s*\*")


def check(ctx: LintContext) -> Iterator[Finding]:
    model = kernel_model(ctx)
    entries = model.entries
    for fn in entries:
        yield from _entry(ctx, fn)
    if not entries:
        yield from _missing_global(ctx, model)
    yield from _host_calls(ctx, model)


def _point(ctx: LintContext, byte: int) -> Span:
    return ctx.parsed.span_of_bytes(byte, byte)


def _params_text(ctx: LintContext, fn: Function) -> str:
    decl = fn.node.child_by_field_id(syntax.F_DECLARATOR)
    while decl is not None and decl.type != "function_declarator":
        decl = decl.child_by_field_id(syntax.F_DECLARATOR)
    params = decl.child_by_field_id(syntax.F_PARAMETERS) if decl is not None else None
    return ctx.parsed.original_text(params) if params is not None else ""


def _is_simt(ctx: LintContext, fn: Function) -> bool:
    """A SIMT kernel (``__global__ __launch_bounds__(n)``, plain pointers) rather than an AI Core vector/cube one."""
    return "__launch_bounds__" in fn.qualifiers or not _GM_PARAM_RE.search(_params_text(ctx, fn))


def _error(span: Span, message: str, error_class: str, fixes: tuple[Fix, ...] = ()) -> Finding:
    return Finding(CODE, message, span, Severity.ERROR, "akgen-lint", error_class, fixes)


def _entry(ctx: LintContext, fn: Function) -> Iterator[Finding]:
    if "__aicpu__" in fn.qualifiers:
        return  # an AI CPU kernel: other rules
    pf = ctx.parsed
    name_span = pf.span(fn.name_node)
    if fn.class_name is not None and "static" not in fn.qualifiers.split():
        yield _error(
            name_span,
            f"kernel function '{fn.name}' must be a free function or static member function: "
            f"move it out of '{fn.class_name}' and create the class object inside it",
            "syntax",
        )
        return
    typ = fn.node.child_by_field_id(syntax.F_TYPE)
    if fn.return_type != "void" and typ is not None:
        yield _error(
            pf.span(typ),
            f"kernel function '{fn.name}' must have void return type (it returns "
            f"'{fn.return_type}'); write results through a GM_ADDR output parameter instead",
            "syntax",
        )
    simt = _is_simt(ctx, fn)
    if not fn.is_aicore and not simt:
        m = re.search(r"\b__global__\b", fn.qualifiers)
        fixes: tuple[Fix, ...] = ()
        if m is not None:
            at = fn.start_byte + len(fn.qualifiers[: m.end()].encode())
            fixes = (
                Fix("Add __aicore__ after __global__", (Edit(_point(ctx, at), " __aicore__"),), safe=True),
            )
        yield _error(
            name_span,
            f"kernel entry '{fn.name}' is __global__ but not __aicore__: declare it "
            "'__global__ __aicore__' (or __vector__, __cube__, __mix__(c, v))",
            "syntax",
            fixes,
        )
    if (
        not fn.extern_c
        and not fn.is_template
        and not simt
        and ctx.project.kind != "ops-repo"
        and _needs_c_linkage(ctx, fn)
    ):
        fix = Fix('Insert extern "C"', (Edit(_point(ctx, fn.start_byte), 'extern "C" '),), safe=True)
        yield _error(
            name_span,
            f"kernel entry '{fn.name}' lacks extern \"C\": in a custom-op project (CANN "
            f"{ctx.cann_version}) the op framework looks the entry up by its C name, and this one is "
            f"mangled (\"kernel entry '{fn.name}' not implement\"); declare it "
            f"'extern \"C\" __global__ __aicore__ void {fn.name}(...)'",
            "syntax",
            (fix,),
        )


_CUSTOM_OP_RE = re.compile(
    r"\b(?:GET_TILING_DATA\w*|TILING_KEY_IS|KERNEL_TASK_TYPE_DEFAULT|REGISTER_TILING_DEFAULT)\b"
)
_TILING_PARAMS_RE = re.compile(r"GM_ADDR\s+workspace\s*,\s*GM_ADDR\s+tiling\s*\)\s*$")


def _needs_c_linkage(ctx: LintContext, fn: Function) -> bool:
    """A kernel of a custom-op project (``op_kernel/``, tiling macros), which the framework finds by its C name; or
    one with the custom-op parameters (``..., GM_ADDR workspace, GM_ADDR tiling``) that this file does not launch
    itself. A kernel of a direct-launch project (``.asc``, ``<<<...>>>`` from another file) needs no C linkage."""
    if Path(ctx.path).suffix.lower() == ".asc":
        return False
    here = Path(ctx.path)
    if (
        ctx.project.kind == "direct"
        and here.is_absolute()
        and here.is_file()
        and _launched_here(ctx, fn.name)
    ):
        return False  # on disk, no op_host beside its op_kernel, launched with <<<...>>> here: C++ linkage is fine
    if "op_kernel" in Path(ctx.path).parts or _CUSTOM_OP_RE.search(ctx.text) is not None:
        return True
    params = _params_text(ctx, fn).replace("__gm__ uint8_t*", "GM_ADDR")
    return _TILING_PARAMS_RE.search(params) is not None and not _launched_here(ctx, fn.name)


def _launched_here(ctx: LintContext, name: str) -> bool:
    """Whether the file itself launches the kernel (then C++ linkage is fine)."""
    text = ctx.text
    if Path(ctx.path).suffix.lower() == ".asc" and re.search(
        rf"\b{re.escape(name)}\b", text.split(name, 1)[-1]
    ):
        return True
    return (
        re.search(
            rf"\b{re.escape(name)}\s*(?:<[^<>;]*>\s*)?<<<|ACLRT_LAUNCH_KERNEL\s*\(\s*{re.escape(name)}\s*\)",
            text,
        )
        is not None
    )


def _missing_global(ctx: LintContext, model: KernelModel) -> Iterator[Finding]:
    """An ``extern "C" __aicore__ void k(GM_ADDR ...)`` nobody calls, in a file without a __global__ function."""
    called = model.call_names()
    for fn in model.functions:
        if not (fn.extern_c and fn.is_aicore and fn.class_name is None and fn.return_type == "void"):
            continue
        params = _params_text(ctx, fn)
        if fn.name in called or not _GM_PARAM_RE.search(params):
            continue
        if re.search(r"\binline\b", fn.qualifiers) or _NON_GM_POINTER_RE.search(params):
            continue  # an inline helper, or one taking a TPipe* or tiling pointer: called from another file
        m = re.search(r"__aicore__|\[\s*aicore\s*\]", fn.qualifiers)
        fixes: tuple[Fix, ...] = ()
        if m is not None:
            at = fn.start_byte + len(fn.qualifiers[: m.start()].encode())
            fixes = (Fix("Insert __global__", (Edit(_point(ctx, at), "__global__ "),), safe=True),)
        yield _error(
            ctx.parsed.span(fn.name_node),
            f"kernel entry '{fn.name}' is not __global__: a kernel entry is declared "
            f"'extern \"C\" __global__ __aicore__ void {fn.name}(...)'",
            "syntax",
            fixes,
        )


# ------------------------------------------------------------------------------------------------ host calls


def _host_calls(ctx: LintContext, model: KernelModel) -> Iterator[Finding]:
    pf = ctx.parsed
    orig = pf.text
    for caller, c in model.calls_named(*sorted(model.call_names() & set(model.function_names))):
        if caller.body is None or not caller.has_device_mark or model.in_cpu_only(caller.node):
            continue
        if c.qualifier is not None or model.in_cpu_only(c.node):
            continue  # Ns::f, Class::f: other overload sets
        candidates = _candidates(model, caller, c.short, c.receiver)
        if not candidates or any(_device_ok(f) for f in candidates) or _declared_device(orig, c.short):
            continue
        if any(model.in_cpu_only(f.node) or model.in_preprocessor_branch(f.node) for f in candidates):
            continue  # which definition a build compiles is not told by this file alone
        callee = candidates[0]
        fixes = (
            Fix(
                f"Declare '{callee.name}' __aicore__",
                (Edit(_point(ctx, callee.start_byte), "__aicore__ "),),
                safe=False,
            ),
        )
        yield _error(
            c.name_span,
            f'calling a __host__ function("{c.short}") from a __aicore__ function("{caller.name}") '
            f"is not allowed; declare '{c.short}' '__aicore__ inline'",
            "scope",
            fixes,
        )


def _device_ok(fn: Function) -> bool:
    return fn.has_device_mark or fn.is_constexpr or "__host__" in fn.qualifiers


def _declared_device(text: str, name: str) -> bool:
    """A prototype somewhere that declares `name` with a device qualifier."""
    pat = rf"(?:__aicore__|__device__|\[\s*aicore\s*\])[^;{{}}()]*\b{re.escape(name)}\s*\("
    return re.search(pat, text) is not None


def _candidates(model: KernelModel, caller: Function, name: str, receiver: Node | None) -> list[Function]:
    """The definitions a call may reach, when the file tells for sure; [] when it cannot tell."""
    defs = model.function_names.get(name, [])
    if receiver is None:
        own = [d for d in defs if caller.class_name and d.class_name == caller.class_name]
        if own:
            return own
        if caller.class_name and _bases_unknown(model, caller.class_name):
            return []  # may be a member of a base class we cannot see
        return [d for d in defs if d.class_name is None]
    if receiver.type == "this":
        return [d for d in defs if caller.class_name and d.class_name == caller.class_name]
    if receiver.type != "identifier":
        return []
    obj = receiver_base(model.pf, receiver)
    d = syntax.lookup(model.pf, obj, receiver) if obj else None
    if d is None or d.kind != "local" or d.is_pointer:
        return []
    cls_name = d.type_name.rsplit("::", 1)[-1]
    if cls_name not in model.classes or _bases_unknown(model, cls_name):
        return []
    return [f for f in defs if f.class_name == cls_name]


def _bases_unknown(model: KernelModel, name: str) -> bool:
    cls = model.classes.get(name)
    return cls is None or any(b not in model.classes for b in cls.bases)


RULE = Rule(
    CODE,
    "kernel-entry",
    'Kernel entry not extern "C" __global__ __aicore__ void, or device code calling a host function',
    check,
    region="function",
)
