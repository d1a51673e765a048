"""AKG101 unknown API: a name in namespace ``AscendC`` (or a method of an Ascend C class) that does not exist.

## What it does
Checks every name written as ``AscendC::X`` (calls, types, templates, enumerators such as
``AscendC::HardEvent::V_S``; in a file that includes headers of its own, which may add names to the namespace,
only names close to a real one), every method called on an object whose Ascend C class is known from its declaration
(``TQue``, ``TPipe``, ``LocalTensor``, ``GlobalTensor``, ``TBuf``, ...) and, in files with
``using namespace AscendC``, unqualified calls that look like a misspelt Ascend C function, against the API
catalog. Names the file defines itself (functions, classes, macros, aliases) are never reported.

## Why is this bad?
bisheng rejects the kernel: ``no member named 'Softmax' in namespace 'AscendC'``. A hallucinated API is the most
common compile failure of generated AscendC code (three quarters of the compile failures of general models in
MultiKernelBench), and the real name is usually one letter away (``SoftMax``, ``BroadCast``).

## Example
```cpp
AscendC::Softmax(dst, src, tiling);        // no member named 'Softmax' in namespace 'AscendC'
inQueueX.Dequeue<half>();                   // no member named 'Dequeue' in 'AscendC::TQue'
```

Use instead:
```cpp
AscendC::SoftMax<half>(dst, sum, max, src, tiling);
inQueueX.DeQue<half>();
```

## Fix safety
The rename is safe when the catalog has exactly one close name (or lists the invented name with a certain
replacement in the same scope): the corrected name is the only one that can be meant. With several candidates
each is offered as an unsafe fix. The arguments are never changed, so a rename can still leave a call that needs
other arguments (AKG102 then reports it).

## References
- clang: ``err_no_member``, ``err_no_member_suggest``, ``err_undeclared_var_use_suggest``
- Ascend C API reference (asc-devkit ``docs/zh/api``), the project's catalog (``akgen_lsp/ascendc/catalog``)
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator

from akgen_lsp.ascendc.catalog import Catalog, Invented, parse_version
from akgen_lsp.ascendc.context import LintContext
from akgen_lsp.ascendc.includes import project_index
from akgen_lsp.ascendc.rules import Rule
from akgen_lsp.ascendc.syntax import (
    ASCENDC,
    ParsedFile,
    calls,
    foreign_names_possible,
    lookup,
    macros,
    qualified_refs,
    user_defined_names,
)
from akgen_lsp.findings import Edit, Finding, Fix, Severity, Span

CODE = "AKG101"

# C, C++ and compiler names an unqualified call may use without being an Ascend C API
_BUILTIN_TEXT = """
abs fabs fabsf labs llabs min max fmin fmax fminf fmaxf exp expf exp2 log logf log2 log10 pow powf sqrt sqrtf
rsqrt floor floorf ceil ceilf round roundf trunc truncf sin cos tan sinf cosf tanf tanh tanhf asin acos atan
atan2 sinh cosh erf erff isnan isinf isfinite signbit copysign fmod fmodf ldexp frexp modf hypot cbrt
printf fprintf sprintf snprintf puts memcpy memset memmove memcmp strlen strcmp strcpy malloc free calloc
assert static_assert sizeof alignof offsetof decltype typeid move forward swap get tie make_tuple make_pair
declval addressof launder size begin end data exit abort
"""
BUILTINS = frozenset(_BUILTIN_TEXT.split())


def check(ctx: LintContext) -> Iterator[Finding]:
    if "AscendC" not in ctx.text:
        return
    pf, cat = ctx.parsed, ctx.catalog
    user = user_defined_names(pf)
    seen: set[int] = set()
    for f in (*_qualified(ctx, pf, cat, user, seen), *_members_and_unqualified(ctx, pf, cat, user, seen)):
        if not _project_declares(ctx, f):
            yield f


def _project_declares(ctx: LintContext, f: Finding) -> bool:
    """Whether a header of the kernel's project declares the reported name in namespace AscendC (read lazily,
    only when there is a finding to drop)."""
    names = ctx.memo.get("akg101.project")
    if names is None:
        index = project_index(ctx.path)
        names = ctx.memo["akg101.project"] = index.ascendc_names() if index is not None else frozenset()
    if not names:
        return False
    short, scope = str(f.data.get("name", "")), str(f.data.get("scope", ""))
    return f"{scope}::{short}" in names or f"{ASCENDC}::{short}" in names


# ----------------------------------------------------------------------------------------- AscendC::X


def _qualified(
    ctx: LintContext, pf: ParsedFile, cat: Catalog, user: frozenset[str], seen: set[int]
) -> Iterator[Finding]:
    for ref in qualified_refs(pf):
        parts = ref.parts
        if parts[0] != ASCENDC or len(parts) < 2:
            continue
        parent = ref.node.parent
        if parent is not None and (
            parent.type == "namespace_alias_definition"
            or (parent.type == "using_declaration" and pf.node_text(parent).split()[1:2] == ["namespace"])
        ):
            continue  # `using namespace AscendC::Te;` names a namespace, not an API
        name = f"{ASCENDC}::{parts[1]}"
        if name not in cat:
            if cat.known(name) or parts[1] in user or len(parts) > 2:
                # `AscendC::X::Y` with X unknown: a nested namespace or type the catalog does not cover (Reg, Std,
                # MicroAPI, ...); judging Y is impossible and X is most likely real
                continue
            finding = _unknown(
                ctx, cat, ASCENDC, parts[1], ref.role, pf.span(ref.part_nodes[1]), namespace=True
            )
            if foreign_names_possible(pf) and not finding.fixes and "replacement" not in finding.data:
                # a header of the kernel's own (platform.h, ...) may add names to namespace AscendC: report only
                # what looks like a misspelling of a real API
                continue
            seen.add(ref.part_nodes[1].start_byte)
            yield finding
            continue
        # deeper parts: enumerators of an enum, members of a nested namespace, static methods of a class
        scope = name
        for i in range(2, len(parts)):
            entry = cat.get(scope)
            if entry is None:
                break
            member = cat.member(scope, parts[i]) if entry.kind == "class" else cat.get(f"{scope}::{parts[i]}")
            if member is not None:
                scope = member.name
                continue
            if cat.known(f"{scope}::{parts[i]}") or (
                entry.kind == "class" and cat.known_member(scope, parts[i])
            ):
                break  # the newest headers declare it (the hand-written entry lists only part of the members)
            known_members = cat.children.get(scope, [])
            checkable = entry.kind in ("enum", "namespace") or (
                entry.kind == "class" and ref.role == "call" and i == len(parts) - 1 and known_members
            )
            if checkable and known_members and parts[i] not in user:
                seen.add(ref.part_nodes[i].start_byte)
                yield _unknown(
                    ctx,
                    cat,
                    scope,
                    parts[i],
                    ref.role,
                    pf.span(ref.part_nodes[i]),
                    namespace=False,
                    enum=entry.kind == "enum",
                    ns_kind=entry.kind,
                )
            break


# ----------------------------------------------------------------------------------------- methods, free calls


def _members_and_unqualified(
    ctx: LintContext, pf: ParsedFile, cat: Catalog, user: frozenset[str], seen: set[int]
) -> Iterator[Finding]:
    for call in calls(pf, cat):
        if call.resolved is not None or call.name_node.start_byte in seen:
            continue
        if not re.fullmatch(r"[A-Za-z_]\w*", call.short):
            continue
        if call.receiver is not None:
            cls = call.receiver_type
            if not cls or not cls.startswith(ASCENDC + "::"):
                continue
            entry = cat.get(cls)
            if entry is None or entry.kind != "class" or not cat.members(cls):
                continue  # the catalog does not know this class's members: nothing to compare with
            if cat.known_member(cls, call.short):
                continue  # declared by the newest headers (a base class, or a member the entry does not list)
            seen.add(call.name_node.start_byte)
            yield _unknown(
                ctx, cat, cls, call.short, "call", call.name_span, namespace=False, ns_kind="class"
            )
            continue
        if call.qualifier is not None or call.user_defined or not call.ascendc_visible:
            continue
        short = call.short
        if not short[:1].isupper() or "_" in short or short.isupper() or short in BUILTINS or short in user:
            continue  # snake_case names are the raw CCE intrinsics (pipe_barrier, set_flag), which are global
        if lookup(pf, short, call.node) is not None or short in macros(pf):
            continue  # a callable object (lambda, functor) or a macro
        if foreign_names_possible(pf):
            return
        if cat.known(f"{ASCENDC}::{short}") or short in cat.names_by_short:
            continue  # a real API the hand-written catalog has no entry for (or one of a nested namespace in scope)
        invented = _invented(ctx, cat, f"{ASCENDC}::{short}")
        pool = [e.short for e in cat.namespace_members(ASCENDC)]
        suggestions = [s for s in suggest(cat, short, pool) if _close(short, s)]
        if invented is None and not suggestions:
            continue  # nothing Ascend-like: most likely a helper from a header we cannot see
        seen.add(call.name_node.start_byte)
        yield _finding(
            ctx,
            f"use of undeclared identifier '{short}'",
            short,
            ASCENDC,
            invented,
            suggestions,
            call.name_span,
        )


def suggest(cat: Catalog, short: str, pool: list[str], n: int = 3) -> list[str]:
    """The catalog's suggestions, then names close to `short` when case is ignored (``Dequeue`` -> ``DeQue``)."""
    out = list(cat.suggest(short, pool, n))
    lowered: dict[str, str] = {}
    for p in pool:
        lowered.setdefault(p.lower(), p)
    for low in difflib.get_close_matches(short.lower(), list(lowered), n=n, cutoff=0.8):
        cand = lowered[low]
        if cand != short and cand not in out:
            out.append(cand)
    return out[:n]


def _close(a: str, b: str) -> bool:
    """Close enough to call an unqualified name a misspelling: same letters ignoring case, or one edit apart."""
    if a.lower() == b.lower():
        return True
    return difflib.SequenceMatcher(None, a.lower(), b.lower()).ratio() >= 0.9


# ----------------------------------------------------------------------------------------- findings


def _invented(ctx: LintContext, cat: Catalog, name: str) -> Invented | None:
    inv = cat.invented.get(name)
    if inv is None:
        return None
    if inv.max_version and parse_version(ctx.cann_version) >= parse_version(inv.max_version):
        return None
    return inv


def _unknown(
    ctx: LintContext,
    cat: Catalog,
    scope: str,
    short: str,
    role: str,
    span: Span,
    namespace: bool,
    enum: bool = False,
    ns_kind: str = "namespace",
) -> Finding:
    if namespace:
        what = {"template": "no template named", "type": "no type named"}.get(role, "no member named")
        head = f"{what} '{short}' in namespace '{scope}'"
        pool = cat.namespace_names(scope)
    else:
        head = f"no member named '{short}' in '{scope}'"
        pool = [e.short for e in (cat.members(scope) if ns_kind == "class" else cat.children.get(scope, []))]
    scopes = cat.bases_of(scope) if ns_kind == "class" else [scope]
    invented = next((i for c in scopes if (i := _invented(ctx, cat, f"{c}::{short}")) is not None), None)
    return _finding(ctx, head, short, scope, invented, suggest(cat, short, pool), span, scopes)


def _finding(
    ctx: LintContext,
    head: str,
    short: str,
    scope: str,
    invented: Invented | None,
    suggestions: list[str],
    span: Span,
    scopes: list[str] | None = None,
) -> Finding:
    """`scopes`: where a replacement may live for a plain rename (the class and its bases)."""
    fixes: list[Fix] = []
    message = head
    data: dict[str, object] = {"name": short, "scope": scope, "suggestions": list(suggestions)}
    candidates: list[str] = []
    safe_first = False
    if invented is not None:
        rep_scope, _, rep_short = invented.replacement.rpartition("::")
        data["replacement"] = invented.replacement
        if invented.note:
            data["note"] = invented.note
        if rep_scope in (scopes or [scope]):
            candidates = [rep_short] + [s for s in suggestions if s != rep_short]
            safe_first = invented.certain
        else:
            message = f"{head}; use '{invented.replacement}'"
            candidates = []
    else:
        candidates = list(suggestions)
        safe_first = len(candidates) == 1
    if candidates:
        message = f"{head}; did you mean '{candidates[0]}'?"
    if invented is not None and invented.note:
        message = f"{message} ({invented.note.rstrip('.')})"
    for i, cand in enumerate(candidates[:3]):
        fixes.append(Fix(f"Rename to '{cand}'", (Edit(span, cand),), safe=safe_first and i == 0))
    return Finding(
        code=CODE,
        message=message,
        span=span,
        severity=Severity.ERROR,
        source="akgen-lint",
        error_class="hallucinated_api",
        fixes=tuple(fixes),
        data=data,
    )


RULE = Rule(
    CODE,
    "unknown-api",
    "A name in namespace AscendC or a method of an Ascend C class that does not exist.",
    check,
)
