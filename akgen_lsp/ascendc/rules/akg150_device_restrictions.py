"""AKG150 device-restrictions: C++ that device code cannot use.

## What it does
Inside device code (``__aicore__``/``__global__`` functions and the methods of kernel classes) it reports:

- dynamic memory: ``new``, ``delete``, ``malloc``/``calloc``/``realloc``/``free``;
- ``virtual`` member functions of a kernel class;
- a device function that calls itself (recursion);
- standard-library containers and algorithms (``std::vector``, ``std::map``, ``std::string``, ``std::sort``, ...);
- exceptions (``throw``, ``try``);
- file and stream I/O (``fopen``, ``fprintf``, ``std::ifstream``, ``std::cout``, ...);
- host runtime calls (``aclrtMalloc``, ``aclrtMemcpy``, ... any ``acl*`` function).

Compile-time library pieces are fine: ``std::is_same_v``, ``std::min``/``std::max``, ``<type_traits>``,
``<cstdint>``, ``std::tuple``. Host code in the same file (a tiling function, ``main``, the ``<<<...>>>``
wrappers) and code compiled only for CPU debugging (``#ifdef ASCENDC_CPU_DEBUG``) are not device code.

## Why is this bad?
The AI Core has no heap, no call stack for unbounded recursion, no virtual dispatch tables in device memory, no
exception support and no file system. The standard library's containers and algorithms are host functions.
bisheng rejects such code ("calling a __host__ function ... from a __aicore__ function is not allowed") or it
cannot run on the core.

## Example
```cpp
__aicore__ inline void Compute(int32_t progress)
{
    std::vector<float> scale(tileLength);
    float* tmp = new float[tileLength];
}
```

Use instead:
```cpp
__aicore__ inline void Compute(int32_t progress)
{
    LocalTensor<float> scale = scaleBuf.Get<float>();   // TBuf<TPosition::VECCALC> scaleBuf
}
```

## Fix safety
No automatic fix: each needs a design change (a TBuf, a loop instead of recursion, a template instead of a
virtual function).

## References
- Ascend C programming guide: restrictions of device-side C++ (no dynamic memory, virtual functions,
  recursion, exceptions, STL, file I/O)
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from tree_sitter import Node

from akgen_lsp.ascendc import syntax
from akgen_lsp.ascendc.context import LintContext
from akgen_lsp.ascendc.kernel_model import Function, KernelModel, kernel_model
from akgen_lsp.ascendc.rules import Rule
from akgen_lsp.ascendc.syntax import Call, ParsedFile
from akgen_lsp.findings import Finding, Severity, Span

CODE = "AKG150"

STL_CONTAINERS = frozenset(
    {
        "vector",
        "map",
        "unordered_map",
        "set",
        "unordered_set",
        "multimap",
        "multiset",
        "unordered_multimap",
        "unordered_multiset",
        "list",
        "forward_list",
        "deque",
        "queue",
        "stack",
        "priority_queue",
        "string",
        "wstring",
        "basic_string",
        "shared_ptr",
        "unique_ptr",
        "weak_ptr",
        "function",
        "stringstream",
        "ostringstream",
        "istringstream",
        "thread",
        "mutex",
        "any",
        "regex",
    }
)
STL_ALGORITHMS = frozenset(
    {
        "sort",
        "stable_sort",
        "partial_sort",
        "nth_element",
        "find",
        "find_if",
        "for_each",
        "accumulate",
        "transform",
        "reverse",
        "unique",
        "count_if",
        "iota",
        "binary_search",
        "lower_bound",
        "upper_bound",
        "make_shared",
        "make_unique",
        "to_string",
        "stoi",
        "stof",
        "stol",
        "random_shuffle",
        "shuffle",
    }
)
FILE_IO_CALLS = frozenset(
    {
        "fopen",
        "fclose",
        "fread",
        "fwrite",
        "fprintf",
        "fscanf",
        "fgets",
        "fputs",
        "fseek",
        "ftell",
        "fflush",
        "remove",
        "rename",
        "freopen",
        "open",
        "close",
    }
)
STREAMS = frozenset({"ifstream", "ofstream", "fstream", "cout", "cerr", "clog", "cin"})
ALLOC_CALLS = frozenset({"malloc", "calloc", "realloc", "free", "aligned_alloc", "posix_memalign"})
_ACL_RE = re.compile(r"acl[A-Za-z]\w*")
_NAMED = ALLOC_CALLS | FILE_IO_CALLS
_TEMPLATE_HEAD_RE = re.compile(r"\btemplate\s*<[^;{}]*>\s*(?:\w+\s*\((?:[^()]|\([^()]*\))*\)\s*)*$")


_KEYWORD_RE = re.compile(rb"\b(new|delete|throw|try)\b")
_KIND_OF = {
    "new_expression": "new",
    "delete_expression": "delete",
    "throw_statement": "throw",
    "throw_expression": "throw",
    "try_statement": "try",
}


def _nodes(pf: ParsedFile) -> list[tuple[str, Node]]:
    """(kind, node) of the ``new``/``delete``/``throw``/``try`` expressions and the ``std::`` names of the file:
    found from the keywords in the text (cheaper than a walk of the whole tree)."""
    out: list[tuple[str, Node]] = []
    words = any(w in pf.data for w in (b"new", b"delete", b"throw", b"try"))  # else the scan finds nothing
    for m in _KEYWORD_RE.finditer(pf.data) if words else ():
        leaf = pf.root.descendant_for_byte_range(m.start(), m.end())
        parent = leaf.parent if leaf is not None else None
        if parent is not None and parent.type in _KIND_OF and leaf.start_byte == parent.start_byte:
            out.append((_KIND_OF[parent.type], parent))
    out.extend(("qualified", ref.node) for ref in syntax.qualified_refs(pf) if ref.parts[:1] == ("std",))
    return out


def check(ctx: LintContext) -> Iterator[Finding]:
    model = kernel_model(ctx)
    pf = ctx.parsed
    reported: set[tuple[int, int]] = set()

    def fresh(f: Finding) -> bool:
        key = (f.span.line, f.span.column)
        if key in reported:
            return False
        reported.add(key)
        return True

    names = model.call_names()
    wanted = (names & (_NAMED | STL_ALGORITHMS | STL_CONTAINERS | set(model.function_names))) | {
        n for n in names if n.startswith("acl")
    }
    for fn, c in model.calls_named(*sorted(wanted)):
        if c.receiver is not None or (c.qualifier is not None and c.qualifier.lstrip(":") != "std"):
            continue
        if c.qualifier is None and c.short in model.function_names and c.short != fn.name:
            continue  # a call of another function of the file: only self-calls matter here
        if (
            fn.body is None
            or not model.is_device(fn)
            or model.in_cpu_only(fn.node)
            or model.in_cpu_only(c.node)
        ):
            continue
        yield from filter(fresh, _call(ctx, model, fn, c, f"in __aicore__ function '{fn.name}'"))
    for kind, n in _nodes(pf):
        if model.in_cpu_only(n):
            continue
        fn = model.function_of(n)
        if fn is not None:
            if not model.is_device(fn):
                continue
            where = f"in __aicore__ function '{fn.name}'"
        else:
            cls = syntax.class_at(pf, n)
            kc = model.classes.get(cls.name.rsplit("::", 1)[-1]) if cls is not None else None
            if kc is None or not kc.is_kernel_class:
                continue
            where = f"in kernel class '{kc.name}'"
        yield from filter(fresh, _node(ctx, kind, n, where))
    if "virtual" in ctx.text:
        for cls in model.classes.values():
            if cls.is_kernel_class and "virtual" in pf.node_text(cls.node):
                yield from _virtuals(ctx, cls.node)


def _finding(ctx: LintContext, span: Span, message: str) -> Finding:
    return Finding(CODE, message, span, Severity.ERROR, "akgen-lint", "device_restriction")


def _node(ctx: LintContext, kind: str, n: Node, where: str) -> Iterator[Finding]:
    pf = ctx.parsed
    head = pf.span(n.children[0]) if n.children else pf.span(n)
    if kind == "new":
        if n.child_by_field_id(syntax.F_PLACEMENT) is None:
            yield _finding(
                ctx,
                head,
                f"'new' {where}: device code has no heap; take memory from the TPipe (a TBuf "
                "or a queue) instead",
            )
    elif kind == "delete":
        yield _finding(ctx, head, f"'delete' {where}: device code has no heap")
    elif kind == "throw":
        yield _finding(
            ctx,
            head,
            f"'throw' {where}: exceptions are not supported in device code; check with "
            "ASSERT or return a status",
        )
    elif kind == "try":
        yield _finding(ctx, head, f"'try' {where}: exceptions are not supported in device code")
    elif kind == "qualified" and n.parent is not None and n.parent.type != "qualified_identifier":
        std = _std_name(pf.node_text(n))
        if std is None:
            return
        first = std.split("::")[0]
        if first in STL_CONTAINERS:
            yield _finding(
                ctx,
                pf.span(n),
                f"'std::{first}' {where}: standard-library containers allocate on the "
                "heap, which device code does not have; use a LocalTensor from a TBuf, "
                "or a fixed-size array",
            )
        elif first in STREAMS:
            yield _finding(
                ctx,
                pf.span(n),
                f"'std::{first}' {where}: device code has no file or stream I/O; use "
                "printf or DumpTensor for debugging output",
            )


def _std_name(pf_text: str) -> str | None:
    """``std::vector<int>`` -> ``vector``; None when not in namespace std."""
    text = re.sub(r"\s+", "", pf_text)
    text = re.sub(r"<.*", "", text)
    text = text.removeprefix("::")
    if not text.startswith("std::"):
        return None
    return text[len("std::") :]


def _call(ctx: LintContext, model: KernelModel, fn: Function, c: Call, where: str) -> Iterator[Finding]:
    if c.receiver is not None:
        return
    pf = ctx.parsed
    if c.qualifier is not None:
        if c.qualifier.lstrip(":") != "std":
            return
        fnode = c.node.child_by_field_id(syntax.F_FUNCTION)
        span = pf.span(fnode) if fnode is not None else c.name_span
        std = c.short
        if std in STL_ALGORITHMS or std in STL_CONTAINERS:
            yield _finding(
                ctx,
                span,
                f"'std::{std}' {where}: the C++ standard library's containers and algorithms "
                "are host code; use Ascend C APIs on LocalTensors (ReduceSum, Sort, ...) or "
                "a plain loop",
            )
        elif std in ALLOC_CALLS:
            yield _finding(ctx, span, f"'std::{std}' {where}: device code has no heap")
        elif std in FILE_IO_CALLS:
            yield _finding(ctx, span, f"'std::{std}' {where}: device code has no file I/O")
        return
    name = c.short
    if c.user_defined or name in model.function_names:
        if name == fn.name and _is_recursion(model, fn, c):
            yield _finding(
                ctx,
                c.name_span,
                f"'{name}' calls itself: recursion is not supported in device code "
                "(the AI Core stack is small and fixed); use a loop",
            )
        return
    if name in ALLOC_CALLS:
        yield _finding(
            ctx,
            c.name_span,
            f"'{name}' {where}: device code has no heap; take memory from the TPipe "
            "(a TBuf or a queue) instead",
        )
    elif name in FILE_IO_CALLS - {"open", "close", "remove", "rename"}:
        yield _finding(
            ctx,
            c.name_span,
            f"'{name}' {where}: device code has no file I/O; use printf or DumpTensor for debugging output",
        )
    elif _ACL_RE.fullmatch(name):
        yield _finding(
            ctx,
            c.name_span,
            f"'{name}' {where}: it is a host runtime function (AscendCL); call it "
            "from the host code that launches the kernel",
        )


def _is_recursion(model: KernelModel, fn: Function, c: Call) -> bool:
    """A direct self-call of a non-template function with one definition (overloads and compile-time recursion
    over template arguments are left alone)."""
    if fn.is_template or fn.fn.template_params or c.template_args or c.qualifier is not None:
        return False
    if len(model.function_names.get(fn.name, [])) != 1 or len(c.args) > len(fn.params):
        return False
    # an argument whose declared type differs from the parameter's: an overload declared elsewhere
    pf = model.pf
    before = pf.text.encode("utf-8", errors="surrogatepass")[max(0, fn.start_byte - 400) : fn.start_byte]
    if _TEMPLATE_HEAD_RE.search(before.decode("utf-8", errors="replace")):
        return False  # a template whose head the tree did not attach (a macro between `template <>` and it)
    for arg, param in zip(c.args, fn.params, strict=False):
        if arg.type == "cast_expression":
            return False  # converted to another type: another overload is meant
        if arg.type != "identifier":
            continue
        d = syntax.lookup(pf, pf.node_text(arg), arg)
        if d is not None and (d.type_name.rsplit("::", 1)[-1], d.template_args) != (
            param.type_name.rsplit("::", 1)[-1],
            param.template_args,
        ):
            return False
    return True


def _virtuals(ctx: LintContext, cls_node: Node) -> Iterator[Finding]:
    pf = ctx.parsed
    body = cls_node.child_by_field_id(syntax.F_BODY)
    if body is None:
        return
    for n in body.named_children:
        target = n.named_children[-1] if n.type == "template_declaration" and n.named_children else n
        for ch in target.children:
            if ch.type == "virtual":
                yield _finding(
                    ctx,
                    pf.span(ch),
                    "'virtual' in a kernel class: device code has no virtual "
                    "dispatch; use templates (static polymorphism) instead",
                )
                break


RULE = Rule(
    CODE,
    "device-restrictions",
    "C++ that device code cannot use: heap, virtual, recursion, STL, "
    "exceptions, file I/O, host runtime calls",
    check,
    region="function",
)
