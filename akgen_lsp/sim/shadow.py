"""Shadow copies: bisheng-only syntax made acceptable to g++ in a copy that keeps every line (behind `#line 1
"<the user's file>"`, so diagnostics and findings name the user's file and line)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from akgen_lsp.ascendc.commas import split_top_level
from akgen_lsp.sim.compiler import HEADER_SUFFIXES
from akgen_lsp.sim.cxx_text import code_only, launch_sites

# bisheng (the CCE compiler) spells function attributes as a bracket list before the declaration: `__aicore__` expands
# to `[aicore]` and `__host_aicore__` to `[host, aicore]`; catlass-style kernels write them out. g++ rejects `[`, so the
# build compiles a shadow copy with these lists blanked (same length, so columns stay) behind a `#line 1 "<original>"`
# (so lines, diagnostics, __FILE__ and std::source_location all name the user's file).
_ATTR_LIST = re.compile(r"\[\s*(?:aicore|host)(?:\s*,\s*(?:aicore|host))*\s*\]")
_SPECIFIERS = frozenset(
    {
        "inline",
        "__inline__",
        "__forceinline__",
        "static",
        "constexpr",
        "consteval",
        "extern",
        "virtual",
        "friend",
        "explicit",
        "__global__",
        "__aicore__",
        "__host__",
        "__device__",
    }
)
_PREV_IDENT = re.compile(r"([A-Za-z_]\w*)\s*$")


def bisheng_shadow_text(text: str) -> str | None:
    """`text` made acceptable to g++ with its lines kept, or None when nothing needs a change: bisheng's
    `[aicore]`-style attribute lists become spaces (only outside comments and literals, and not after an expression:
    `a[host]` is a subscript), in-class explicit specializations become constrained overloads."""
    if "aicore" not in text and "host" not in text and "template" not in text and "default" not in text:
        return None
    code = code_only(text)
    spans = []
    for m in _ATTR_LIST.finditer(code):
        j = m.start() - 1
        while j >= 0 and code[j].isspace():
            j -= 1
        if j >= 0 and (code[j] in ")]" or code[j].isalnum() or code[j] == "_"):
            ident = _PREV_IDENT.search(code, max(0, j - 80), j + 1)
            if not ident or ident.group(1) not in _SPECIFIERS:
                continue
        spans.append((m.start(), m.end()))
    edits = [(a, b, " " * (b - a)) for a, b in spans]
    if "template" in text:
        edits += rewrite_member_specializations(text, code)
    if "default" in text:
        edits += rewrite_defaulted_ctors(code)
    if not edits:
        return None
    out = text
    for a, b, rep in sorted(edits, reverse=True):
        out = out[:a] + rep + out[b:]
    return out


_EXPLICIT_SPEC = re.compile(r"\btemplate\s*<\s*>")
_SPEC_NAME = re.compile(
    r"(operator\s*\(\s*\)|[A-Za-z_]\w*)\s*<([^<>;{}()]*(?:<[^<>;{}()]*>[^<>;{}()]*)*)>\s*\("
)
_CLASS_SPEC = re.compile(
    r"\s*(?:struct|class|union)\s+([A-Za-z_]\w*)\s*<([^<>;{}()]*(?:<[^<>;{}()]*>[^<>;{}()]*)*)>\s*"
    r"(?::[^;{]*)?$"
)
_TEMPLATE_HEAD = re.compile(r"\btemplate\s*<((?:[^<>;{}]|<[^<>;{}]*>)*)>")
_CLASS_HEAD = re.compile(r"\b(?:class|struct|union)\b(?![^;{}]*\()")
_ENUM_HEAD = re.compile(r"\benum\b")


def _args(text: str) -> list[str]:
    """`text` split at commas outside brackets (the empty parts left out)."""
    return [p for p in split_top_level(text) if p]


def _class_bodies(code: str) -> list[tuple[int, int]]:
    """(open, close) offsets of the braces of class/struct/union bodies in `code` (comments already blanked)."""
    stack: list[tuple[int, bool]] = []
    bodies = []
    last_stop = 0
    for i, ch in enumerate(code):
        if ch == "{":
            head = code[last_stop:i]
            stack.append((i, bool(_CLASS_HEAD.search(head)) and not _ENUM_HEAD.search(head)))
            last_stop = i + 1
        elif ch == "}":
            if stack:
                start, is_class = stack.pop()
                if is_class:
                    bodies.append((start, i))
            last_stop = i + 1
        elif ch == ";":
            last_stop = i + 1
    return bodies


_DEFAULTED_CTOR = re.compile(r"\b([A-Za-z_]\w*)\s*\(\s*\)\s*=\s*default\s*;")
_CLASS_NAME = re.compile(r"\b(?:class|struct|union)\s+(?:alignas\s*\([^)]*\)\s*)?([A-Za-z_]\w*)")
_ATTR_MACRO = re.compile(
    r"(?:(?:\b(?:[A-Z_][A-Z0-9_]*|inline|__forceinline__|__aicore__|constexpr|explicit)|"
    r"\[\s*(?:aicore|host)(?:\s*,\s*(?:aicore|host))*\s*\])\s*)+$"
)


def rewrite_defaulted_ctors(code: str) -> list[tuple[int, int, str]]:
    """Edits that drop `X() = default;` from a class whose only constructor it is. bisheng compiles C++17, where such
    a class is still an aggregate (`x = {a, b}` works); C++20 (our build) made a user-declared constructor end
    aggregate initialization. Dropping it keeps the implicit default constructor, so nothing else changes. The
    attribute macros in front of it (`CATLASS_DEVICE`) go too."""
    edits: list[tuple[int, int, str]] = []
    for start, end in _class_bodies(code):
        body = code[start + 1 : end]
        if "default" not in body:
            continue
        head_from = max(code.rfind(";", 0, start), code.rfind("}", 0, start), code.rfind("{", 0, start)) + 1
        names = _CLASS_NAME.findall(code[head_from:start])
        if not names:
            continue
        name = names[-1]
        for m in _DEFAULTED_CTOR.finditer(body):
            if m.group(1) != name:
                continue
            others = [
                o
                for o in re.finditer(r"(?<![~\w])" + re.escape(name) + r"\s*\(", body)
                if o.start() != m.start()
            ]
            if others:
                continue
            a, b = start + 1 + m.start(), start + 1 + m.end()
            attrs = _ATTR_MACRO.search(code, max(0, a - 200), a)
            if attrs and attrs.end() == a:
                a = attrs.start()
            edits.append((a, b, "".join(ch if ch == "\n" else " " for ch in code[a:b])))
    return edits


def rewrite_member_specializations(text: str, code: str) -> list[tuple[int, int, str]]:
    """Edits (start, end, replacement) that turn explicit specializations of member function templates written inside
    the class (`template <> void operator()<AscendC::AIC>(...)`: accepted by bisheng/clang since C++17 (CWG 727),
    rejected by g++) into constrained overloads with the primary's template parameters: `template <int32_t
    CORE_TYPE = g_coreType> requires (CORE_TYPE == AscendC::AIC) void operator()(...)`. Same choice for every call:
    the constrained overload is more specialised than the primary."""
    edits: list[tuple[int, int, str]] = []
    bodies = _class_bodies(code)
    for m in _EXPLICIT_SPEC.finditer(code):
        inner = [b for b in bodies if b[0] < m.start() < b[1]]
        if not inner:
            continue
        body_start = max(b[0] for b in inner)
        # the declaration after `template <>`: its name with explicit arguments before the parameter list
        decl_end = len(code)
        for stop in ("{", ";"):
            k = code.find(stop, m.end())
            if k >= 0:
                decl_end = min(decl_end, k)
        nm = _SPEC_NAME.search(code, m.end(), decl_end)
        cm = _CLASS_SPEC.match(code, m.end(), decl_end)
        if cm is not None:
            nm = cm
        elif nm is None or code[m.end() : nm.start()].rstrip().endswith("::"):
            continue
        name = re.sub(r"\s+", "", nm.group(1))
        args = _args(nm.group(2))
        primary = None
        for t in _TEMPLATE_HEAD.finditer(code, body_start, m.start()):
            if not t.group(1).strip():
                continue
            after = code[t.end() : t.end() + 400]
            stop = min((j for j in (after.find("{"), after.find(";")) if j >= 0), default=len(after))
            decl = re.sub(r"\s+", " ", after[:stop]).strip()
            if cm is not None:
                if re.fullmatch(r"(?:struct|class|union) " + re.escape(name) + r"(?: ?:.*)?", decl):
                    primary = t
            elif re.search(re.escape(name) + r" ?\(", decl) and not re.search(re.escape(name) + r" ?<", decl):
                primary = t
        if primary is None:
            continue
        params = _args(primary.group(1))
        if len(params) != len(args):
            continue
        conds, names, plain = [], [], []
        for prm, arg in zip(params, args, strict=True):
            decl = prm.split("=", 1)[0].strip()
            pm = re.search(r"([A-Za-z_]\w*)\s*$", decl)
            if pm is None or decl.endswith("..."):
                break
            pname = pm.group(1)
            names.append(pname)
            plain.append(decl)
            if re.match(r"(typename|class)\b", decl):
                conds.append(f"::std::is_same_v<{pname}, {arg}>")
            else:
                conds.append(f"({pname} == ({arg}))")
        else:
            a, b = nm.start(2), nm.end(2)
            if cm is not None:
                # a partial specialization, more constrained than the primary (allowed in class scope)
                edits.append(
                    (m.start(), m.end(), f"template <{', '.join(plain)}> requires ({' && '.join(conds)})")
                )
                edits.append((a, b, ", ".join(names)))
            else:
                edits.append(
                    (
                        m.start(),
                        m.end(),
                        f"template <{primary.group(1).strip()}> requires ({' && '.join(conds)})",
                    )
                )
                # drop the explicit arguments: blanks keep the columns of the rest of the line
                a, b = nm.end(1), nm.end() - 1
                edits.append((a, b, "".join(ch if ch == "\n" else " " for ch in code[a:b])))
    return edits


def line_directive(path: Path) -> str:
    return '#line 1 "' + str(path).replace("\\", "\\\\").replace('"', '\\"') + '"\n'


def blank_host_launches(text: str) -> str | None:
    """`text` with the `<<<cfg>>>` of each host launch `kernel<<<cfg>>>(args)` (outside comments and literals) turned
    into spaces, so a kernel source's host wrapper compiles as a plain call; None when there is none."""
    if "<<<" not in text:
        return None
    out = text
    changed = False
    for m, close, _ in launch_sites(code_only(text)):
        out = out[:m] + re.sub(r"[^\n]", " ", out[m : close + 3]) + out[close + 3 :]
        changed = True
    return out if changed else None


def shadow_sources(
    sources: Sequence[Path], dirs: Sequence[Path], into: Path, host_launches: bool = False
) -> tuple[list[Path], list[Path]]:
    """Write shadow copies of the files that use bisheng attribute lists under `into`. Returns the sources to compile
    (shadows where needed) and shadow include folders, each to be searched before the folder it mirrors (a
    `#include "x.h"` from a shadow source finds a shadow x.h first, the user's own x.h next)."""
    compiled = list(sources)
    shadow_dirs: list[Path] = []
    for i, d in enumerate(dirs):
        if not d.is_dir():
            continue
        made = False
        real_d = d.resolve()
        for p in sorted(d.iterdir()):
            if not p.is_file() or (p.suffix not in HEADER_SUFFIXES and p not in sources):
                continue
            if p.is_symlink() and real_d not in p.resolve().parents:
                continue  # a link out of the folder: the compiler's box does not see its target, nor may a copy
            try:
                text = p.read_text(encoding="utf-8", errors="surrogateescape")
            except OSError:
                continue
            blanked = bisheng_shadow_text(text)
            if host_launches:  # a kernel build: host launch wrappers become plain calls (blank_host_launches)
                blanked = blank_host_launches(blanked or text) or blanked
            if blanked is None:
                continue
            target = into / str(i) / p.name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(line_directive(p) + blanked, encoding="utf-8", errors="surrogateescape")
            made = True
            if p in sources:
                compiled[compiled.index(p)] = target
        if made:
            shadow_dirs.append(into / str(i))
    return compiled, shadow_dirs


def with_shadow_dirs(flags: list[str], mirrored: Sequence[Path], shadow_root: Path) -> list[str]:
    """`flags` with `-I <shadow>` inserted right before each `-I <folder>` it mirrors."""
    out: list[str] = []
    i = 0
    while i < len(flags):
        if flags[i] == "-I" and i + 1 < len(flags):
            for k, d in enumerate(mirrored):
                if str(d) == flags[i + 1] and (shadow_root / str(k)).is_dir():
                    out += ["-I", str(shadow_root / str(k))]
                    break
            out += flags[i : i + 2]
            i += 2
        else:
            out.append(flags[i])
            i += 1
    return out
