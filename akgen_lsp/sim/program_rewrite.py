"""The line-keeping rewrite of a program's source (`akgen_lsp.sim.program` compiles what it gives): each launch
`kernel<<<cfg>>>(args)` becomes a call of the program runtime's launch, main() gets its `return 0;` and is renamed,
the preamble names the core type and the kernels' kinds; and what a program's units include from outside their
folder (`relative_include_dirs`), with the launch wrappers of `aclrtlaunch_<kernel>.h`."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from pathlib import Path

from akgen_lsp.sim.cxx_text import active_text, code_only, launch_sites
from akgen_lsp.sim.program_units import KIND_MIX, kernel_kinds, kind_registrations, launch_definitions
from akgen_lsp.sim.shadow import bisheng_shadow_text, line_directive
from akgen_lsp.sim.split import CORE_TYPES, infer_core_type

_CALLEE_CHAR = re.compile(r"[A-Za-z0-9_:]")


def _match_back_angle(code: str, i: int) -> int:
    """`code[i]` is the `>` closing a template argument list: the index of its `<`, or -1."""
    depth = 0
    while i >= 0:
        ch = code[i]
        if ch == ">":
            depth += 1
        elif ch == "<":
            depth -= 1
            if depth == 0:
                return i
        elif ch in ";{}":
            return -1
        i -= 1
    return -1


def _match_paren(code: str, i: int, pair: str = "()") -> int:
    """`code[i]` is `pair[0]` (`(` by default): the index of its `pair[1]`, or -1."""
    depth = 0
    for j in range(i, len(code)):
        if code[j] == pair[0]:
            depth += 1
        elif code[j] == pair[1]:
            depth -= 1
            if depth == 0:
                return j
    return -1


_MAIN_DEF = re.compile(r"\b(?:int|int32_t|signed|auto)\s+main\s*\(")


def main_returns(text: str) -> str:
    """`text` with `return 0;` before the closing brace of its main() definition, on the brace's line. Reaching the
    end of main() returns 0 in C++, but the rewrite renames main (akgen_user_main), and reaching the end of any other
    function that returns a value is undefined: g++ -O2 runs on into whatever code follows (asc-devkit's
    00_matmul/batch_matmul, whose main has no return, crashed in a string's destructor after its launch)."""
    code = code_only(text)
    for m in _MAIN_DEF.finditer(code):
        close = _match_paren(code, m.end() - 1)
        k = close + 1
        while 0 < k < len(code) and code[k].isspace():
            k += 1
        if close < 0 or k >= len(code) or code[k] != "{":
            continue  # a declaration, or not a function
        end = _match_paren(code, k, "{}")
        if end > 0:
            return text[:end] + "return 0;" + text[end:]
    return text


def cube_kernels(code: str) -> set[str]:
    """The names of the kernels declared `__cube__` (cube core only, KERNEL_TYPE_AIC_ONLY) in comment-free code:
    the last name before the `(` that follows the keyword (`__cube__ __global__ __aicore__ void name(`)."""
    names: set[str] = set()
    for m in re.finditer(r"\b__cube__\b([^;{}()]*)\(", code):
        words = re.findall(r"\w+", m.group(1))
        if words:
            names.add(words[-1])
    return names


def rewrite_launches(text: str) -> tuple[str, list[int]]:
    """`text` with every `callee<<<cfg>>>(args)` turned into `::akgen_sim::program_launch_kernel("callee", cfg, [&]() {
    callee(args); })`, line breaks kept (so every line keeps its number). Returns the text and the 1-based lines of
    the launches. Launches inside comments and string literals are left alone."""
    code = code_only(text)
    cube = cube_kernels(code)
    edits: list[tuple[int, int, str]] = []
    lines: list[int] = []
    done = 0  # the end of the last launch rewritten: a launch inside its arguments is part of it
    for m, close, j in launch_sites(code):
        if m < done:
            continue
        end = _match_paren(code, j)
        if end < 0:
            continue
        # the callee: an (optionally qualified) name with optional template arguments, just before `<<<`
        i = m - 1
        while i >= 0 and code[i].isspace():
            i -= 1
        if i >= 0 and code[i] == ">":
            lt = _match_back_angle(code, i)
            if lt < 0:
                continue
            i = lt - 1
            while i >= 0 and code[i].isspace():
                i -= 1
        k = i
        while k >= 0 and _CALLEE_CHAR.match(code[k]):
            k -= 1
        start = k + 1
        if start > i:
            continue
        callee = text[start:m].rstrip()
        cfg = text[m + 3 : close]
        args = text[j + 1 : end]
        # in a program with `__cube__` kernels, each launch says whether its kernel runs on the cube core only
        # (ASCEND_IS_AIV is then false in it, as on the NPU) or is undeclared (both core types)
        kind = ""
        name = re.sub(r"<.*", "", callee, flags=re.S).split("::")[-1].strip()
        if cube:
            kind = f"::akgen_sim::task_type() = {1 if name in cube else -1}; "
        # the kernel's name: a mixed kernel (program_units.kernel_kinds) runs as a MIX launch
        repl = f'::akgen_sim::program_launch_kernel("{name}", {cfg}, [&]() {{ {kind}{callee}({args}); }})'
        orig = text[start : end + 1]
        repl += "\n" * (orig.count("\n") - repl.count("\n"))
        edits.append((start, end + 1, repl))
        lines.append(text.count("\n", 0, start) + 1)
        done = end + 1
    out = text
    for a, b, rep in reversed(edits):
        out = out[:a] + rep + out[b:]
    return out, lines


def flag_defines(flags: Sequence[str]) -> dict[str, str]:
    """The macros `-DNAME[=VALUE]` of a compile command (VALUE "1" when absent, as g++ takes it)."""
    out: dict[str, str] = {}
    for f in flags:
        if f.startswith("-D") and len(f) > 2:
            name, _, value = f[2:].partition("=")
            out[name] = value if "=" in f else "1"
    return out


def shadow_program(
    path: Path, text: str, has_main: bool = True, macros: Mapping[str, str] | None = None
) -> tuple[str, list[int]]:
    """The translation unit g++ compiles for the program source at `path`: a preamble (the launch declaration, the
    core type, the kinds of the kernels it defines), then the rewritten source behind `#line 1 "<path>"`; with
    `has_main`, its `main` renamed and the program entry that calls it. `macros` (the compile's -D macros) rule out
    the #if branches they decide before the kinds are read (a `#define ASCENDC_CUBE_ONLY` under `#if SCENARIO_NUM ==
    2` does not make a scenario-1 build cube-only)."""
    body = bisheng_shadow_text(text) or text
    body, launches = rewrite_launches(main_returns(body) if has_main else body)
    decided = active_text(text, macros) if macros is not None else text
    kinds = kernel_kinds(decided)
    pre = ["// generated by akgen sim run-program from " + str(path), '#include "akgen_sim/program.h"']
    if KIND_MIX in kinds.values():
        # a mixed kernel runs on the cube core and the vector cores of each block: the core type is the running
        # fiber's, as in CANN's CPU debug (`extern int32_t g_coreType`)
        pre.append(
            "static const ::akgen_sim::CoreTypeVar g_coreType{};  // the running core's type (MIX kernels)"
        )
    else:
        core = infer_core_type([decided])
        pre.append(f"constexpr int32_t g_coreType = {CORE_TYPES[core]};  // this build's pass: {core}")
    pre += kind_registrations(kinds)
    post = [""]
    if has_main:
        pre += [
            "// the program's main() is called by the program runtime's, which passes the program's arguments",
            "#define main akgen_user_main",
        ]
        post = [
            "",
            "#undef main",
            '#line 1 "<akgen program entry>"',
            "int akgen_program_entry(int argc, char** argv) {",
            "    return ::akgen_sim::call_user_main(&akgen_user_main, argc, argv);",
            "}",
        ]
    return "\n".join(pre) + "\n" + line_directive(path) + body + "\n".join(post) + "\n", launches


def launch_wrappers(text: str) -> str:
    defs = launch_definitions(text)
    return ('#line 1 "<akgen launch wrappers>"\n' + "\n".join(defs) + "\n") if defs else ""


_REL_INCLUDE = re.compile(r'^\s*#\s*include\s*"((?:\.\./)+[^"]+)"', re.M)
_SOURCE_SUFFIXES = (".h", ".hpp", ".hh", ".inc", ".cpp", ".cc", ".cxx", ".asc")


def project_root(folder: Path) -> Path | None:
    """The project a program's folder belongs to: the nearest folder above it (or itself) with `.git` or
    `akgen.toml`; None when there is none."""
    for d in [folder, *folder.parents]:
        if (d / ".git").exists() or (d / "akgen.toml").is_file():
            return d if d != Path(d.anchor) else None
    return None


def relative_include_dirs(units: Sequence[Path], texts: Mapping[Path, str]) -> list[Path]:
    """The folders of the files a program's units include by a relative path that climbs out of their folder
    (`#include "../../../op_kernel/x.cpp"`, an operator repository's example including its kernel), so the
    compiler's box shows them: only existing C/C++ sources and headers inside the unit's own project (its git work
    tree or akgen.toml folder), never a path outside it."""
    found: list[Path] = []
    for u in units:
        root = project_root(u.parent)
        if root is None:
            continue
        for name in _REL_INCLUDE.findall(texts[u]):
            target = (u.parent / name).resolve()
            if (
                target.suffix in _SOURCE_SUFFIXES
                and target.is_file()
                and root in target.parents
                and target.parent not in found
            ):
                found.append(target.parent)
    return found
