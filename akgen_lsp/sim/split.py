"""Split (two-pass) builds of mixed AIC/AIV kernels: which passes a kernel needs (`infer_core_type`) and whether its
sources can be included twice, once per core type (`can_split`)."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from akgen_lsp.sim.compiler import INCLUDE_DIR, is_system_header
from akgen_lsp.sim.cxx_text import code_only, code_only_keep_strings, include_lines

CORE_TYPES = {"aic": 1, "aiv": 2}  # AscendC::AIC, AscendC::AIV
MIX_RATIO = 2  # vector cores per AI Core on A2/A3 (KERNEL_TYPE_MIX_AIC_1_2)
_QUOTED_INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.MULTILINE)
_CROSS_CORE = re.compile(r"\bCrossCore(?:Set|Wait)Flag\b")
# an include guard of a source (`#ifndef X_H` / `#define X_H`): a split build undefines it between the passes
INCLUDE_GUARD = re.compile(
    r"^[ \t]*#[ \t]*ifndef[ \t]+(\w+)[ \t]*\n[ \t]*#[ \t]*define[ \t]+\1\b", re.MULTILINE
)
_PRAGMA_ONCE = re.compile(r"^[ \t]*#[ \t]*pragma[ \t]+once\b", re.MULTILINE)
_REOPENED_NS = re.compile(r"\bnamespace\s+(?:AscendC|std|akgen_sim|optiling|matmul|ge|gert)\b")


def own_headers(source: Path, search: Sequence[Path] = ()) -> tuple[list[Path], list[str]] | None:
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
            found = next(
                (c.resolve() for c in [f.parent / inc, *(d / inc for d in search)] if c.is_file()), None
            )
            if found is None:
                if not ((INCLUDE_DIR / inc).is_file() or is_system_header(inc)):
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
    found = own_headers(sources[0], search)
    if found is None:
        return False
    texts = [f.read_text(encoding="utf-8", errors="replace") for f in [sources[0], *found[0]]]
    if any(_PRAGMA_ONCE.search(code_only(t)) for t in texts):
        return False
    # code that reopens a namespace of ours or of the standard library, or declares C functions besides the kernel
    # (the same C name twice), cannot be included twice that way
    for t in texts:
        code = code_only(t)
        if any(not code[: m.start()].rstrip().endswith("using") for m in _REOPENED_NS.finditer(code)):
            return False
    return sum(len(re.findall(r'\bextern\s*"C"', code_only_keep_strings(t))) for t in texts) <= 1


_CUBE_CALL = re.compile(r"\b(?:Mmad|LoadData|LoadDataWithTranspose|Fixpipe)\s*(?:<[^;{}()]*>\s*)?\(")
# The high-level Matmul object registered with REGIST_MATMUL_OBJ: CANN builds such a kernel as MIX (the AIC runs the
# matmul server, the AIVs the kernel's code) unless ASCENDC_CUBE_ONLY is defined; KERNEL_TYPE_MIX_AIC_1_2 unless the
# kernel declares another kernel type.
_MATMUL_OBJ = re.compile(r"\bREGIST_(?:MATMUL_OBJ|MATMUL_OBJ_STATIC|CUBE_OBJ)\s*\(")
_CUBE_ONLY = re.compile(r"#\s*define\s+ASCENDC_CUBE_ONLY\b")
_TASK_TYPE = re.compile(r"\bKERNEL_TASK_TYPE(?:_DEFAULT)?\s*\(([^;]*)\)")
_MIXED_TYPE = re.compile(r"\bKERNEL_TYPE_MIX_AIC_1_[12]\b")
_MATMUL_DECL = re.compile(r"(?<![\w])Matmul(?:Impl)?\s*<")


def has_cube_side(texts: Iterable[str]) -> bool:
    """Whether a kernel gives its AIC anything to do: cube instructions, cross-core flags or a Matmul object. A MIX
    kernel without any (a vector kernel that declares KERNEL_TYPE_MIX_AIC_1_2) leaves its AIC idle: the library's
    vector and UB APIs return at once on the cube core (`if ASCEND_IS_AIC { return; }`)."""
    for text in texts:
        code = code_only(text)
        if any(w in text for w in ("Mmad", "LoadData", "Fixpipe")) and _CUBE_CALL.search(code):
            return True
        if "CrossCore" in text and _CROSS_CORE.search(code):
            return True
        if "Matmul" in text and (_MATMUL_DECL.search(code) or _MATMUL_OBJ.search(code)):
            return True
    return False


def infer_core_type(texts: Iterable[str], split: bool = False) -> str:
    """The passes to compile: "mix" (both, a split launch with one fiber per AIC and AIV) when the kernel calls the
    cube instructions (Mmad, LoadData, Fixpipe) and cross-core flags, or registers a high-level Matmul object
    (REGIST_MATMUL_OBJ, without ASCENDC_CUBE_ONLY or a kernel type other than KERNEL_TYPE_MIX_AIC_1_2: CANN's default
    for Matmul kernels), or declares a mixed kernel type (KERNEL_TYPE_MIX_AIC_1_1 / _1_2) and works across the cores
    (cross-core flags, cube instructions or a Matmul object: a Matmul of ASCENDC_CUBE_ONLY on the AIC whose AIVs
    post-process its output), or holds a Matmul object (set up by REGIST_MATMUL_OBJ or mm.Init) and cross-core flags
    (CANN's group-matmul sample: the AIC's Matmul, the AIVs' dequantisation), and `split` allows it; else one pass: "aic" when it calls the cube instructions, "aiv"
    otherwise (vector kernels, and Matmul-object kernels that cannot be split: the client runs on the vector core)."""
    cube = cross = mm_obj = decl_mm = regist = cube_only = False
    other_type = mixed_type = False
    for text in texts:
        code = code_only(text)
        cube = cube or (
            any(w in text for w in ("Mmad", "LoadData", "Fixpipe")) and bool(_CUBE_CALL.search(code))
        )
        cross = cross or ("CrossCore" in text and bool(_CROSS_CORE.search(code)))
        decl_mm = decl_mm or ("Matmul" in text and bool(_MATMUL_DECL.search(code)))
        cube_only = cube_only or bool(_CUBE_ONLY.search(code))
        if "REGIST_" in text and _MATMUL_OBJ.search(code):
            regist = True
            mm_obj = mm_obj or not _CUBE_ONLY.search(code)
        types = [m.group(1) for m in _TASK_TYPE.finditer(code) if "KERNEL_TYPE_" in m.group(1)]
        other_type = other_type or any("KERNEL_TYPE_MIX_AIC_1_2" not in t for t in types)
        mixed_type = mixed_type or any(_MIXED_TYPE.search(t) for t in types)
    # (a registered Matmul object keeps the rule above: MIX_AIC_1_2 or no type is MIX, another type one pass)
    # a declared mixed type is a MIX launch (one AIC and two AIVs per block, as CANN's CPU debug runs it without
    # SetKernelMode) unless a registered Matmul object decides it by the rule above
    by_type = mixed_type and not mm_obj
    # a Matmul object set up by mm.Init (not registered) on the AIC, with cross-core flags to the AIVs
    by_init = decl_mm and not regist and not cube_only and cross
    if split and ((cube and cross) or (mm_obj and not other_type) or by_type or by_init):
        return "mix"
    return "aic" if cube else "aiv"
