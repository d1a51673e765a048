"""Build logs of the cann toolchain -> findings at the user's file and line.

What a CANN custom-op build prints, and how each shape is read:
- bisheng (clang) diagnostics, ``FILE:LINE:COL: error: MSG``, often indented (pip/CMake nest the output) and repeated
  once per SoC / dtype combination of a binary build (deduplicated here). An error inside a CANN header
  (``.../tikcfw/...h`` or ``.cppm``) is moved to the user's line that led there: the first following
  ``note: in instantiation of ... requested here`` at a user file, else the ``In file included from`` chain.
- driver errors without a location: ``bisheng: error: ...`` / ``ccec: error: ...`` (at the kernel's line 1).
- CMake: ``CMake Error at FILE:LINE (command):`` plus its indented detail lines, and ``CMake Error: MSG``.
- linkers: GNU ld ``undefined reference to `SYM'`` and lld ``error: undefined symbol: SYM``.
- msopgen: its ``ERROR`` log lines (at the op description JSON).
- make: ``gmake[N]: *** [...] Error N`` / ``No rule to make target`` only when nothing more precise was found.

Paths are mapped through `user_files` (the project's copy -> the user's file); a project path that is not in the map
but has the basename of a user file (a copy the build made of it) maps to that user file too.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from akgen_lsp.findings import Finding, Severity, Span
from akgen_lsp.logs.fixits import with_fixits

_DIAG = re.compile(
    r"^(?P<file>[^\s:][^:]*?):(?P<line>\d+):(?P<col>\d+):\s*"
    r"(?P<sev>fatal error|error|warning|note):\s*(?P<msg>.*)$"
)
_INCLUDED = re.compile(
    r"^(?:In file included from|\s*from)\s+(?P<file>[^:]+):(?P<line>\d+)(?::(?P<col>\d+))?[:,]?$"
)
_DRIVER = re.compile(
    r"^(?P<tool>bisheng|ccec|clang(?:\+\+)?|ccec_compiler)(?:\[\d+\])?:\s*(?:fatal )?error:\s*(?P<msg>.*)$"
)
_CMAKE_AT = re.compile(r"^CMake Error at (?P<file>.+?):(?P<line>\d+)(?:\s*\((?P<cmd>\w+)\))?:?\s*$")
_CMAKE_PLAIN = re.compile(r"^CMake Error:\s*(?P<msg>.+)$")
_LD = re.compile(r"(?:undefined reference to|undefined symbol:?)\s*[`'\"]?(?P<sym>[^'`\"\s]+?)[`'\"]?\s*$")
_MSOPGEN = re.compile(r"(?:\[ERROR\]|\bERROR\b:?)\s*(?P<msg>.*)$")
_MAKE = re.compile(
    r"^(?:g?make)(?:\[\d+\])?: (?:\*\*\* .*Error \d+|\*\*\* No rule to make target.*|.*没有规则.*)"
)


@dataclass
class _Group:
    """One error with the notes and include chain that explain where it came from."""

    path: str
    line: int
    col: int
    sev: str
    msg: str
    raw: str
    notes: list[tuple[str, int, int, str]] = field(default_factory=list)
    includes: list[tuple[str, int, int]] = field(default_factory=list)


class _Mapper:
    def __init__(self, user_files: Mapping[str, str]):
        self.exact = {os.path.normpath(k): v for k, v in user_files.items()}
        self.by_name: dict[str, str] = {}
        for k, v in user_files.items():
            self.by_name.setdefault(os.path.basename(k), v)

    def user(self, path: str) -> str | None:
        p = os.path.normpath(path)
        if p in self.exact:
            return self.exact[p]
        if p in self.exact.values():
            return p
        return self.by_name.get(os.path.basename(p))

    @property
    def kernel(self) -> str:
        for v in self.exact.values():
            if "op_kernel" in v.replace("\\", "/"):
                return v
        return next(iter(self.exact.values()), "build.log")


def _compiler_finding(g: _Group, m: _Mapper) -> Finding:
    from akgen_lsp.logs.gcc import classify_cxx_error

    path, line, col = g.path, g.line, g.col
    where = m.user(path)
    data: dict[str, object] = {"compiler": "bisheng", "raw": g.raw}
    msg = g.msg
    if where is None:
        found = next(
            (
                (m.user(p), ln, c)
                for p, ln, c, note in g.notes
                if m.user(p)
                and (
                    "requested here" in note
                    or "in instantiation" in note
                    or "expanded from" in note
                    or "required from" in note
                )
            ),
            None,
        )
        if found is None:
            found = next(((m.user(p), ln, c) for p, ln, c in reversed(g.includes) if m.user(p)), None)
        if found is not None:
            data["header"] = f"{path}:{line}:{col}"
            msg = f"{msg} (reported in {os.path.basename(path)}:{line})"
            where, line, col = found[0], found[1], found[2]
    return Finding(
        "CXX",
        msg,
        Span(where or path, line, col, line, col),
        Severity.ERROR,
        "akgen-build",
        classify_cxx_error(g.msg),
        data=data,
    )


def parse_build_log(
    text: str, user_files: Mapping[str, str] | None = None, op_json: str | None = None, tool: str = "build"
) -> list[Finding]:
    """Errors of a CANN build log -> findings (warnings are dropped; duplicates removed). With ``tool="msopgen"``
    the text is msopgen's own output and each of its ERROR lines is a finding at `op_json`."""
    m = _Mapper(user_files or {})
    lines = [ln.rstrip("\r") for ln in text.splitlines()]
    out: list[Finding] = []
    groups: list[_Group] = []
    includes: list[tuple[str, int, int]] = []
    current: _Group | None = None
    i = 0
    while i < len(lines):
        s = lines[i].strip()
        i += 1
        inc = _INCLUDED.match(s)
        if inc:
            includes.append((inc.group("file"), int(inc.group("line")), int(inc.group("col") or 1)))
            continue
        if current is not None and s.startswith(
            "fix-it:"
        ):  # -fdiagnostics-parseable-fixits (cann/project.py)
            current.raw += "\n" + s
            continue
        d = _DIAG.match(s)
        if d:
            sev = d.group("sev")
            loc = (d.group("file"), int(d.group("line")), int(d.group("col")))
            if sev == "note":
                if current is not None:
                    current.notes.append((*loc, d.group("msg")))
                continue
            if sev == "warning":
                current = None
                includes = []
                continue
            current = _Group(*loc, sev, d.group("msg").strip(), s, includes=includes)
            groups.append(current)
            includes = []
            continue
        drv = _DRIVER.match(s)
        if drv:
            out.append(
                Finding(
                    "CXX",
                    f"{drv.group('tool')}: {drv.group('msg').strip()}",
                    Span.point(m.kernel, 1),
                    Severity.ERROR,
                    "akgen-build",
                    "toolchain",
                    data={"raw": s},
                )
            )
            continue
        c = _CMAKE_AT.match(s)
        if c:
            detail: list[str] = []
            base = len(lines[i - 1]) - len(lines[i - 1].lstrip())  # pip may indent the whole log
            while i < len(lines):
                t = lines[i].strip()
                if t and len(lines[i]) - len(lines[i].lstrip()) <= base:
                    break  # "Call Stack ...", "-- ...": the message is over
                i += 1
                if t:
                    detail.append(t)
            file = c.group("file")
            out.append(
                Finding(
                    "CMAKE",
                    "CMake error: " + (" ".join(detail) or s),
                    Span.point(m.user(file) or file, int(c.group("line"))),
                    Severity.ERROR,
                    "akgen-build",
                    "build_system",
                    data={"raw": s, "command": c.group("cmd") or ""},
                )
            )
            continue
        cp = _CMAKE_PLAIN.match(s)
        if cp:
            out.append(
                Finding(
                    "CMAKE",
                    f"CMake error: {cp.group('msg').strip()}",
                    Span.point("CMakeLists.txt", 1),
                    Severity.ERROR,
                    "akgen-build",
                    "build_system",
                    data={"raw": s},
                )
            )
            continue
        ld = _LD.search(s)
        if ld and ("error" in s or "undefined reference" in s):
            out.append(
                Finding(
                    "LINK",
                    f"undefined symbol {ld.group('sym')}: an API or function that is declared but "
                    "not defined (a wrong name, or a missing source in the project)",
                    Span.point(m.kernel, 1),
                    Severity.ERROR,
                    "akgen-build",
                    "api_mismatch",
                    data={"raw": s},
                )
            )
            continue
        if tool == "msopgen" or "msopgen" in s.lower():
            mo = _MSOPGEN.search(s)
            if mo:
                out.append(
                    Finding(
                        "MSOPGEN",
                        f"msopgen: {mo.group('msg').strip() or s}",
                        Span.point(op_json or m.kernel, 1),
                        Severity.ERROR,
                        "akgen-build",
                        "build_system",
                        data={"raw": s},
                    )
                )
    compiler = with_fixits([_compiler_finding(g, m) for g in groups], m.user)
    seen: set[tuple[str, int, int, str]] = set()
    result: list[Finding] = []
    for f in compiler + out:
        key = (f.span.path, f.span.line, f.span.column, f.message)
        if key in seen:
            continue
        seen.add(key)
        result.append(f)
    if not result:
        last = next((ln.strip() for ln in reversed(lines) if _MAKE.match(ln.strip())), None)
        if last is not None:
            result.append(
                Finding(
                    "BUILD",
                    f"the build failed: {last}; see the build log",
                    Span.point(m.kernel, 1),
                    Severity.ERROR,
                    "akgen-build",
                    "build_system",
                    data={"raw": last},
                )
            )
    return result
