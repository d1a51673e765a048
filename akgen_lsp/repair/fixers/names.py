"""Unknown names of the Ascend C API in a compile error: the catalog's "did you mean", the API's name in the
configured CANN version, the real API behind an invented one.

Reads g++'s and clang's (bisheng's) messages: ``'X' is not a member of 'AscendC'``, ``no member named 'X' in
namespace 'AscendC'``, ``'class AscendC::TQue<...>' has no member named 'X'``, ``no member named 'X' in
'AscendC::TQue<...>'``, ``no template named 'X' in namespace 'AscendC'``, ``'X' was not declared in this scope``,
``use of undeclared identifier 'X'``. The linter's own findings on the line (AKG101 unknown API, AKG103 CANN
version) come first, since they resolve the receiver's class from the file; the catalog answers where they are
silent. A name the compiler suggests itself arrives as the finding's own fix-it.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterator

from akgen_lsp.ascendc.catalog import Entry, parse_version
from akgen_lsp.findings import Finding, Fix
from akgen_lsp.repair.fixers.base import QUOTED, UNQUOTED, FixContext, Proposal, rename

NAME = "catalog"
_Q, _U = QUOTED, UNQUOTED
_TARGS = r"(?:<[^\u2019'`]*>)?"  # template arguments of a class the compiler names
_PATTERNS = (
    re.compile(rf"{_Q}(?P<name>\w+){_U} is not a member of {_Q}(?P<scope>[\w:]+){_U}"),
    re.compile(
        rf"no (?:member|template|type) named {_Q}(?P<name>\w+){_U} in namespace {_Q}(?P<scope>[\w:]+){_U}"
    ),
    re.compile(
        rf"{_Q}(?:class |struct )?(?P<scope>[\w:]+){_TARGS}{_U} has no member named {_Q}(?P<name>\w+){_U}"
    ),
    re.compile(
        rf"no member named {_Q}(?P<name>\w+){_U} in {_Q}(?:class |struct )?(?P<scope>[\w:]+){_TARGS}{_U}"
    ),
    re.compile(rf"{_Q}(?P<name>\w+){_U} in namespace {_Q}(?P<scope>[\w:]+){_U} does not name a"),
    re.compile(rf"{_Q}(?P<name>\w+){_U} was not declared in this scope"),
    re.compile(rf"there are no arguments to {_Q}(?P<name>\w+){_U} that depend on a template parameter"),
    re.compile(rf"use of undeclared identifier {_Q}(?P<name>\w+){_U}"),
    re.compile(rf"{_Q}(?P<name>\w+){_U} does not name a type"),
)
_TYPE_SPELLINGS = frozenset({"float16", "bfloat16", "fp16", "bf16"})  # type_spelling.py's


def unknown_name(message: str) -> tuple[str, str | None] | None:
    """(name, scope or None) of a compiler message about a name that does not exist."""
    for pat in _PATTERNS:
        m = pat.search(message)
        if m is not None:
            scope = m.groupdict().get("scope")
            return m.group("name"), scope
    return None


def _class_scope(ctx: FixContext, scope: str) -> str | None:
    """The catalog class a compiler's scope names (``AscendC::TQue<...>`` -> ``AscendC::TQue``), if it knows it."""
    base = scope.split("<", 1)[0]
    if not base.startswith("AscendC::"):
        base = "AscendC::" + base.rsplit("::", 1)[-1]
    entry = ctx.catalog.get(base)
    return base if entry is not None and entry.kind == "class" else None


def _arity(ctx: FixContext, finding: Finding, name: str) -> int | None:
    """The number of arguments the call of `name` on the finding's line passes, when there is one such call."""
    calls = [c for c in ctx.calls_on_line(finding.span.line) if c.short == name]
    return len(calls[0].args) if len(calls) == 1 else None


def _fits(entry: Entry, nargs: int | None) -> bool:
    return nargs is None or not entry.overloads or any(o.accepts(nargs) for o in entry.overloads)


def _renamed(ctx: FixContext, name: str, pool: list[Entry]) -> list[tuple[str, str]]:
    """(new name, why) for `name` renamed or removed in the configured CANN version, or added after it."""
    version = str(ctx.settings["cann.version"])
    out: list[tuple[str, str]] = []
    for e in ctx.catalog.lookup(name):
        if e.exists_in(version):
            continue
        if e.replaced_by:
            rep = ctx.catalog.get(e.replaced_by) or next(
                iter(ctx.catalog.lookup(e.replaced_by.rsplit("::", 1)[-1])), None
            )
            if rep is not None and rep.exists_in(version):
                out.append((rep.short, f"its name in CANN {version}"))
    for e in pool:  # `name` is the newer spelling of an API this version has under its old name
        if e.replaced_by and e.replaced_by.rsplit("::", 1)[-1] == name and e.exists_in(version):
            out.append((e.short, f"its name in CANN {version}"))
    return out


def _invented(ctx: FixContext, name: str, scopes: list[str]) -> list[tuple[str, str, bool]]:
    version = parse_version(str(ctx.settings["cann.version"]))
    out = []
    for inv in ctx.catalog.invented_short.get(name, ()):
        if inv.max_version and version >= parse_version(inv.max_version):
            continue
        if inv.negate is not None:  # not a rename: the linter's fix (AKG103) rewrites the argument too
            continue
        rep_scope, _, rep_short = inv.replacement.rpartition("::")
        if rep_scope in scopes:
            out.append((rep_short, "the real API", inv.certain))
    return out


def propose(ctx: FixContext, finding: Finding) -> Iterator[Proposal]:
    found = unknown_name(finding.message)
    if found is None:
        return
    name, scope = found
    if name in _TYPE_SPELLINGS:
        return
    # the linter's findings on this line about this name (AKG101, AKG103): they know the receiver's class
    lint = [
        f
        for f in ctx.lint("AKG101", "AKG103")
        if f.span.line == finding.span.line and f.fixes and (f.data.get("name") == name or name in f.message)
    ]
    seen: set[str] = set()
    for f in lint:
        for fx in f.fixes:
            if not fx.edits or fx.edits[0].new_text in seen:
                continue
            new = fx.edits[0].new_text
            seen.add(new)
            why = "its name in this CANN version" if f.code == "AKG103" else "the catalog's name"
            if (
                len(fx.edits) > 1
            ):  # a rename with its arguments rewritten (Subs -> Adds of the negated scalar)
                yield Proposal(Fix(f"{fx.title} ({why})", fx.edits), fx.safe, NAME)
                continue
            certain = fx.safe or len(f.fixes) == 1
            p = rename(ctx, finding, name, new, why, certain, NAME)
            if p is not None:
                yield p
    if seen:
        return
    cls = _class_scope(ctx, scope) if scope and scope not in ("AscendC", "std") else None
    if scope == "AscendC" or (scope is None and ctx.catalog.lookup(name) == [] and "AscendC" in ctx.text):
        pool = ctx.catalog.namespace_members("AscendC")
        scopes = ["AscendC"]
    elif cls is not None:
        pool = ctx.catalog.members(cls)
        scopes = ctx.catalog.bases_of(cls)
    else:
        return
    nargs = _arity(ctx, finding, name)
    candidates: list[tuple[str, str, bool]] = [
        *_invented(ctx, name, scopes),
        *((n, why, True) for n, why in _renamed(ctx, name, pool)),
    ]
    if not candidates:
        shorts = [e.short for e in pool if e.kind not in ("namespace",)]
        close = ctx.catalog.suggest(name, shorts, n=4)
        by_name = {e.short: e for e in pool}
        fitting = [c for c in close if c in by_name and _fits(by_name[c], nargs)]
        if scope is None:  # a plain undeclared name: only an API close enough to be a misspelling
            fitting = [c for c in fitting if c.lower() == name.lower() or abs(len(c) - len(name)) <= 1]
        candidates = [(c, "did you mean", len(fitting) == 1) for c in fitting[:3]]
    for new, why, certain in candidates:
        if new in seen:
            continue
        seen.add(new)
        p = rename(ctx, finding, name, new, why, certain, NAME)
        if p is not None:
            yield p


_UNDECLARED = (
    re.compile(rf"{_Q}(?P<name>\w+){_U} was not declared in this scope"),
    re.compile(rf"use of undeclared identifier {_Q}(?P<name>\w+){_U}"),
)
_IDENT = re.compile(r"\b[A-Za-z_]\w*\b")
_KEYWORDS = frozenset(
    {
        "alignas",
        "alignof",
        "auto",
        "bool",
        "break",
        "case",
        "catch",
        "char",
        "class",
        "const",
        "constexpr",
        "continue",
        "decltype",
        "default",
        "delete",
        "do",
        "double",
        "else",
        "enum",
        "explicit",
        "extern",
        "false",
        "float",
        "for",
        "friend",
        "goto",
        "if",
        "inline",
        "int",
        "long",
        "namespace",
        "new",
        "nullptr",
        "operator",
        "private",
        "protected",
        "public",
        "return",
        "short",
        "signed",
        "sizeof",
        "static",
        "struct",
        "switch",
        "template",
        "this",
        "throw",
        "true",
        "try",
        "typedef",
        "typename",
        "union",
        "unsigned",
        "using",
        "virtual",
        "void",
        "volatile",
        "while",
    }
)


def propose_local(ctx: FixContext, finding: Finding) -> Iterator[Proposal]:
    """An undeclared plain name: the names the file writes that are one or two letters off (the compiler suggests
    one by spelling only: ``xGm`` for ``xIm`` where ``xIn`` is the tensor meant); verification picks the right one."""
    m = next((p.search(finding.message) for p in _UNDECLARED if p.search(finding.message)), None)
    if m is None:
        return
    name = m.group("name")
    if name in _TYPE_SPELLINGS:
        return
    words = {
        w
        for w in _IDENT.findall(ctx.code)
        if w != name and w not in _KEYWORDS and abs(len(w) - len(name)) <= 1
    }
    scored = sorted(((difflib_ratio(name, w), w) for w in words), reverse=True)
    for ratio, word in scored[:3]:
        if ratio < 0.6:
            break
        p = rename(ctx, finding, name, word, "a name of this file", False, "local names")
        if p is not None:
            yield p


def difflib_ratio(a: str, b: str) -> float:
    return difflib.SequenceMatcher(None, a.lower(), b.lower()).ratio()
