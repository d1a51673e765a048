"""The public names an Ascend C header tree declares, read as facts (name, kind, namespace, arch where known).

`scan(text, family)` reads one header of asc-devkit's ``include/`` or ``impl/`` (`header_tree.read_tree` runs it over
the whole tree and merges the facts) with a small scanner: comments and string literals blanked, preprocessor lines
read only for ``__NPU_ARCH__`` guards, braces tracked as a stack of namespaces, classes, enums and blocks. What it
records:

- functions and function templates declared at namespace scope (``AscendC::Add``, ``AscendC::MicroAPI::Add``),
  C API and SIMT functions at global scope (``asc_copy_gm2ub``), classes, structs, unions, enums with their
  enumerators, type aliases (``using X = ...``, ``typedef``) and namespace-scope constants;
- the arch: from an enclosing ``#if`` on ``__NPU_ARCH__ == N`` (and the ``impl/.../dav_<arch>/`` folder the caller
  passes); the family is the caller's (`header_tree.family_of`).

Names in namespaces called ``detail``/``internal``/``Impl``, names ending in ``Impl`` and names that begin with an
underscore are internal and left out. Nothing of the headers' text is kept but the names.

The generated catalog file ``catalog/names/asc_devkit.tsv`` is written from this reading by
``benchmarks/catalog_coverage.py --write``; AKG101 consults it, so a real API the hand-written catalog has no entry for
is never reported as unknown.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

_INTERNAL_NS = {"detail", "internal", "Internal", "Impl", "impl", "Detail", "KernelUtils", "std"}
_SKIP_WORDS = {
    "if",
    "for",
    "while",
    "switch",
    "return",
    "sizeof",
    "decltype",
    "static_assert",
    "alignas",
    "alignof",
    "__attribute__",
    "operator",
    "defined",
    "noexcept",
    "requires",
    "throw",
    "new",
    "delete",
    "catch",
}
_TOKEN = re.compile(r"[A-Za-z_]\w*|::|[{};()<>=,\[\]]|\S")


@dataclass
class NameFact:
    name: str  # qualified: AscendC::MicroAPI::Add, or asc_copy_gm2ub at global scope
    kind: str  # function | class | enum | enumerator | type | variable
    family: str  # basic_api, adv_api, c_api, simt_api, tensor_api, impl, ...
    archs: set[str] = field(default_factory=set)  # empty: every arch (or not known)
    header: str = ""
    arities: set[tuple[int, int]] = field(
        default_factory=set
    )  # functions: (min, max) arguments; max -1: variadic
    alias: str = ""  # namespaces: the namespace this one names (MicroAPI = Reg)
    bases: set[str] = field(default_factory=set)  # classes: the short names of their bases
    # functions: (template head, ``ret name(params)``) of each declaration, rebuilt from the tokens
    signatures: set[tuple[str, str]] = field(default_factory=set)


def blank_comments(text: str) -> str:
    """Comments and string/char literals replaced by spaces (newlines kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "/" and text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif c == "/" and text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            out.append(c + " " * max(0, j - i - 2) + (c if j - i >= 2 else ""))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _arch_of_condition(cond: str) -> set[str]:
    if "!=" in cond or "!defined" in cond.replace(" ", ""):
        return set()
    return set(re.findall(r"__NPU_ARCH__\s*==\s*(\d+)", cond))


def _lines_with_guards(text: str) -> Iterator[tuple[str, set[str], str]]:
    """Each line (continuations joined) with the archs its ``#if`` guards name, and for a preprocessor line its
    conditional directive (``if``, ``else`` for ``#elif``/``#else``, ``endif``; otherwise "")."""
    stack: list[set[str]] = []
    lines = text.split("\n")
    i = 0
    while i < len(lines):
        line = lines[i]
        while line.endswith("\\") and i + 1 < len(lines):
            i += 1
            line = line[:-1] + " " + lines[i]
        i += 1
        s = line.strip()
        if s.startswith("#"):
            d = s[1:].strip()
            kind = ""
            if d.startswith(("if ", "ifdef", "ifndef", "if(")):
                stack.append(
                    _arch_of_condition(d)
                    if d.startswith("if") and not d.startswith(("ifdef", "ifndef"))
                    else set()
                )
                kind = "if"
            elif d.startswith("elif") and stack:
                stack[-1] = _arch_of_condition(d)
                kind = "else"
            elif d.startswith("else") and stack:
                stack[-1] = set()
                kind = "else"
            elif d.startswith("endif") and stack:
                stack.pop()
                kind = "endif"
            yield "", set(), kind
            continue
        archs: set[str] = set()
        for g in stack:
            if g:
                archs = g if not archs else archs & g or g
        yield line, archs, ""


@dataclass
class _Scope:
    kind: str  # ns | class | enum | block
    name: str
    public: bool = True  # classes: whether the members declared now are public


def scan(text: str, family: str, header: str = "", file_archs: set[str] | None = None) -> list[NameFact]:
    """The names one header declares (see the module doc)."""
    facts: list[NameFact] = []
    stack: list[_Scope] = []
    stmt: list[str] = []
    # a branch of #if/#elif/#else may open a brace that another branch opens too: each branch starts from the
    # scopes of the #if, and after #endif the scopes are those at the end of the first branch (as ctags does)
    branches: list[tuple[list[_Scope], list[str], list[_Scope] | None]] = []
    for line, guard, directive in _lines_with_guards(blank_comments(text)):
        if directive == "if":
            branches.append((list(stack), list(stmt), None))
        elif directive == "else" and branches:
            at_if, stmt_at_if, first_end = branches[-1]
            if first_end is None:
                branches[-1] = (at_if, stmt_at_if, list(stack))
            stack, stmt = list(at_if), list(stmt_at_if)
        elif directive == "endif" and branches:
            _, _, first_end = branches.pop()
            if first_end is not None:
                stack = first_end
        if directive:
            continue
        archs = set(file_archs or ()) | guard
        for tok in _TOKEN.findall(line):
            if tok == "{":
                scope = _open_scope(stmt, stack)
                if (
                    scope.kind in ("class", "enum")
                    and _public_ns(stack) is not None
                    and _record_ok(scope.name)
                ):
                    facts.append(
                        NameFact(
                            _qual(stack, scope.name),
                            "enum" if scope.kind == "enum" else "class",
                            family,
                            set(archs),
                            header,
                            bases=_bases(stmt),
                        )
                    )
                elif scope.kind == "block" and _declares_here(stack):
                    _declaration(stmt, stack, facts, family, archs, header)
                stack.append(scope)
                stmt = []
            elif tok == "}":
                if stack and stack[-1].kind == "enum":
                    _enumerator(stmt, stack, facts, family, archs, header)
                if stack:
                    stack.pop()
                stmt = []
            elif tok == ";":
                if _declares_here(stack):
                    _declaration(stmt, stack, facts, family, archs, header)
                stmt = []
            elif (
                tok == ":"
                and stack
                and stack[-1].kind == "class"
                and stmt[-1:] in (["public"], ["private"], ["protected"])
            ):
                stack[-1].public = stmt[-1] == "public"
                stmt = []
            elif tok == "," and stack and stack[-1].kind == "enum":
                _enumerator(stmt, stack, facts, family, archs, header)
                stmt = []
            else:
                stmt.append(tok)
    return facts


def _declares_here(stack: list[_Scope]) -> bool:
    """A namespace scope, or the body of a class that sits directly in one (its members), all public."""
    if stack and stack[-1].kind == "class":
        return _public_ns(stack[:-1]) is not None
    return (not stack or stack[-1].kind == "ns") and _public_ns(stack) is not None


def _public_ns(stack: list[_Scope]) -> str | None:
    """The namespace path when every enclosing scope is a public namespace, else None."""
    names = []
    for s in stack:
        if s.kind != "ns" or s.name in _INTERNAL_NS:
            return None
        if s.name:
            names.append(s.name)
    return "::".join(names)


def _qual(stack: list[_Scope], name: str) -> str:
    ns = "::".join(s.name for s in stack if s.name)
    return f"{ns}::{name}" if ns else name


def _record_ok(name: str) -> bool:
    return bool(name) and not name.startswith("_") and not name.endswith("Impl") and name not in _SKIP_WORDS


def _open_scope(stmt: list[str], stack: list[_Scope]) -> _Scope:
    toks = _strip_template(stmt)
    if toks[:1] == ["namespace"] or (toks[:2] == ["inline", "namespace"]):
        rest = [t for t in toks if t not in ("inline", "namespace")]
        name = "::".join(t for t in rest if t != "::") if rest else ""
        return _Scope("ns", name)
    if toks[:2] == ["extern", "C"] or toks == ["extern"]:
        return _Scope("ns", "")
    if stack and stack[-1].kind not in ("ns",):
        return _Scope("block", "")
    for key in ("enum", "class", "struct", "union"):
        if key in toks and "(" not in toks[: toks.index(key)] and "=" not in toks:
            i = toks.index(key)
            after = [t for t in toks[i + 1 :] if t not in ("class", "struct")]
            name = ""
            for t in after:
                if t in (":", "<", "final"):
                    break
                if re.fullmatch(r"[A-Za-z_]\w*", t) and t not in ("alignas",) and not t.isupper():
                    name = t
                    break
            if name and "<" not in after[:1]:  # a specialisation `struct X<int>` is not a new name
                return _Scope("enum" if key == "enum" else "class", name, public=key != "class")
            return _Scope("block", "")
    return _Scope("block", "")


def _bases(stmt: list[str]) -> set[str]:
    """The short names after a class head's ``:`` (``public BaseLocalTensor<T>`` -> BaseLocalTensor)."""
    toks = _strip_template(stmt)
    if ":" not in toks:
        return set()
    out, depth, prev = set(), 0, ""
    for t in toks[toks.index(":") + 1 :]:
        if t == "<":
            if depth == 0 and prev:
                out.add(prev)
            depth += 1
        elif t == ">":
            depth -= 1
        elif depth == 0 and t == ",":
            if prev:
                out.add(prev)
            prev = ""
        elif (
            depth == 0
            and re.fullmatch(r"[A-Za-z_]\w*", t)
            and t not in ("public", "private", "protected", "virtual")
        ):
            prev = t
    if prev and depth == 0:
        out.add(prev)
    return out


def _strip_template(stmt: list[str]) -> list[str]:
    toks = list(stmt)
    while toks[:2] == ["[", "["]:  # attributes: [[deprecated("...")]]
        depth, i = 0, 0
        while i < len(toks):
            depth += {"[": 1, "]": -1}.get(toks[i], 0)
            i += 1
            if depth == 0:
                break
        toks = toks[i:]
    while toks[:2] == ["template", "<"]:
        depth, i = 0, 1
        while i < len(toks):
            if toks[i] == "<":
                depth += 1
            elif toks[i] == ">":
                depth -= 1
                if depth == 0:
                    break
            i += 1
        toks = toks[i + 1 :]
        if toks[:2] == ["[", "["]:
            return _strip_template(toks)
    return toks


def _declaration(
    stmt: list[str], stack: list[_Scope], facts: list[NameFact], family: str, archs: set[str], header: str
) -> None:
    toks = _strip_template(stmt)
    while toks[:2] in (["public", ":"], ["private", ":"], ["protected", ":"]):
        toks = toks[2:]
    if toks[:1] == ["namespace"] and len(toks) >= 4 and toks[2] == "=":
        target = "::".join(t for t in toks[3:] if t != "::")
        facts.append(NameFact(_qual(stack, toks[1]), "namespace", family, set(archs), header, alias=target))
        return
    if not toks or toks[0] in ("friend", "return", "static_assert", "namespace"):
        return
    member = bool(stack) and stack[-1].kind == "class"
    if member and not stack[-1].public:
        return
    if toks[0] == "using" and len(toks) >= 3 and toks[2] == "=":
        if _record_ok(toks[1]):
            facts.append(NameFact(_qual(stack, toks[1]), "type", family, set(archs), header))
        return
    if toks[0] == "typedef":
        name = next((t for t in reversed(toks) if re.fullmatch(r"[A-Za-z_]\w*", t)), "")
        if _record_ok(name):
            facts.append(NameFact(_qual(stack, name), "type", family, set(archs), header))
        return
    if toks[0] in ("using", "class", "struct", "enum", "union"):
        return  # a using-declaration or a forward declaration
    if "(" in toks:
        i = toks.index("(")
        name = toks[i - 1] if i > 0 else ""
        if i >= 2 and toks[i - 2] == "operator":
            return
        if re.fullmatch(r"[A-Za-z_]\w*", name) and _record_ok(name) and not name.isupper():
            before = toks[: i - 1]
            if before and before[-1] == "::":
                # an out-of-class definition `X<T>::f(...)`: a member of X
                j = len(before) - 2
                if j >= 0 and before[j] == ">":
                    depth = 0
                    while j >= 0:
                        depth += {">": 1, "<": -1}.get(before[j], 0)
                        if depth == 0:
                            break
                        j -= 1
                    j -= 1
                owner = before[j] if j >= 0 else ""
                if re.fullmatch(r"[A-Za-z_]\w*", owner) and not member:
                    fact = NameFact(_qual(stack, f"{owner}::{name}"), "method", family, set(archs), header)
                    fact.arities.add(_arity(toks[i:]))
                    facts.append(fact)
                return
            if "=" in before:
                return
            if not before and not member:
                return  # a macro invocation at namespace scope
            if member and name == stack[-1].name:
                return  # a constructor
            fact = NameFact(
                _qual(stack, name), "method" if member else "function", family, set(archs), header
            )
            fact.arities.add(_arity(toks[i:]))
            fact.signatures.add(_signature(stmt[: len(stmt) - len(toks)], before, name, toks[i:]))
            facts.append(fact)
        return
    if "=" in toks:
        i = toks.index("=")
        name = toks[i - 1] if i > 0 else ""
        if re.fullmatch(r"[A-Za-z_]\w*", name) and _record_ok(name) and i >= 2:
            facts.append(NameFact(_qual(stack, name), "variable", family, set(archs), header))


# qualifiers and attribute macros before a declaration's return type (not part of the type a user reads)
_NOT_TYPE = {
    "inline",
    "static",
    "extern",
    "constexpr",
    "__inline__",
    "__forceinline__",
    "virtual",
    "explicit",
    "friend",
    "__aicore__",
    "__global__",
    "__device__",
    "__host__",
}


def _signature(head: list[str], before: list[str], name: str, params: list[str]) -> tuple[str, str]:
    """(template head, ``ret name(params)``) of a declaration from its tokens: the last ``template <...>`` of the
    head, the return type without qualifiers and ``__x__`` / ALL-CAPS attribute macros, the parameter list up to
    its closing parenthesis."""
    template = ""
    if "template" in head:
        template = _render(head[len(head) - head[::-1].index("template") - 1 :])
    ret: list[str] = []
    skip = 0
    for t in before:
        if skip:
            skip += {"(": 1, ")": -1}.get(t, 0)
            continue
        if t == "__attribute__":
            skip = -1  # the group that follows: counted from its first "("
            continue
        if t in _NOT_TYPE or (t.startswith("__") and t.endswith("__")) or (t.isupper() and len(t) > 3):
            continue
        ret.append(t)
    if skip == -1:
        ret = []
    depth, end = 0, len(params)
    for k, t in enumerate(params):
        depth += {"(": 1, ")": -1}.get(t, 0)
        if depth == 0:
            end = k + 1
            break
    sig = f"{_render(ret)} {name}{_render(params[:end])}".strip()
    return template, sig


def _render(toks: list[str]) -> str:
    """Tokens back to C++ text with the usual spacing (``const LocalTensor<T>& dst, int32_t n = 128``)."""
    out = ""
    prev = ""
    for t in toks:
        word = t[:1].isalnum() or t[:1] == "_"
        glued = (
            t in (",", ")", "]", "::", "&", "*", ".")
            or prev in ("(", "[", "::", "<", "~", ".")
            or (t == "(" and (prev[-1:].isalnum() or prev[-1:] in ("_", ">")))
            or (t == "<" and (prev[-1:].isalnum() or prev[-1:] == "_") and prev != "template")
            or (t == ">" and prev != ",")
            or (word and prev.isdigit() and t.isdigit())
            or (prev == "-" and t[:1].isdigit() and len(out) >= 2 and out[-2] in "=(, ")  # a default `= -1`
        )
        out = t if not out else out + t if glued else f"{out} {t}"
        prev = t
    return out


def _arity(toks: list[str]) -> tuple[int, int]:
    """(min, max) arguments of the parameter list that `toks` begins with (at its ``(``)."""
    depth = 0
    params, defaults, current, variadic = 0, 0, 0, False
    seen_default = False
    for t in toks:
        if t in ("(", "<", "[", "{"):
            depth += 1
            if depth == 1:
                continue
        elif t in (")", ">", "]", "}"):
            depth -= 1
            if depth == 0:
                break
        if depth == 1:
            if t == ",":
                params += 1 if current else 0
                defaults += seen_default
                current, seen_default = 0, False
                continue
            if t == "=":
                seen_default = True
            if t == ".":
                variadic = True
            current += 1
    if current:
        params += 1
        defaults += seen_default
    if params == 1 and toks[1:3] == ["void", ")"]:
        params = 0
    return (params - defaults - (1 if variadic else 0), -1 if variadic else params)


def _enumerator(
    stmt: list[str], stack: list[_Scope], facts: list[NameFact], family: str, archs: set[str], header: str
) -> None:
    if stmt and re.fullmatch(r"[A-Za-z_]\w*", stmt[0]) and _public_ns(stack[:-1]) is not None:
        facts.append(
            NameFact(
                f"{_qual(stack[:-1], stack[-1].name)}::{stmt[0]}", "enumerator", family, set(archs), header
            )
        )
