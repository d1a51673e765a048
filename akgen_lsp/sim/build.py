"""Compile a kernel against our headers: glue generation, precompiled header, content-hash build cache, and g++
diagnostics turned into findings at the user's file and line.

Cache layout (``cache_dir()``: ``$AKGEN_CACHE_DIR`` or ``platformdirs.user_cache_dir("akgen")``, then ``sim/``):
``pch/<key>/akgen_pch.h(.gch)``, ``launcher/<key>/launcher.o``, ``builds/<key>/{kernel,build.json}``. The build key
hashes the compiler version, flags, our headers and launcher, the generated glue, the sources and every header file
beside them (``*.h``, ``*.hpp``, ``*.inc`` in the sources' folders). Entries are written to a temporary name and
renamed, so concurrent builds never see half a file.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from akgen_lsp.error_classes import classify_message
from akgen_lsp.findings import Finding, Severity, Span
from akgen_lsp.sim import cache_prune

SIM_DIR = Path(__file__).resolve().parent
INCLUDE_DIR = SIM_DIR / "include"
LAUNCHER_SRC = SIM_DIR / "launcher" / "launcher.cpp"
BASE_FLAGS = ("-std=c++20", "-Og", "-ftree-vectorize", "-fdiagnostics-color=never", "-fno-diagnostics-show-caret", "-fmax-errors=30",
              "-DASCENDC_CPU_DEBUG", "-D__NPU_ARCH__=2201")
# Not __CCE_KT_TEST__: CANN defines it only for its CPU-debug (tikicpulib) builds, and kernels gate NPU-only code on it
# (GroupNormSwish's DataCopyPad/Cast sit in `#ifndef __CCE_KT_TEST__`); the sim runs the NPU's code path. The host
# launch wrappers some kernels keep under the same guard (`k<<<blockDim, l2ctrl, stream>>>(...)`) are made plain
# calls in the shadow copy (`blank_host_launches`): dead host code for the sim, as it is for the kernel.
HEADER_SUFFIXES = (".h", ".hpp", ".inc", ".hh")


class ToolchainError(RuntimeError):
    """The toolchain itself cannot work (no compiler, unwritable cache); the message says what to do."""


def cache_dir() -> Path:
    env = os.environ.get("AKGEN_CACHE_DIR")
    if env:
        base = Path(env)
    else:
        import platformdirs

        base = Path(platformdirs.user_cache_dir("akgen"))
    return base / "sim"


def find_cxx() -> str:
    cxx = os.environ.get("AKGEN_CXX") or shutil.which("g++")
    if not cxx:
        raise ToolchainError("g++ not found: install GCC 11 or newer (Debian/Ubuntu: `apt-get install g++`), or set "
                             "AKGEN_CXX to a C++20 compiler")
    return cxx


@functools.lru_cache(maxsize=4)
def compiler_id(cxx: str) -> str:
    try:
        out = subprocess.run([cxx, "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError) as exc:
        raise ToolchainError(f"cannot run the compiler {cxx}: {exc}") from None
    return out.splitlines()[0] if out else cxx


def _hash_files(paths: Iterable[Path], h: Any) -> None:
    for p in sorted(paths):
        h.update(str(p).encode())
        h.update(b"\0")
        h.update(p.read_bytes())
        h.update(b"\0")


_headers_memo: dict[str, tuple[float, str]] = {}


def headers_hash() -> str:
    """Hash of our headers and launcher (memoised on the newest mtime, so a cache hit stays cheap)."""
    files = [p for p in INCLUDE_DIR.rglob("*") if p.is_file()] + [p for p in LAUNCHER_SRC.parent.iterdir() if p.is_file()]
    newest = max(p.stat().st_mtime_ns for p in files)
    memo = _headers_memo.get("h")
    if memo and memo[0] == newest:
        return memo[1]
    h = hashlib.sha256()
    _hash_files(files, h)
    digest = h.hexdigest()[:24]
    _headers_memo["h"] = (newest, digest)
    return digest


# --------------------------------------------------------------------------------------------------- options


@dataclass(frozen=True)
class BuildOptions:
    """What a build depends on besides the sources."""

    kernel: str
    signature: Sequence[Mapping[str, Any]]  # from Manifest.signature(): the argument kinds and C types
    defines: Mapping[str, str] = field(default_factory=dict)
    tiling_header: Path | None = None
    tiling_struct: str | None = None
    include_dirs: Sequence[Path] = ()
    use_pch: bool = True
    use_cache: bool = True
    timeout_s: float = 120.0
    core_type: str | None = None  # "aic" / "aiv": one pass (g_coreType); "mix": both; None: infer_core_type


@dataclass
class Build:
    ok: bool
    binary: Path | None
    findings: list[Finding]
    sources: tuple[Path, ...]
    key: str
    cached: bool = False
    seconds: float = 0.0
    command: list[str] = field(default_factory=list)
    log: str = ""


# --------------------------------------------------------------------------------------------------- glue

_NS_RE = re.compile(r"namespace\s+optiling\b")
_REG_RE = re.compile(r"REGISTER_TILING_DATA_CLASS\s*\(\s*(\w+)\s*,\s*(\w+)\s*\)")


def tiling_struct_name(header: Path | None, struct: str | None, kernel: str | None = None) -> str:
    """The type GET_TILING_DATA reads: the manifest's struct, else the header's REGISTER_TILING_DATA_CLASS for the
    kernel's op (`Op` for kernel `op`/`o_p`: nested structs are registered under other names), else the first one;
    qualified with optiling:: when the header declares it there."""
    text = header.read_text(encoding="utf-8", errors="replace") if header else ""
    name = struct
    if not name:
        regs = _REG_RE.findall(text)
        key = (kernel or "").replace("_", "").lower()
        mine = [cls for op, cls in regs if key and op.replace("_", "").lower() == key]
        name = mine[0] if mine else regs[0][1] if regs else "TilingData"
    if "::" not in name and _NS_RE.search(text):
        name = f"optiling::{name}"
    return name


CORE_TYPES = {"aic": 1, "aiv": 2}  # AscendC::AIC, AscendC::AIV
MIX_RATIO = 2  # vector cores per AI Core on A2/A3 (KERNEL_TYPE_MIX_AIC_1_2)
_INCLUDE = re.compile(r"^\s*#\s*include\b")
_QUOTED_INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.MULTILINE)
_CROSS_CORE = re.compile(r"\bCrossCore(?:Set|Wait)Flag\b")
# an include guard of a source (`#ifndef X_H` / `#define X_H`): a split build undefines it between the passes
_GUARD = re.compile(r"^[ \t]*#[ \t]*ifndef[ \t]+(\w+)[ \t]*\n[ \t]*#[ \t]*define[ \t]+\1\b", re.MULTILINE)
_PRAGMA_ONCE = re.compile(r"^[ \t]*#[ \t]*pragma[ \t]+once\b", re.MULTILINE)
_REOPENED_NS = re.compile(r"\bnamespace\s+(?:AscendC|std|akgen_sim|optiling|matmul|ge|gert)\b")


def code_only_keep_strings(text: str) -> str:
    """`text` without its comments (string literals kept: `extern "C"` is code)."""
    return re.sub(r"//[^\n]*|/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.DOTALL)


def include_lines(text: str) -> list[str]:
    """The #include lines of a source (outside comments), as written."""
    code = code_only(text).splitlines()
    return [line.strip() for line, c in zip(text.splitlines(), code, strict=False) if _INCLUDE.match(c)]


@functools.lru_cache(maxsize=256)
def _is_system_header(name: str) -> bool:
    """Whether `name` is a header of the C/C++ system include folders (the compiler's own, /usr/include)."""
    if name.startswith((".", "/")) or ".." in name:
        return False
    dirs = [Path("/usr/include"), Path("/usr/local/include")]
    try:
        cxx = find_cxx()
        out = subprocess.run([cxx, "-print-file-name=include"], capture_output=True, text=True, timeout=30).stdout
        if out.strip():
            dirs.append(Path(out.strip()))
    except (OSError, subprocess.SubprocessError, ToolchainError):
        pass
    return any((d / name).is_file() for d in dirs)


def _own_headers(source: Path, search: Sequence[Path] = ()) -> tuple[list[Path], list[str]] | None:
    """The headers of the kernel's own that `source` includes, directly or through each other (a quoted include found
    next to the including file or in `search`), and the include lines of everything else they and the source include
    (ours, the system's), in order; None when a quoted include is found nowhere."""
    own: list[Path] = []
    hoisted: list[str] = []
    todo = [source.resolve()]
    seen = {source.resolve()}
    while todo:
        f = todo.pop(0)
        try:
            text = f.read_text(encoding="utf-8", errors="replace")
        except OSError:
            return None
        for line in include_lines(text):
            m = _QUOTED_INCLUDE.match(line)
            if m is None:
                hoisted.append(line)  # <...>: the system's
                continue
            inc = m.group(1)
            found = next((c.resolve() for c in [f.parent / inc, *(d / inc for d in search)] if c.is_file()), None)
            if found is None:
                if not ((INCLUDE_DIR / inc).is_file() or _is_system_header(inc)):
                    return None
                hoisted.append(line)
            elif found not in seen:
                seen.add(found)
                own.append(found)
                todo.append(found)
    return own, hoisted


def can_split(sources: Sequence[Path], search: Sequence[Path] = ()) -> bool:
    """A split (two-pass) build includes the sources twice, each pass in a namespace of its own: one source, whose
    headers of its own (next to it or in `search`) are included again in the second pass (their `#ifndef` include
    guards are undone between the passes, so none may be `#pragma once`); every other include (ours, the system's,
    `#include "stdarg.h"`) comes once, at global scope."""
    if len(sources) != 1:
        return False
    found = _own_headers(sources[0], search)
    if found is None:
        return False
    texts = [f.read_text(encoding="utf-8", errors="replace") for f in [sources[0], *found[0]]]
    if any(_PRAGMA_ONCE.search(code_only(t)) for t in texts):
        return False
    # code that reopens a namespace of ours or of the standard library, or declares C functions besides the kernel
    # (the same C name twice), cannot be included twice that way
    for t in texts:
        code = code_only(t)
        if any(not code[:m.start()].rstrip().endswith("using") for m in _REOPENED_NS.finditer(code)):
            return False
    return sum(len(re.findall(r'\bextern\s*"C"', code_only_keep_strings(t))) for t in texts) <= 1


_CUBE_CALL = re.compile(r"\b(?:Mmad|LoadData|LoadDataWithTranspose|Fixpipe)\s*(?:<[^;{}()]*>\s*)?\(")
# The high-level Matmul object registered with REGIST_MATMUL_OBJ: CANN builds such a kernel as MIX (the AIC runs the
# matmul server, the AIVs the kernel's code) unless ASCENDC_CUBE_ONLY is defined; KERNEL_TYPE_MIX_AIC_1_2 unless the
# kernel declares another kernel type.
_MATMUL_OBJ = re.compile(r"\bREGIST_(?:MATMUL_OBJ|MATMUL_OBJ_STATIC|CUBE_OBJ)\s*\(")
_CUBE_ONLY = re.compile(r"#\s*define\s+ASCENDC_CUBE_ONLY\b")
_TASK_TYPE = re.compile(r"\bKERNEL_TASK_TYPE(?:_DEFAULT)?\s*\(([^;]*)\)")


def infer_core_type(texts: Iterable[str], split: bool = False) -> str:
    """The passes to compile: "mix" (both, a split launch with one fiber per AIC and AIV) when the kernel calls the
    cube instructions (Mmad, LoadData, Fixpipe) and cross-core flags, or registers a high-level Matmul object
    (REGIST_MATMUL_OBJ, without ASCENDC_CUBE_ONLY or a kernel type other than KERNEL_TYPE_MIX_AIC_1_2: CANN's default
    for Matmul kernels), and `split` allows it; else one pass: "aic" when it calls the cube instructions, "aiv"
    otherwise (vector kernels, and Matmul-object kernels that cannot be split: the client runs on the vector core)."""
    cube = cross = mm_obj = False
    other_type = False
    for text in texts:
        code = code_only(text)
        cube = cube or (any(w in text for w in ("Mmad", "LoadData", "Fixpipe")) and bool(_CUBE_CALL.search(code)))
        cross = cross or ("CrossCore" in text and bool(_CROSS_CORE.search(code)))
        if "REGIST_" in text and _MATMUL_OBJ.search(code) and not _CUBE_ONLY.search(code):
            mm_obj = True
        other_type = other_type or any("KERNEL_TYPE_MIX_AIC_1_2" not in m.group(1)
                                       for m in _TASK_TYPE.finditer(code) if "KERNEL_TYPE_" in m.group(1))
    if split and ((cube and cross) or (mm_obj and not other_type)):
        return "mix"
    return "aic" if cube else "aiv"


_COMMENT_RE = re.compile(r"//[^\n]*|/\*.*?\*/", re.S)
_TYPE_DECL_RE = re.compile(r"\b(?:BEGIN_TILING_DATA_DEF\s*\(\s*(\w+)\s*\)|(?:struct|class|enum(?:\s+class)?|union)\s+"
                           r"(\w+)\s*(?:[:{]|final\b)|using\s+(\w+)\s*=)")


def optiling_type_names(text: str) -> list[str]:
    """The types a tiling header declares directly in `namespace optiling { ... }` (tiling data structs, plain
    structs, enums, aliases), in order, without duplicates."""
    text = _COMMENT_RE.sub(" ", text)
    names: list[str] = []
    for m in re.finditer(r"namespace\s+optiling\s*\{", text):
        depth, i, start = 1, m.end(), m.end()
        top: list[str] = []
        while i < len(text) and depth:
            ch = text[i]
            if ch == "{":
                if depth == 1:
                    top.append(text[start:i + 1])
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 1:
                    start = i + 1
            elif ch == ";" and depth == 1:
                top.append(text[start:i + 1])
                start = i + 1
            i += 1
        top.append(text[start:i])
        for chunk in top:
            for d in _TYPE_DECL_RE.finditer(chunk):
                n = d.group(1) or d.group(2) or d.group(3)
                if n and n not in names:
                    names.append(n)
    return names


def generate_glue(sources: Sequence[Path], opts: BuildOptions, search: Sequence[Path] = ()) -> str:
    """The glue source; `search`: the folders where the kernel's own headers may be (a split build)."""
    lines = ["// generated by akgen sim: includes the kernel sources and calls the kernel from the launcher",
             '#include "akgen_sim/glue.h"']
    core = opts.core_type or "aiv"
    if core != "mix":
        lines.append(f"inline constexpr int32_t g_coreType = {CORE_TYPES[core]};  // this build's pass: {core}")
    if opts.tiling_header:
        lines.append(f'#include "{opts.tiling_header}"')
    if opts.tiling_header or opts.tiling_struct:
        lines.append(f"using akgen_tiling_struct_t = {tiling_struct_name(opts.tiling_header, opts.tiling_struct, opts.kernel)};")
    if opts.tiling_header and _NS_RE.search(opts.tiling_header.read_text(encoding="utf-8", errors="replace")):
        # the kernel-side build of CANN puts the tiling structs at global scope: kernels name them unqualified. Only
        # the types: the header's constants (`constexpr size_t MAX_DIM_NUM`) stay host-side, so a kernel may reuse
        # their names.
        names = optiling_type_names(opts.tiling_header.read_text(encoding="utf-8", errors="replace"))
        if names:
            lines.extend(f"using optiling::{n};" for n in names)
        else:
            lines.append("using namespace optiling;")
    # DT_* as macros for the kernel's `#if ORIG_DTYPE_X == DT_FLOAT16` (after the host tiling header, see the file)
    lines.append('#include "akgen_sim/kernel_type.h"')
    if core == "mix":
        # a split build: the sources once per core type, each pass in a namespace of its own with its g_coreType and
        # the kernel renamed; the headers they include come first at global scope (so the passes share them)
        guards: list[str] = []
        for s in sources:
            own, hoisted = _own_headers(s, search) or ([], include_lines(s.read_text(encoding="utf-8",
                                                                                     errors="replace")))
            lines.extend(dict.fromkeys(hoisted))
            for f in [s, *own]:
                text = f.read_text(encoding="utf-8", errors="replace")
                guards.extend(g for g in _GUARD.findall(code_only(text)) if g not in guards)
        for name, value in (("aic", 1), ("aiv", 2)):
            lines.append(f"namespace akgen_pass_{name} {{")
            lines.append(f"inline constexpr int32_t g_coreType = {value};")
            lines.append(f"#define {opts.kernel} akgen_{name}_{opts.kernel}")
            lines.extend(f'#include "{s}"' for s in sources)
            lines.append(f"#undef {opts.kernel}")
            lines.extend(f"#undef {g}" for g in guards)  # the next pass includes the source again
            lines.append("}")
    else:
        for s in sources:
            lines.append(f'#include "{s}"')
    lines.append(f'extern "C" const int akgen_sim_mix = {MIX_RATIO if core == "mix" else 0};')
    params = []
    for i, a in enumerate(opts.signature):
        if a["kind"] == "scalar":
            params.append(f"::akgen_sim::parse_scalar<{a['ctype']}>(static_cast<const char*>(a[{i}]))")
        else:
            params.append(f"static_cast<GM_ADDR>(a[{i}])")
    lines.append('extern "C" void akgen_sim_entry(void* const* a) {')
    lines.append("    (void)a;")
    if core == "mix":
        lines.append("    if (::akgen_sim::ctx().core_type == 1)")
        lines.append(f"        akgen_pass_aic::akgen_aic_{opts.kernel}({', '.join(params)});")
        lines.append("    else")
        lines.append(f"        akgen_pass_aiv::akgen_aiv_{opts.kernel}({', '.join(params)});")
    else:
        lines.append(f"    {opts.kernel}({', '.join(params)});")
    lines.append("}")
    lines.append('extern "C" void akgen_sim_fill_tiling(int arg, uint8_t* buf, uint64_t cap, const char* kv) {')
    lines.append("    (void)arg; (void)buf; (void)cap; (void)kv;")
    for i, a in enumerate(opts.signature):
        if a["kind"] != "tiling":
            continue
        lines.append(f"    if (arg == {i}) {{")
        lines.append("        akgen_tiling_struct_t t{};")
        lines.append("        ::akgen_sim::for_each_field(kv, [&](std::string_view k, const char* v) {")
        for f in a.get("fields", []):
            lines.append(f'            if (k == "{f}") ::akgen_sim::parse_into(t.{f}, v);')
        lines.append("        });")
        lines.append("        std::memcpy(buf, &t, sizeof(t) < cap ? sizeof(t) : cap);")
        lines.append("    }")
    lines.append("}")
    return "\n".join(lines) + "\n"


# --------------------------------------------------------------------------------------------------- bisheng syntax

# bisheng (the CCE compiler) spells function attributes as a bracket list before the declaration: `__aicore__` expands
# to `[aicore]` and `__host_aicore__` to `[host, aicore]`; catlass-style kernels write them out. g++ rejects `[`, so the
# build compiles a shadow copy with these lists blanked (same length, so columns stay) behind a `#line 1 "<original>"`
# (so lines, diagnostics, __FILE__ and std::source_location all name the user's file).
_ATTR_LIST = re.compile(r"\[\s*(?:aicore|host)(?:\s*,\s*(?:aicore|host))*\s*\]")
_SPECIFIERS = frozenset({"inline", "__inline__", "__forceinline__", "static", "constexpr", "consteval", "extern",
                         "virtual", "friend", "explicit", "__global__", "__aicore__", "__host__", "__device__"})
_PREV_IDENT = re.compile(r"([A-Za-z_]\w*)\s*$")
_RAW_OPEN = re.compile(r'(?:u8|u|U|L)?R"([^()\\\s]{0,16})\(')


def code_only(text: str) -> str:
    """`text` with comments and string/char literals replaced by spaces (newlines kept), same length."""
    out = list(text)
    i, n = 0, len(text)

    def blank(a: int, b: int) -> None:
        for k in range(a, min(b, n)):
            if out[k] != "\n":
                out[k] = " "

    while i < n:
        c = text[i]
        if c == "/" and text.startswith("//", i):
            j = i
            while True:  # a backslash-newline continues a line comment
                j = text.find("\n", j)
                if j < 0:
                    j = n
                    break
                if text[j - 1] != "\\":
                    break
                j += 1
            blank(i, j)
            i = j
        elif c == "/" and text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            blank(i, j)
            i = j
        elif c == "R" or (c in "uUL" and "R\"" in text[i:i + 4]):
            m = _RAW_OPEN.match(text, i)
            if m and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
                end = text.find(f"){m.group(1)}\"", m.end())
                j = n if end < 0 else end + len(m.group(1)) + 2
                blank(i, j)
                i = j
            else:
                i += 1
        elif c in "\"'":
            if c == "'" and i > 0 and text[i - 1].isalnum() and i + 1 < n and text[i + 1].isalnum():
                i += 1  # a digit separator (1'000'000)
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            j = min(j + 1, n)
            blank(i, j)
            i = j
        else:
            i += 1
    return "".join(out)


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
_SPEC_NAME = re.compile(r"(operator\s*\(\s*\)|[A-Za-z_]\w*)\s*<([^<>;{}()]*(?:<[^<>;{}()]*>[^<>;{}()]*)*)>\s*\(")
_CLASS_SPEC = re.compile(r"\s*(?:struct|class|union)\s+([A-Za-z_]\w*)\s*<([^<>;{}()]*(?:<[^<>;{}()]*>[^<>;{}()]*)*)>\s*"
                         r"(?::[^;{]*)?$")
_TEMPLATE_HEAD = re.compile(r"\btemplate\s*<((?:[^<>;{}]|<[^<>;{}]*>)*)>")
_CLASS_HEAD = re.compile(r"\b(?:class|struct|union)\b(?![^;{}]*\()")
_ENUM_HEAD = re.compile(r"\benum\b")


def _split_top(text: str) -> list[str]:
    """`text` split at commas outside brackets."""
    parts, depth, cur = [], 0, []
    for ch in text:
        if ch in "<([{":
            depth += 1
        elif ch in ">)]}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(cur).strip())
            cur = []
        else:
            cur.append(ch)
    if "".join(cur).strip():
        parts.append("".join(cur).strip())
    return parts


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
_ATTR_MACRO = re.compile(r"(?:(?:\b(?:[A-Z_][A-Z0-9_]*|inline|__forceinline__|__aicore__|constexpr|explicit)|"
                         r"\[\s*(?:aicore|host)(?:\s*,\s*(?:aicore|host))*\s*\])\s*)+$")


def rewrite_defaulted_ctors(code: str) -> list[tuple[int, int, str]]:
    """Edits that drop `X() = default;` from a class whose only constructor it is. bisheng compiles C++17, where such
    a class is still an aggregate (`x = {a, b}` works); C++20 (our build) made a user-declared constructor end
    aggregate initialization. Dropping it keeps the implicit default constructor, so nothing else changes. The
    attribute macros in front of it (`CATLASS_DEVICE`) go too."""
    edits: list[tuple[int, int, str]] = []
    for start, end in _class_bodies(code):
        body = code[start + 1:end]
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
            others = [o for o in re.finditer(r"(?<![~\w])" + re.escape(name) + r"\s*\(", body) if o.start() != m.start()]
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
        elif nm is None or code[m.end():nm.start()].rstrip().endswith("::"):
            continue
        name = re.sub(r"\s+", "", nm.group(1))
        args = _split_top(nm.group(2))
        primary = None
        for t in _TEMPLATE_HEAD.finditer(code, body_start, m.start()):
            if not t.group(1).strip():
                continue
            after = code[t.end():t.end() + 400]
            stop = min((j for j in (after.find("{"), after.find(";")) if j >= 0), default=len(after))
            decl = re.sub(r"\s+", " ", after[:stop]).strip()
            if cm is not None:
                if re.fullmatch(r"(?:struct|class|union) " + re.escape(name) + r"(?: ?:.*)?", decl):
                    primary = t
            elif re.search(re.escape(name) + r" ?\(", decl) and not re.search(re.escape(name) + r" ?<", decl):
                primary = t
        if primary is None:
            continue
        params = _split_top(primary.group(1))
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
                edits.append((m.start(), m.end(), f"template <{', '.join(plain)}> requires ({' && '.join(conds)})"))
                edits.append((a, b, ", ".join(names)))
            else:
                edits.append((m.start(), m.end(),
                              f"template <{primary.group(1).strip()}> requires ({' && '.join(conds)})"))
                # drop the explicit arguments: blanks keep the columns of the rest of the line
                a, b = nm.end(1), nm.end() - 1
                edits.append((a, b, "".join(ch if ch == "\n" else " " for ch in code[a:b])))
    return edits


def _line_directive(path: Path) -> str:
    return '#line 1 "' + str(path).replace("\\", "\\\\").replace('"', '\\"') + '"\n'


def launch_sites(code: str) -> Iterator[tuple[int, int, int]]:
    """Each host launch `kernel<<<cfg>>>(args)` of `code` (comments and literals blanked, as code_only gives it): the
    offsets of its `<<<`, of its `>>>` and of the `(` that opens the arguments, in order."""
    pos = 0
    while (m := code.find("<<<", pos)) >= 0:
        close = code.find(">>>", m + 3)
        if close < 0:
            return
        j = close + 3
        while j < len(code) and code[j].isspace():
            j += 1
        if j < len(code) and code[j] == "(":
            yield m, close, j
            pos = close + 3
        else:
            pos = m + 3


def blank_host_launches(text: str) -> str | None:
    """`text` with the `<<<cfg>>>` of each host launch `kernel<<<cfg>>>(args)` (outside comments and literals) turned
    into spaces, so a kernel source's host wrapper compiles as a plain call; None when there is none."""
    if "<<<" not in text:
        return None
    out = text
    changed = False
    for m, close, _ in launch_sites(code_only(text)):
        out = out[:m] + re.sub(r"[^\n]", " ", out[m:close + 3]) + out[close + 3:]
        changed = True
    return out if changed else None


def shadow_sources(sources: Sequence[Path], dirs: Sequence[Path], into: Path,
                   host_launches: bool = False) -> tuple[list[Path], list[Path]]:
    """Write shadow copies of the files that use bisheng attribute lists under `into`. Returns the sources to compile
    (shadows where needed) and shadow include folders, each to be searched before the folder it mirrors (a
    `#include "x.h"` from a shadow source finds a shadow x.h first, the user's own x.h next)."""
    compiled = list(sources)
    shadow_dirs: list[Path] = []
    for i, d in enumerate(dirs):
        if not d.is_dir():
            continue
        made = False
        for p in sorted(d.iterdir()):
            if not p.is_file() or (p.suffix not in HEADER_SUFFIXES and p not in sources):
                continue
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
            target.write_text(_line_directive(p) + blanked, encoding="utf-8", errors="surrogateescape")
            made = True
            if p in sources:
                compiled[compiled.index(p)] = target
        if made:
            shadow_dirs.append(into / str(i))
    return compiled, shadow_dirs


# --------------------------------------------------------------------------------------------------- diagnostics

_DIAG = re.compile(r"^(?P<file>[^:\n]+?):(?P<line>\d+):(?:(?P<col>\d+):)?\s*(?P<sev>fatal error|error|warning|note):\s*"
                   r"(?P<msg>.*)$")
_CONTEXT = re.compile(r"^(?:In file included from |\s+from )?(?P<file>[^:\n]+?):(?P<line>\d+)(?::(?P<col>\d+))?[:,]"
                      r"\s*(?P<rest>.*)$")

# a line that opens the context of the next diagnostic (g++: "x.cpp: In function 'f':", include chains)
_CONTEXT_START = re.compile(r"^(?:In file included from |[^:\n]+: In (?:function|member function|static member function|"
                            r"instantiation|constructor|destructor|lambda|substitution)\b)")


def classify_cxx_error(message: str) -> str:
    """The taxonomy class of a compiler message (akgen_lsp/error_classes.toml, its [[message]] rules)."""
    return classify_message(message) or "api_mismatch"


def parse_gcc_output(text: str, user_files: Mapping[str, str], fallback: str) -> list[Finding]:
    """g++ diagnostics -> findings. Errors inside our headers are moved to the user's line that led there (the last
    "required from here" / include location in the user's files); `user_files` maps absolute paths to display paths."""
    findings: list[Finding] = []
    pending: tuple[str, int, int] | None = None
    lead: list[str] = []  # context lines (include chain, "In instantiation of") before the next error
    own: list[str] | None = None  # the last error's lines: its context, itself, then its notes and source lines
    raws: list[tuple[dict[str, object], list[str]]] = []

    def user(path: str) -> str | None:
        p = os.path.normpath(path)
        return user_files.get(p)

    for raw in text.splitlines():
        m = _DIAG.match(raw)
        if m is not None and m.group("sev") == "note" and own is not None:
            own.extend([*lead, raw])  # a note (and the include chain of its header) belongs to the last error
            lead = []
        elif m is None:
            if _CONTEXT_START.match(raw) or lead or own is None:
                lead.append(raw)
            else:
                own.append(raw)
        if m is None:
            c = _CONTEXT.match(raw)
            if c and user(c.group("file")):
                pending = (user(c.group("file")) or "", int(c.group("line")), int(c.group("col") or 1))
            continue
        sev = m.group("sev")
        path, line, col = m.group("file"), int(m.group("line")), int(m.group("col") or 1)
        shown = user(path)
        if sev == "note":
            if shown:
                pending = (shown, line, col)
            continue
        if sev == "warning":
            continue
        msg = m.group("msg").strip()
        if shown:
            loc = (shown, line, col)
        elif pending:
            loc = pending
        else:
            loc = (fallback, 1, 1)
        data: dict[str, object] = {"compiler_file": path, "compiler_line": line} if not shown else {}
        own, lead = [*lead, raw], []
        raws.append((data, own))
        findings.append(Finding(
            code="CXX", message=msg, span=Span(loc[0], loc[1], loc[2], loc[1], loc[2]), severity=Severity.ERROR,
            source="akgen-build", error_class=classify_cxx_error(msg), data=data,
        ))
        pending = None
    for data, lines in raws:  # the real log lines of each error, for akgen errors (bounded)
        data["raw"] = "\n".join(lines)[:3000]
    if not findings and text.strip():
        # A link error or a crash of the compiler: keep the text so nothing is lost.
        first = next((ln for ln in text.splitlines() if "error" in ln), text.strip().splitlines()[-1])
        findings.append(Finding(code="CXX", message=first.strip(), span=Span.point(fallback, 1), source="akgen-build",
                                error_class=classify_cxx_error(first), data={"log": text[-4000:]}))
    return findings


# --------------------------------------------------------------------------------------------------- compile


def _atomic_dir(final: Path) -> Path:
    final.parent.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=final.name + ".tmp", dir=final.parent))


def _publish(tmp: Path, final: Path) -> None:
    """Move a finished cache entry into place, then keep its cache folder bounded (cache_prune)."""
    try:
        os.replace(tmp, final)
    except OSError:  # another process won the race: theirs is as good as ours
        shutil.rmtree(tmp, ignore_errors=True)
    cache_prune.maybe_prune(final.parent)


def _run(cmd: list[str], timeout: float, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=cwd,
                              env=_compiler_env(), start_new_session=True)
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(cmd, 124, "", f"error: the compiler took more than {timeout:.0f} s")
    except OSError as exc:
        raise ToolchainError(f"cannot run {cmd[0]}: {exc}") from None


def _compiler_env() -> dict[str, str]:
    keep = ("PATH", "HOME", "LANG", "TMPDIR")
    env = {k: os.environ[k] for k in keep if k in os.environ}
    env["LC_ALL"] = "C"
    return env


def ensure_pch(cxx: str, timeout: float = 300.0) -> Path:
    """The precompiled header for BASE_FLAGS; built once per compiler and header version."""
    key = hashlib.sha256(f"{compiler_id(cxx)}|{BASE_FLAGS}|{headers_hash()}".encode()).hexdigest()[:24]
    final = cache_dir() / "pch" / key
    header = final / "akgen_pch.h"
    if (final / "akgen_pch.h.gch").is_file():
        cache_prune.touch(final)
        return header
    tmp = _atomic_dir(final)
    (tmp / "akgen_pch.h").write_text(f'#include "{INCLUDE_DIR / "akgen_sim" / "pch.h"}"\n', encoding="utf-8")
    res = _run([cxx, *BASE_FLAGS, "-I", str(INCLUDE_DIR), "-x", "c++-header", str(tmp / "akgen_pch.h"),
                "-o", str(tmp / "akgen_pch.h.gch")], timeout)
    if res.returncode != 0:
        shutil.rmtree(tmp, ignore_errors=True)
        raise ToolchainError(f"building the precompiled header failed:\n{res.stderr[-2000:]}")
    _publish(tmp, final)
    return header


def ensure_launcher(cxx: str, timeout: float = 300.0) -> Path:
    key = hashlib.sha256(f"{compiler_id(cxx)}|{BASE_FLAGS}|{headers_hash()}|launcher".encode()).hexdigest()[:24]
    final = cache_dir() / "launcher" / key
    obj = final / "launcher.o"
    if obj.is_file():
        cache_prune.touch(final)
        return obj
    tmp = _atomic_dir(final)
    res = _run([cxx, *BASE_FLAGS, "-I", str(INCLUDE_DIR), "-I", str(LAUNCHER_SRC.parent), "-c", str(LAUNCHER_SRC),
                "-o", str(tmp / "launcher.o")],
               timeout)
    if res.returncode != 0:
        shutil.rmtree(tmp, ignore_errors=True)
        raise ToolchainError(f"building the simulator launcher failed:\n{res.stderr[-2000:]}")
    _publish(tmp, final)
    return obj


def _side_headers(sources: Sequence[Path], extra: Sequence[Path]) -> list[Path]:
    seen: set[Path] = set()
    for d in {s.parent for s in sources} | set(extra):
        if d.is_dir():
            for p in d.iterdir():
                if p.suffix in HEADER_SUFFIXES and p.is_file():
                    seen.add(p)
    return sorted(seen)


def build_key(cxx: str, sources: Sequence[Path], glue: str, flags: Sequence[str], opts: BuildOptions) -> str:
    h = hashlib.sha256()
    h.update(f"{compiler_id(cxx)}|{headers_hash()}|{list(flags)}|{opts.use_pch}".encode())
    h.update(glue.encode())
    files = list(sources) + _side_headers(sources, opts.include_dirs)
    if opts.tiling_header:
        files.append(opts.tiling_header)
    _hash_files(set(files), h)
    return h.hexdigest()[:32]


def _with_shadow_dirs(flags: list[str], mirrored: Sequence[Path], shadow_root: Path) -> list[str]:
    """`flags` with `-I <shadow>` inserted right before each `-I <folder>` it mirrors."""
    out: list[str] = []
    i = 0
    while i < len(flags):
        if flags[i] == "-I" and i + 1 < len(flags):
            for k, d in enumerate(mirrored):
                if str(d) == flags[i + 1] and (shadow_root / str(k)).is_dir():
                    out += ["-I", str(shadow_root / str(k))]
                    break
            out += flags[i:i + 2]
            i += 2
        else:
            out.append(flags[i])
            i += 1
    return out


def compile_kernel(sources: Sequence[Path], opts: BuildOptions) -> Build:
    """Compile and link the kernel with the launcher. Never raises for a bad kernel: the Build carries findings."""
    t0 = time.perf_counter()
    cxx = find_cxx()
    sources = tuple(Path(s).resolve() for s in sources)
    user_files = {os.path.normpath(str(s)): str(s) for s in sources}
    for hdr in _side_headers(sources, opts.include_dirs):
        user_files[os.path.normpath(str(hdr.resolve()))] = str(hdr.resolve())
    if opts.tiling_header:
        th = opts.tiling_header.resolve()
        user_files[os.path.normpath(str(th))] = str(th)
    flags = [*BASE_FLAGS]
    flags += [f"-D{k}={v}" for k, v in sorted(opts.defines.items())]
    flags += ["-I", str(INCLUDE_DIR)]
    for d in [*opts.include_dirs, *sorted({s.parent for s in sources})]:
        flags += ["-I", str(d)]
    core = opts.core_type
    if core is None:
        texts = []
        for f in [*sources, *_side_headers(sources, opts.include_dirs)]:
            try:
                texts.append(f.read_text(encoding="utf-8", errors="replace"))
            except OSError:
                continue
        core = infer_core_type(texts, split=can_split(sources, opts.include_dirs))
    glue_opts = BuildOptions(**{**opts.__dict__, "core_type": core, "tiling_header": opts.tiling_header.resolve()
                                if opts.tiling_header else None})
    glue = generate_glue(sources, glue_opts, opts.include_dirs)
    key = build_key(cxx, sources, glue, flags, opts)
    final = cache_dir() / "builds" / key
    if opts.use_cache and (final / "build.json").is_file():
        cache_prune.touch(final)
        meta = json.loads((final / "build.json").read_text(encoding="utf-8"))
        from akgen_lsp.findings import finding_from_json

        found = [finding_from_json(f) for f in meta.get("findings", [])]
        binary = final / "kernel" if meta.get("ok") else None
        return Build(ok=bool(meta.get("ok")), binary=binary, findings=found, sources=sources, key=key, cached=True,
                     seconds=time.perf_counter() - t0, command=meta.get("command", []), log=meta.get("log", ""))
    launcher = ensure_launcher(cxx)
    pch_flags: list[str] = []
    if opts.use_pch:
        pch_flags = ["-include", str(ensure_pch(cxx)), "-Winvalid-pch"]
    tmp = _atomic_dir(final) if opts.use_cache else Path(tempfile.mkdtemp(prefix="akgen-build-"))
    mirrored = [*opts.include_dirs, *sorted({s.parent for s in sources})]
    compiled, shadow_dirs = shadow_sources(sources, mirrored, tmp / "shadow", host_launches=True)
    if shadow_dirs:
        glue = generate_glue(compiled, glue_opts, mirrored)
        flags = _with_shadow_dirs(flags, mirrored, tmp / "shadow")
    (tmp / "glue.cpp").write_text(glue, encoding="utf-8")
    link = ["-fuse-ld=gold"] if shutil.which("ld.gold") else []  # links in a third of the time of ld.bfd
    cmd = [cxx, *flags, *pch_flags, *link, str(tmp / "glue.cpp"), str(launcher), "-o", str(tmp / "kernel")]
    res = _run(cmd, opts.timeout_s, cwd=tmp)
    log = (res.stderr or "") + (res.stdout or "")
    ok = res.returncode == 0
    findings = [] if ok else parse_gcc_output(log, user_files, str(sources[0]))
    if ok and not (tmp / "kernel").is_file():
        ok = False
    from akgen_lsp.findings import finding_to_json

    meta = {"ok": ok, "findings": [finding_to_json(f) for f in findings], "command": cmd, "log": log[-20000:]}
    (tmp / "build.json").write_text(json.dumps(meta), encoding="utf-8")
    if opts.use_cache:
        _publish(tmp, final)
        out_dir = final if final.is_dir() else tmp
    else:
        out_dir = tmp
    return Build(ok=ok, binary=(out_dir / "kernel") if ok else None, findings=findings, sources=sources, key=key,
                 cached=False, seconds=time.perf_counter() - t0, command=cmd, log=log)
