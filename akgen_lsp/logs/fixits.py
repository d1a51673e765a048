"""The compiler's own fix-it hints, as `Fix`es on its findings.

g++ and clang (bisheng, the cann toolchain's compiler) print them in one machine-readable form with
``-fdiagnostics-parseable-fixits``: after a diagnostic, one line per edit,

    fix-it:"op_kernel/add.cpp":{61:18-61:22}:"Add"

(the file as the compiler names it, 1-based line and **byte** column of the start and of the exclusive end, and the
replacement as a C string). g++'s ``-fdiagnostics-format=json`` carries the same edits as its ``fixits`` arrays;
the text form is used so that the log stays the text the error parsers (`akgen errors mine`) and people read.

`parse_fixits(raw)` reads the edits of one diagnostic's log lines (the compiler findings of the sim and of the cann
toolchain keep theirs in ``data["raw"]``), and `with_fixits(findings, resolve)` turns them into a `Fix` on each
finding whose edits all fall in the user's files (`resolve` maps a path as the compiler printed it to the user's file,
or None): byte columns are converted to character columns with the file's text. A compiler's guess ("did you mean
'Adds'?" for ``Addd``) can be wrong, so these fixes are never `safe`; the repair layer verifies them before the
editor offers them.
"""

from __future__ import annotations

import dataclasses
import os
import re
from collections.abc import Callable, Mapping, Sequence

from akgen_lsp.findings import Edit, Finding, Fix, Span

_FIXIT = re.compile(
    r'^\s*fix-it:"(?P<file>(?:[^"\\]|\\.)*)":\{(?P<l1>\d+):(?P<c1>\d+)-(?P<l2>\d+):(?P<c2>\d+)\}:'
    r'"(?P<text>(?:[^"\\]|\\.)*)"\s*$'
)
_ESCAPES = {
    "n": "\n",
    "t": "\t",
    "r": "\r",
    "\\": "\\",
    '"': '"',
    "'": "'",
    "a": "\a",
    "b": "\b",
    "f": "\f",
    "v": "\v",
    "0": "\0",
}


@dataclasses.dataclass(frozen=True)
class FixIt:
    """One edit as the compiler printed it (byte columns)."""

    file: str
    line: int
    byte_column: int
    end_line: int
    end_byte_column: int
    text: str


def _unescape(s: str) -> str:
    """A C string literal's body (the compiler escapes quotes, backslashes and non-printable bytes as octal)."""
    out = bytearray()
    i = 0
    while i < len(s):
        ch = s[i]
        if ch != "\\" or i + 1 >= len(s):
            out += ch.encode("utf-8")
            i += 1
            continue
        nxt = s[i + 1]
        if nxt in "01234567":
            j = i + 1
            while j < len(s) and j < i + 4 and s[j] in "01234567":
                j += 1
            out.append(int(s[i + 1 : j], 8) & 0xFF)
            i = j
        elif nxt == "x":
            j = i + 2
            while j < len(s) and s[j] in "0123456789abcdefABCDEF":
                j += 1
            out.append(int(s[i + 2 : j] or "0", 16) & 0xFF)
            i = j
        else:
            out += _ESCAPES.get(nxt, nxt).encode("utf-8")
            i += 2
    return out.decode("utf-8", errors="replace")


def parse_fixits(raw: str) -> list[FixIt]:
    """The ``fix-it:`` lines of a log fragment, in order."""
    out = []
    for line in raw.splitlines():
        m = _FIXIT.match(line)
        if m is not None:
            out.append(
                FixIt(
                    _unescape(m.group("file")),
                    int(m.group("l1")),
                    int(m.group("c1")),
                    int(m.group("l2")),
                    int(m.group("c2")),
                    _unescape(m.group("text")),
                )
            )
    return out


def _char_column(line_text: str, byte_column: int) -> int:
    """1-based character column of a 1-based byte column in `line_text`."""
    data = line_text.encode("utf-8")
    return len(data[: max(0, byte_column - 1)].decode("utf-8", errors="ignore")) + 1


def _describe(old: str, new: str) -> str:
    if not old:
        return f"Insert '{new}'"
    if not new:
        return f"Remove '{old}'"
    return f"Change '{old}' to '{new}'"


Resolve = Callable[[str], "str | None"]


def user_file_resolver(user_files: Mapping[str, str]) -> Resolve:
    """`resolve` over a map of absolute paths (normalised) to the paths shown to the user."""
    exact = {os.path.normpath(k): v for k, v in user_files.items()}
    return lambda path: exact.get(os.path.normpath(path))


def fixits_to_fix(items: Sequence[FixIt], resolve: Resolve, texts: dict[str, list[str]]) -> Fix | None:
    """One `Fix` of a diagnostic's fix-its, or None when one of them falls outside the user's files or outside the
    text (a compiler suggestion inside our headers is no fix for the user)."""
    edits: list[Edit] = []
    described: list[str] = []
    for it in items:
        shown = resolve(it.file)
        if shown is None:
            return None
        if shown not in texts:
            try:
                with open(shown, encoding="utf-8", errors="replace") as fh:
                    texts[shown] = fh.read().splitlines()
            except OSError:
                return None
        lines = texts[shown]
        if not (1 <= it.line <= len(lines) and 1 <= it.end_line <= len(lines) + 1):
            return None
        col = _char_column(lines[it.line - 1], it.byte_column)
        end_text = lines[it.end_line - 1] if it.end_line <= len(lines) else ""
        end_col = _char_column(end_text, it.end_byte_column)
        span = Span(shown, it.line, col, it.end_line, end_col)
        old = lines[it.line - 1][col - 1 : end_col - 1] if it.line == it.end_line else ""
        edits.append(Edit(span, it.text))
        described.append(_describe(old, it.text))
    if not edits:
        return None
    return Fix("; ".join(described) + " (the compiler's fix-it)", tuple(edits), safe=False)


def with_fixits(findings: Sequence[Finding], resolve: Resolve) -> list[Finding]:
    """`findings` with the compiler's fix-its of each (read from its ``data["raw"]`` log lines) added as a fix."""
    texts: dict[str, list[str]] = {}
    out = []
    for f in findings:
        raw = f.data.get("raw") if isinstance(f.data, Mapping) else None
        items = parse_fixits(raw) if isinstance(raw, str) and "fix-it:" in raw else []
        fix = fixits_to_fix(items, resolve, texts) if items else None
        out.append(dataclasses.replace(f, fixes=(*f.fixes, fix)) if fix is not None else f)
    return out
