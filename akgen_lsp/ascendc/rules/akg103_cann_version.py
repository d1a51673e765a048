"""AKG103 CANN version: an Ascend C API that the targeted CANN version does not have (or has deprecated).

## What it does
Reads the target CANN version from the settings (``cann.version``, 8.5 by default) and reports a use of a catalog
name (a call, a type, a template or an enumerator) that does not exist in that version: added later
(``since``) or removed or renamed before it (``removed``, with ``replaced_by``). A name the vendor marks
deprecated is reported as a warning when its replacement is known (from the catalog's ``since``) to exist in the target
version.

## Why is this bad?
The kernel does not build with the toolkit it will be built with: ``no member named 'ReduceRepeat' in namespace
'AscendC'`` on an older CANN, or the old name on a newer one. Models trained on one release write the names of
another (``Divs`` exists only in recent versions; the whole-reduce family was renamed in 9.1).

## Example
```cpp
// cann.version = "9.1"
AscendC::WholeReduceSum(dst, src, mask, repeat, 1, 1, 8);   // renamed in CANN 9.1
```

Use instead:
```cpp
AscendC::ReduceRepeat<AscendC::ReduceType::SUM>(dst, src, mask, repeat, 1, 1, 8);
```

## Fix safety
When the catalog names a replacement, the rename is offered. It is safe only for a pure rename: the
replacement takes exactly the same argument lists (the same parameters, types and names in order, in every
overload). Otherwise the fix is unsafe, because template arguments or the order of arguments may have to change
too (``ReduceDataBlock`` takes mask and repeat in the other order than ``BlockReduceSum``). An older API that does
the work another way (``Subs`` before CANN 9.0 is ``Adds`` of the negated scalar: the catalog's invented-name
table, with its ``negate`` argument) is renamed with that argument rewritten, and never safe unless the table
marks it certain: ``Subs(dst, src, v, n)`` becomes ``Adds(dst, src, -v, n)``, not ``Adds(dst, src, v, n)``.

## References
- Ascend C release notes and API reference (asc-devkit ``docs/zh/api``); the catalog's ``since``/``removed``/
  ``replaced_by``/``deprecated`` fields
"""

from __future__ import annotations

from collections.abc import Iterator

from akgen_lsp.ascendc.catalog import Catalog, Entry, Invented, parse_version
from akgen_lsp.ascendc.context import LintContext
from akgen_lsp.ascendc.rewrites import negated
from akgen_lsp.ascendc.rules import Rule
from akgen_lsp.ascendc.syntax import ASCENDC, Call, ParsedFile, calls, qualified_refs
from akgen_lsp.findings import Edit, Finding, Fix, Severity, Span

CODE = "AKG103"


def check(ctx: LintContext) -> Iterator[Finding]:
    cat = ctx.catalog
    if not _has_versions(cat):
        return
    pf = ctx.parsed
    version = ctx.cann_version
    seen: set[int] = set()
    for call in calls(pf, cat):
        if call.resolved is None:
            continue
        entry = cat.get(call.resolved)
        if entry is not None and _versioned(cat, entry):
            f = _judge(entry, cat, version, call.name_span, call.short, (pf, call))
            if f is not None:
                seen.add(call.name_node.start_byte)
                yield f
    for ref in qualified_refs(pf):
        if ref.parts[0] != ASCENDC or len(ref.parts) < 2:
            continue
        scope = ASCENDC
        for i in range(1, len(ref.parts)):
            node = ref.part_nodes[i]
            scope_entry = cat.get(scope)
            if scope_entry is not None and scope_entry.kind == "class":
                entry = cat.member(scope, ref.parts[i])
            else:
                entry = cat.get(f"{scope}::{ref.parts[i]}")
            if entry is None:
                break
            if _versioned(cat, entry) and node.start_byte not in seen:
                f = _judge(entry, cat, version, pf.span(node), ref.parts[i])
                if f is not None:
                    seen.add(node.start_byte)
                    yield f
            scope = entry.name


_VERSIONED: dict[int, tuple[Catalog, bool]] = {}


def _has_versions(cat: Catalog) -> bool:
    got = _VERSIONED.get(id(cat))
    if got is None or got[0] is not cat:
        got = _VERSIONED[id(cat)] = (cat, any(e.since or e.removed or e.deprecated for e in cat))
    return got[1]


def since_of(cat: Catalog, entry: Entry) -> str | None:
    """The first CANN version that has `entry`: its ``since``, or else the ``max_version`` of an invented-name entry
    for the same name (the catalog's way to say "below this version, write the replacement instead")."""
    if entry.since:
        return entry.since
    inv = cat.invented.get(entry.name)
    return inv.max_version if inv is not None and inv.max_version else None


def _versioned(cat: Catalog, entry: Entry) -> bool:
    """Whether `_judge` can find anything to say about `entry` (it says nothing about an entry without a first
    version, a removal or a deprecation), so the span is computed only for those."""
    return bool(entry.since or entry.removed or entry.deprecated or since_of(cat, entry))


def _judge(
    entry: Entry,
    cat: Catalog,
    version: str,
    span: Span,
    short: str,
    at: tuple[ParsedFile, Call] | None = None,
) -> Finding | None:
    v = parse_version(version)
    replaced_by = entry.replaced_by
    inv = None
    since = since_of(cat, entry)
    data: dict[str, object] = {"name": entry.name, "cann_version": version}
    if since and v < parse_version(since):
        message = f"'{entry.name}' is not available before CANN {since} (target: CANN {version})"
        severity = Severity.ERROR
        data["since"] = since
        older = cat.invented.get(entry.name)
        if not replaced_by and older is not None and older.max_version == since:
            replaced_by = older.replacement  # the older name to write instead
            inv = older
    elif entry.removed and v >= parse_version(entry.removed):
        message = f"'{entry.name}' was removed in CANN {entry.removed} (target: CANN {version})"
        severity = Severity.ERROR
        data["removed"] = entry.removed
    elif entry.deprecated:
        # a deprecation is worth a warning only where the replacement is known to exist in the target version
        # (the catalog gives the replacement's `since`); older toolkits have only the old name
        replacement = cat.get(replaced_by) if replaced_by else None
        rep_since = since_of(cat, replacement) if replacement is not None else None
        if (
            replacement is None
            or not rep_since
            or v < parse_version(rep_since)
            or not replacement.exists_in(version)
        ):
            return None
        message = f"'{entry.name}' is deprecated since CANN {rep_since}"
        severity = Severity.WARNING
    else:
        return None
    fixes: tuple[Fix, ...] = ()
    if replaced_by:
        replacement = cat.get(replaced_by)
        data["replaced_by"] = replaced_by
        rep_since = since_of(cat, replacement) if replacement is not None else None
        usable = replacement is None or (
            replacement.exists_in(version) and not (rep_since and v < parse_version(rep_since))
        )
        if usable:
            message += f"; use '{replaced_by}'"
            new_short = replaced_by.rsplit("::", 1)[-1]
            if entry.parent == (replaced_by.rsplit("::", 1)[0] if "::" in replaced_by else ""):
                fixes = _rename_fixes(entry, replacement, inv, span, short, new_short, at)
    return Finding(
        code=CODE,
        message=message,
        span=span,
        severity=severity,
        source="akgen-lint",
        error_class="renamed_api",
        fixes=fixes,
        data=data,
    )


def _rename_fixes(
    entry: Entry,
    replacement: Entry | None,
    inv: Invented | None,
    span: Span,
    short: str,
    new_short: str,
    at: tuple[ParsedFile, Call] | None,
) -> tuple[Fix, ...]:
    """The rename to the name of the target version. An older API that does the work another way (the catalog's
    invented-name table: ``Subs`` is ``Adds`` of the negated scalar) is safe only when the table says the rename is
    certain; its argument rewrite comes along, and with no call to rewrite there is no fix (the name alone would
    change what the code computes)."""
    edits = [Edit(span, new_short)]
    if inv is not None and inv.negate is not None:
        if at is None or len(at[1].args) <= inv.negate:
            return ()
        pf, call = at
        arg = call.args[inv.negate]
        edits.append(Edit(pf.span(arg), negated(pf.node_text(arg))))
        title = f"Rename '{short}' to '{new_short}' with argument {inv.negate + 1} negated"
    else:
        title = f"Rename '{short}' to '{new_short}'"
    same = replacement is not None and _same_arguments(entry, replacement)
    safe = same and (inv is None or (inv.certain and inv.negate is None))
    return (Fix(title, tuple(edits), safe=safe),)


def _signature_key(entry: Entry) -> set[tuple[tuple[str, str], ...]]:
    """Parameter types and names of each overload: the same types with names in another order (``mask`` and
    ``repeatTime`` swapped) compile but mean something else."""
    return {tuple((" ".join(p.type.split()), p.name) for p in o.params) for o in entry.overloads}


def _same_arguments(old: Entry, new: Entry) -> bool:
    """A pure rename: every overload of the old name exists with the same parameters (types and names, in order)
    under the new one, and neither needs template arguments the other does not take."""
    if old.kind != new.kind:
        return False
    if not old.overloads or not new.overloads:
        return old.kind not in ("function", "method")  # types and constants: a rename is a rename
    old_templates = {" ".join(o.template.split()) for o in old.overloads}
    new_templates = {" ".join(o.template.split()) for o in new.overloads}
    return _signature_key(old) <= _signature_key(new) and old_templates <= new_templates


RULE = Rule(CODE, "cann-version", "An Ascend C API that the targeted CANN version does not have.", check)
