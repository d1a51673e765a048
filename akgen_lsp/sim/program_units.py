"""The translation units of a multi-source program (`akgen sim run-program --source A --source B`, or a folder):
which files are units, which of them defines `main`, what each kernel is (vector, cube or mixed), and the files a
compile read (g++'s own dependency list, `-MD`), whose contents key the program build cache.

A CANN sample is a host `main.cpp`, a kernel `.cpp`, often a host tiling `.cpp` and headers: each `.cpp` is its own
translation unit (as the sample's CMakeLists builds them), so names that are static or in anonymous namespaces in
two files do not clash, and a `.cpp` that another source `#include`s is compiled only there.
"""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from akgen_lsp.ascendc.commas import split_top_level
from akgen_lsp.sim.build_cache import parse_depfile
from akgen_lsp.sim.compiler import INCLUDE_DIR
from akgen_lsp.sim.cxx_text import code_only
from akgen_lsp.sim.split import infer_core_type

UNIT_SUFFIXES = (".asc", ".cpp", ".cc", ".cxx")
KIND_AIV, KIND_AIC, KIND_MIX = 0, 1, 2
_MAIN = re.compile(r"(?:^|[\s;}])(?:int|int32_t|auto|signed|signed\s+int)\s+main\s*\(")
_KERNEL = re.compile(r"\b__global__\b([^;{}()]*)\b([A-Za-z_]\w*)\s*\(")
_QUOTED_INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', re.MULTILINE)
_SKIP_DIRS = {"build", "out", "output", "input", "scripts", ".git", "__pycache__", "cmake"}


class UnitsError(ValueError):
    """The sources given cannot make a program; the message says what to pass instead."""


def _included_sources(unit: Path, text: str) -> set[Path]:
    return {
        (unit.parent / m.group(1)).resolve()
        for m in _QUOTED_INCLUDE.finditer(text)
        if m.group(1).endswith(UNIT_SUFFIXES)
    }


def collect_units(paths: Sequence[str | Path]) -> list[Path]:
    """The translation units of the program made of `paths`: files as given, folders expanded to the sources directly
    in them (sorted). A source that another one `#include`s is compiled there and is not a unit of its own."""
    units: list[Path] = []
    for p in paths:
        path = Path(p)
        if path.is_dir():
            found = sorted(f.resolve() for f in path.iterdir() if f.is_file() and f.suffix in UNIT_SUFFIXES)
            if not found:
                raise UnitsError(
                    f"{p}: the folder has no program sources ({', '.join(UNIT_SUFFIXES)}); pass the "
                    "folder of the sample's main.cpp and kernel sources, or the files themselves"
                )
            units += found
        elif path.is_file():
            if path.suffix not in UNIT_SUFFIXES:
                raise UnitsError(
                    f"{p}: not a program source (expected one of {', '.join(UNIT_SUFFIXES)}); headers "
                    "are found through the includes, pass their folder with -I if it is elsewhere"
                )
            units.append(path.resolve())
        else:
            raise UnitsError(
                f"{p}: no such file or folder; give the program's sources (a single-source .asc, or a "
                "sample's main.cpp and kernel .cpp), or the folder that holds them"
            )
    units = list(dict.fromkeys(units))
    included: set[Path] = set()
    for u in units:
        included |= _included_sources(u, u.read_text(encoding="utf-8", errors="replace"))
    kept = [u for u in units if u not in included]
    if not kept:
        raise UnitsError("every source given is included by another one: nothing is left to compile")
    return kept


def defines_main(text: str) -> bool:
    """Whether the source defines the program's `main` (outside comments and strings)."""
    return bool(_MAIN.search(code_only(text)))


def _closing_paren(code: str, i: int) -> int:
    depth = 0
    for j in range(i, len(code)):
        if code[j] == "(":
            depth += 1
        elif code[j] == ")":
            depth -= 1
            if depth == 0:
                return j
    return -1


def kernel_kinds(text: str) -> dict[str, int]:
    """The kernels the source defines (a `__global__` function with a body) and what each is: `__cube__` cube,
    `__vector__` vector, `__mix__` mixed, else what the source's code makes it (`split.infer_core_type`: a Matmul
    object, or cube instructions with cross-core flags, make it mixed; cube instructions alone, cube)."""
    code = re.sub(r"\b__mix__\s*\([^()]*\)", lambda m: "__mix__".ljust(len(m.group(0))), code_only(text))
    default = {"mix": KIND_MIX, "aic": KIND_AIC, "aiv": KIND_AIV}[infer_core_type([text], split=True)]
    kinds: dict[str, int] = {}
    for m in _KERNEL.finditer(code):
        close = _closing_paren(code, m.end() - 1)
        # the body may follow preprocessor lines (`#endif` closing the #if / #else of two signatures)
        after = re.sub(r"\A(?:\s*#[^\n]*(?:\n|\Z))*", "", code[close + 1 :]) if close >= 0 else ""
        if close < 0 or not after.lstrip().startswith("{"):
            continue  # a declaration (the host main's `extern "C" ... kernel(...);`)
        begin = max(code.rfind(c, 0, m.start()) for c in ";{}")  # qualifiers may come before __global__ too
        quals = code[begin + 1 : m.start()] + m.group(1)
        kind = (
            KIND_AIC
            if "__cube__" in quals
            else KIND_AIV
            if "__vector__" in quals
            else KIND_MIX
            if "__mix__" in quals
            else default
        )
        kinds[m.group(2)] = kind
    return kinds


def kind_registrations(kinds: Mapping[str, int]) -> list[str]:
    """Preamble lines that register each kernel's kind with the program runtime (akgen_sim/program.h)."""
    return [
        f'static const bool akgen_kernel_kind_{i} = ::akgen_sim::register_kernel_kind("{name}", {kind});'
        for i, (name, kind) in enumerate(sorted(kinds.items()))
    ]


# ----------------------------------------------------------------------------------------------- dependencies


def read_depfile(text: str) -> list[Path]:
    """The prerequisites of a make rule written by `g++ -MD` (build_cache.parse_depfile)."""
    return parse_depfile(text)


def user_dependencies(deps: Iterable[Path], generated: Sequence[Path]) -> list[Path]:
    """The files among `deps` that are the user's (not our headers, not the system's, not generated)."""
    ours = (str(INCLUDE_DIR.parent) + os.sep, "/usr/", "/lib/", *(str(g) + os.sep for g in generated))
    keep = {Path(os.path.normpath(d)) for d in deps if d.is_absolute() and not str(d).startswith(ours)}
    return sorted(keep)


def file_digest(path: Path) -> str | None:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return None


def digests(paths: Iterable[Path]) -> dict[str, str | None]:
    return {str(p): file_digest(p) for p in paths}


def still_current(recorded: Mapping[str, str | None]) -> bool:
    """Whether every file a cached build read still has the content it had (a deleted file counts as a change)."""
    return all(file_digest(Path(p)) == d for p, d in recorded.items())


# ----------------------------------------------------------------------------------------------- aclrtlaunch


def _split_params(params: str) -> list[str]:
    return [p for p in split_top_level(params) if p and p != "void"]


def kernel_signatures(text: str) -> list[tuple[str, list[tuple[str, str]]]]:
    """The kernels the source defines, each with its parameters as (type, name) pairs, in order."""
    code = re.sub(r"\b__mix__\s*\([^()]*\)", lambda m: "__mix__".ljust(len(m.group(0))), code_only(text))
    out: list[tuple[str, list[tuple[str, str]]]] = []
    for m in _KERNEL.finditer(code):
        close = _closing_paren(code, m.end() - 1)
        if close < 0 or not code[close + 1 :].lstrip().startswith("{"):
            continue
        begin = max(code.rfind(c, 0, m.start()) for c in ";{}")
        if re.search(r"\btemplate\b", code[begin + 1 : m.start()]):
            continue  # a template kernel: CANN generates no launch header for it either
        params: list[tuple[str, str]] = []
        for p in _split_params(code[m.end() : close]):
            p = re.sub(r"=.*$", "", p).strip()
            pm = re.match(r"^(.*?)([A-Za-z_]\w*)\s*$", p, re.S)
            if pm is None:
                continue
            params.append((" ".join(pm.group(1).split()), pm.group(2)))
        out.append((m.group(2), params))
    return out


def _host_type(ctype: str) -> str:
    """The parameter type in CANN's generated launch header: device pointers (GM_ADDR, `__gm__ T*`) are void*."""
    return "void*" if ("GM_ADDR" in ctype or "*" in ctype or "__gm__" in ctype) else ctype


def launch_header(name: str, params: Sequence[tuple[str, str]]) -> str:
    """`aclrtlaunch_<name>.h` as CANN's ascendc_library generates it: ACLRT_LAUNCH_KERNEL(name)(blockDim, stream,
    args...) calls aclrtlaunch_<name>, which launches the kernel (on the simulator: a program launch)."""
    guard = f"HEADER_ACLRTLAUNCH_{name.upper()}_H"
    args = "".join(f", {_host_type(t)} {n}" for t, n in params)
    return (
        f"// generated by akgen sim: the launch header of kernel {name} (CANN's ascendc_library makes it)\n"
        f'#ifndef {guard}\n#define {guard}\n#include <cstdint>\n#include <source_location>\n#include "acl/acl.h"\n'
        "#ifndef ACLRT_LAUNCH_KERNEL\n#define ACLRT_LAUNCH_KERNEL(kernel_func) aclrtlaunch_##kernel_func\n#endif\n"
        "// the simulator's findings and launch report name the caller's line (`loc`, defaulted)\n"
        f'extern "C" uint32_t aclrtlaunch_{name}(uint32_t blockDim, aclrtStream stream{args},\n'
        "    const std::source_location& loc = std::source_location::current());\n#endif\n"
    )


def launch_definitions(text: str) -> list[str]:
    """Lines defining `aclrtlaunch_<kernel>` for each kernel the source defines (appended to its unit)."""
    lines: list[str] = []
    for name, params in kernel_signatures(text):
        decl = "".join(f", {_host_type(t)} {n}" for t, n in params)
        call = ", ".join(f"({t}){n}" if _host_type(t) == "void*" else n for t, n in params)
        lines += [
            f'extern "C" uint32_t aclrtlaunch_{name}(uint32_t blockDim, void* stream{decl}, '
            "const std::source_location& loc) {",
            f'    ::akgen_sim::program_launch_kernel("{name}", blockDim, nullptr, stream, [&]() {{ '
            f"{name}({call}); }}, loc);",
            "    return 0;",
            "}",
        ]
    return lines
