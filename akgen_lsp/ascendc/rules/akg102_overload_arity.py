"""AKG102 overload arity: a call to an Ascend C API with a number of arguments that no overload takes.

## What it does
For a call that resolves to a catalog function or method (``AscendC::Add``, ``inQueueX.AllocTensor``), it counts
the arguments (template arguments do not count) and reports the call when no overload of the API accepts that
many, taking default arguments and variadic overloads into account. The message lists the accepted counts and
the closest overloads' signatures.

## Why is this bad?
bisheng rejects it with ``no matching function for call to 'Add'`` followed by a list of candidates. Overload and
signature mismatches are the largest class of compile failures of generated AscendC code (about half in
AscendKernelGen's taxonomy): a count form called with a mask-and-repeat argument list, a reduction without its
work tensor, ``WholeReduceMax`` without its strides.

## Example
```cpp
AscendC::Add(zLocal, xLocal, yLocal);                 // no overload takes 3 arguments
AscendC::ReduceSum(dst, src, count);                   // the work tensor is missing
```

Use instead:
```cpp
AscendC::Add(zLocal, xLocal, yLocal, tileLength);
AscendC::ReduceSum(dst, src, workLocal, count);
```

## Fix safety
No automatic fix: which argument is missing or extra cannot be known. The finding's ``data`` carries the
candidate signatures for an editor or a repair model.

## References
- clang: ``err_ovl_no_viable_function_in_call``, ``note_ovl_candidate_arity``
- Ascend C API reference; the catalog's overloads (``akgen_lsp/ascendc/catalog``)
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from akgen_lsp.ascendc.catalog import Overload
from akgen_lsp.ascendc.context import LintContext
from akgen_lsp.ascendc.rules import Rule
from akgen_lsp.ascendc.syntax import Call, calls, foreign_names_possible, lookup
from akgen_lsp.findings import Finding, Severity

CODE = "AKG102"


def check(ctx: LintContext) -> Iterator[Finding]:
    cat = ctx.catalog
    # (fewest, most) arguments of each overload, by resolved name: worked out once per name in this lint
    arities: dict[str, tuple[tuple[int, int | None], ...]] = {}
    data = ctx.parsed.data
    lost = ctx.parsed.root.has_error  # an ERROR argument; else only a pack expansion (written "...") matters
    for call in calls(ctx.parsed, cat):
        if call.resolved is None:
            continue
        counts_of = arities.get(call.resolved)
        if counts_of is None:
            entry = cat.get(call.resolved)
            counts_of = arities[call.resolved] = (
                tuple((_min_args(o), _max_args(o)) for o in entry.overloads if o.form != "operator")
                if entry is not None and entry.kind in ("function", "method")
                else ()
            )
        if not counts_of:
            continue
        if call.receiver is None and call.qualifier is None and foreign_names_possible(ctx.parsed):
            continue  # an unqualified name may also find overloads from headers we cannot see
        if (lost or b"..." in data[call.node.start_byte : call.node.end_byte]) and any(
            a.type in ("parameter_pack_expansion", "ERROR") for a in call.args
        ):
            continue  # `args...` can be any number of arguments; an argument the parser lost cannot be counted
        n = len(call.args)
        if _accepted(counts_of, n):
            continue
        known = cat.names.get(call.resolved)
        if known is not None and known.accepts(n):
            continue  # a declaration of the newest headers takes n arguments (the hand-written list lacks it)
        if call.qualifier is None and call.receiver is None and _other_namespace_takes(ctx, call, n):
            continue  # unqualified: a same-named API of another namespace in scope (MicroAPI::Cast) may be meant
        entry = cat.get(call.resolved)
        assert entry is not None
        overloads = [o for o in entry.overloads if o.form != "operator"]
        closest = sorted(overloads, key=lambda o: (_distance(o, n), len(o.params)))[:2]
        counts = _describe_counts(overloads)
        message = (
            f"no matching function for call to '{call.short}': it takes {counts} argument"
            f"{'' if counts == '1' else 's'}, {n} given; closest: " + " | ".join(o.label() for o in closest)
        )
        yield Finding(
            code=CODE,
            message=message,
            span=call.name_span,
            severity=Severity.ERROR,
            source="akgen-lint",
            error_class="api_mismatch",
            data={
                "name": entry.name,
                "given": n,
                "accepted": counts,
                "candidates": [o.label() for o in overloads],
                "closest": [o.label() for o in closest],
            },
        )


_REG_TYPE = re.compile(r"\b(?:RegTensor|MaskReg|AddrReg|UnalignReg)\b|\b(?:MicroAPI|Reg)::")
_USING_NS = re.compile(r"\busing\s+namespace\s+([\w:]+)\s*;|\bnamespace\s+(\w+)\s*\{")


def _other_namespace_takes(ctx: LintContext, call: Call, n: int) -> bool:
    """Whether a namespace the file opens or uses (``using namespace AscendC::MicroAPI``, ``namespace Reg {``), or
    the register namespace that argument-dependent lookup reaches through a ``RegTensor`` / ``MaskReg`` argument,
    has a function of this name that the headers declare with `n` arguments."""
    spaces = ctx.memo.get("akg102.namespaces")
    if spaces is None:
        found = {a or b for a, b in _USING_NS.findall(ctx.text)}
        spaces = ctx.memo["akg102.namespaces"] = {
            s if s.startswith("AscendC") else f"AscendC::{s}" for s in found
        }
    names = ctx.catalog.names
    if any((kn := names.get(f"{ns}::{call.short}")) is not None and kn.accepts(n) for ns in spaces):
        return True
    if "RegTensor" in ctx.text or "MaskReg" in ctx.text:
        pf = ctx.parsed
        for a in call.args:
            if a.type != "identifier":
                continue
            name = pf.node_text(a)
            d = lookup(pf, name, a)
            declared = d.type_text if d is not None else ""
            if _REG_TYPE.search(declared or "") or (
                d is None
                and re.search(
                    rf"\b(?:RegTensor|MaskReg)\s*<[^;]*?>\s*(?:\w+\s*,\s*)*{re.escape(name)}\b", ctx.text
                )
            ):
                kn = names.get(f"AscendC::MicroAPI::{call.short}")
                return kn is not None and kn.accepts(n)
    return False


def _is_pack(o: Overload) -> bool:
    """A variadic overload: C ``...`` or a parameter pack (``Args&&... args``)."""
    return o.variadic or any("..." in p.type or "..." in p.name for p in o.params)


def _accepted(counts_of: tuple[tuple[int, int | None], ...], n: int) -> bool:
    for low, high in counts_of:  # noqa: SIM110 (a loop: run for every call of the API, cheaper than any())
        if low <= n and (high is None or n <= high):
            return True
    return False


def _min_args(o: Overload) -> int:
    return sum(1 for p in o.params if p.default is None and "..." not in p.type and "..." not in p.name)


def _max_args(o: Overload) -> int | None:
    return None if _is_pack(o) else len(o.params)


def _distance(o: Overload, n: int) -> int:
    if n < _min_args(o):
        return _min_args(o) - n
    top = _max_args(o)
    return 0 if top is None or n <= top else n - top


def _describe_counts(overloads: list[Overload]) -> str:
    """``4 or 6``, ``2 to 4``, ``at least 7``, ``3, 4 or 6``."""
    unbounded = [_min_args(o) for o in overloads if _max_args(o) is None]
    floor = min(unbounded) if unbounded else None
    exact: set[int] = set()
    for o in overloads:
        top = _max_args(o)
        if top is None:
            continue
        exact.update(range(_min_args(o), top + 1))
    if floor is not None:
        exact = {k for k in exact if k < floor}
    ordered = sorted(exact)
    parts: list[str] = []
    i = 0
    while i < len(ordered):  # runs of three or more become "a to b"
        j = i
        while j + 1 < len(ordered) and ordered[j + 1] == ordered[j] + 1:
            j += 1
        if j - i >= 2:
            parts.append(f"{ordered[i]} to {ordered[j]}")
        else:
            parts.extend(str(k) for k in ordered[i : j + 1])
        i = j + 1
    if floor is not None:
        parts.append(f"at least {floor}")
    if not parts:
        return "0"
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " or " + parts[-1]


RULE = Rule(CODE, "overload-arity", "No overload of the Ascend C API takes this number of arguments.", check)
