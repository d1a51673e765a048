"""Build logs of the cann toolchain -> findings at the user's file and line (the editor's build logs, the cann
bench).

The log is read by the same line parsers as `akgen errors mine` (`logs.text.mine_lines`: the compiler's and the
build system's, see logs/compiler.py and logs/build_system.py); this module only turns their error blocks into the
findings an editor shows:
- bisheng (clang) diagnostics, often indented (pip/CMake nest the output) and repeated once per SoC / dtype
  combination of a binary build (deduplicated here). An error inside a CANN header (``.../tikcfw/...h``) is at the
  user's line that led there (the compiler parser moves it: the first ``requested here`` note at a user file, else
  the ``In file included from`` chain, else, for a further error of the same header with no chain of its own,
  where the previous one was moved); the header's place is in ``data["header"]`` and the message.
- driver errors without a location (``bisheng: error: ...``) and link errors (GNU ld, lld) are at the kernel's
  line 1; CMake errors at the CMake file and line (``CMakeLists.txt`` when CMake names none); msopgen's ``[ERROR]``
  lines (``tool="msopgen"``) at the op description JSON.
- make, ninja and build.sh's "compile failed" lines only wrap the real error: one of them (the last) is reported
  only when nothing more precise was found.

Paths are mapped through `user_files` (the project's copy -> the user's file), exactly or by basename
(`logs.paths.UserFiles`).
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping

from akgen_lsp.findings import Finding, Severity, Span
from akgen_lsp.logs.blocks import ErrorBlock
from akgen_lsp.logs.fixits import with_fixits
from akgen_lsp.logs.gcc import classify_cxx_error
from akgen_lsp.logs.paths import UserFiles
from akgen_lsp.logs.text import mine_lines

_UNDEFINED = re.compile(r"^(?:undefined reference to|undefined symbol) [`'](?P<sym>.+)'$")
_CMAKE_COMMAND = re.compile(r"^in CMake command (?P<cmd>\w+)\(\)$")


def _finding(b: ErrorBlock, files: UserFiles, op_json: str | None) -> Finding:
    """The editor's finding of one error block of a CANN build log."""
    data: dict[str, object] = {"raw": b.raw}
    msg, path, line, col = b.message, files.kernel, 1, 1
    if b.code == "CXX" and b.file is None:  # the driver (bisheng, ccec) with no place
        cls = "toolchain"
    elif b.code == "CXX":
        data = {"compiler": "bisheng", "raw": b.raw}
        if b.header:
            hfile, hline, _ = b.header.rsplit(":", 2)
            data["header"] = b.header
            msg = f"{msg} (reported in {os.path.basename(hfile)}:{hline})"
        path, line, col, cls = b.file or path, b.line or 1, b.column or 1, classify_cxx_error(b.message)
    elif b.code == "CMAKE":
        cmd = next((m.group("cmd") for c in b.context if (m := _CMAKE_COMMAND.match(c))), None)
        if cmd is not None:
            data["command"] = cmd
        path, line, cls = b.file or "CMakeLists.txt", b.line or 1, "build_system"
    elif b.code == "LINK":
        sym = _UNDEFINED.match(b.message)
        if sym is not None:
            msg = (
                f"undefined symbol {sym.group('sym')}: an API or function that is declared but not defined "
                "(a wrong name, or a missing source in the project)"
            )
        path, cls = (files.user(b.file) if b.file else None) or files.kernel, "api_mismatch"
    elif b.code == "MSOPGEN":
        path, cls = op_json or files.kernel, "build_system"
    else:  # make, ninja, build.sh
        msg, cls = f"the build failed: {msg}; see the build log", "build_system"
    return Finding(
        b.code or "BUILD",
        msg,
        Span(path, line, col, line, col),
        Severity.ERROR,
        "akgen-build",
        cls,
        data=data,
    )


def _wraps(b: ErrorBlock) -> bool:
    """A line that only says the build stopped (make's and ninja's lines, make's "No rule to make target" after a
    failed CMake run included, build.sh's "compile failed"): the cause is elsewhere in the log."""
    return bool(b.extra.get("wrapper")) or b.tool in ("make", "ninja")


def parse_build_log(
    text: str, user_files: Mapping[str, str] | None = None, op_json: str | None = None, tool: str = "build"
) -> list[Finding]:
    """Errors of a CANN build log -> findings (warnings are dropped; duplicates removed). With ``tool="msopgen"``
    the text is msopgen's own output and each of its ERROR lines is a finding at `op_json`."""
    files = UserFiles(user_files or {})
    blocks = list(mine_lines(text.splitlines(), "bisheng", files, msopgen=tool == "msopgen", runtime=False))
    precise = [b for b in blocks if not _wraps(b)]
    if not precise and blocks:
        precise = blocks[-1:]  # make's "*** Error 2" alone: the build failed, the log says no more
    found = with_fixits([_finding(b, files, op_json) for b in precise], files.user)
    seen: set[tuple[str, int, int, str]] = set()
    result: list[Finding] = []
    for f in found:
        key = (f.span.path, f.span.line, f.span.column, f.message)
        if key not in seen:
            seen.add(key)
            result.append(f)
    return result
