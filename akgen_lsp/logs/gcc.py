"""g++ diagnostics turned into findings at the user's file and line, with an error class guessed from the message."""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence

from akgen_lsp.error_classes import classify_message
from akgen_lsp.findings import Finding, Severity, Span

_DIAG = re.compile(
    r"^(?P<file>[^:\n]+?):(?P<line>\d+):(?:(?P<col>\d+):)?\s*(?P<sev>fatal error|error|warning|note):\s*"
    r"(?P<msg>.*)$"
)
_CONTEXT = re.compile(
    r"^(?:In file included from |\s+from )?(?P<file>[^:\n]+?):(?P<line>\d+)(?::(?P<col>\d+))?[:,]"
    r"\s*(?P<rest>.*)$"
)

# a line that opens the context of the next diagnostic (g++: "x.cpp: In function 'f':", include chains)
_CONTEXT_START = re.compile(
    r"^(?:In file included from |[^:\n]+: In (?:function|member function|static member function|"
    r"instantiation|constructor|destructor|lambda|substitution)\b)"
)


def classify_cxx_error(message: str) -> str:
    """The taxonomy class of a compiler message (akgen_lsp/error_classes.toml, its [[message]] rules)."""
    return classify_message(message) or "api_mismatch"


_SYSTEM_ROOTS = ("/usr/", "/lib/", "/opt/", "/etc/")


def is_user_file(path: str, generated: Sequence[str] = ()) -> bool:
    """A file the compiler read that is the user's own: an existing file outside the system's folders and the
    places of generated files and of our headers (`generated`: path prefixes, given by the sim: `sim.build_cache.
    generated_roots`). An included `.cpp`, a header in a subfolder or in an `-I` folder counts, so its errors are
    reported where they are."""
    p = os.path.normpath(path)
    if not os.path.isabs(p) or not os.path.isfile(p):
        return False
    return not p.startswith((*_SYSTEM_ROOTS, *generated))


def parse_gcc_output(
    text: str, user_files: Mapping[str, str], fallback: str, generated: Sequence[str] = ()
) -> list[Finding]:
    """g++ diagnostics -> findings. Errors inside our headers are moved to the user's line that led there (the last
    "required from here" / include location in the user's files); `user_files` maps absolute paths to display paths,
    and any other file of the user's that the compile read (an included `.cpp`, a header elsewhere: `is_user_file`)
    is shown as itself. `generated`: the path prefixes of files that are not the user's besides the system's (the
    sim's headers, its caches and the build's own folders: `sim.build_cache.generated_roots`)."""
    findings: list[Finding] = []
    pending: tuple[str, int, int] | None = None
    lead: list[str] = []  # context lines (include chain, "In instantiation of") before the next error
    own: list[str] | None = (
        None  # the last error's lines: its context, itself, then its notes and source lines
    )
    raws: list[tuple[dict[str, object], list[str]]] = []

    def user(path: str) -> str | None:
        p = os.path.normpath(path)
        shown = user_files.get(p)
        if shown is None and is_user_file(p, generated):
            shown = p
        return shown

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
        findings.append(
            Finding(
                code="CXX",
                message=msg,
                span=Span(loc[0], loc[1], loc[2], loc[1], loc[2]),
                severity=Severity.ERROR,
                source="akgen-build",
                error_class=classify_cxx_error(msg),
                data=data,
            )
        )
        pending = None
    for data, lines in raws:  # the real log lines of each error, for akgen errors (bounded)
        data["raw"] = "\n".join(lines)[:3000]
    if not findings and text.strip():
        # A link error or a crash of the compiler: keep the text so nothing is lost.
        first = next((ln for ln in text.splitlines() if "error" in ln), text.strip().splitlines()[-1])
        findings.append(
            Finding(
                code="CXX",
                message=first.strip(),
                span=Span.point(fallback, 1),
                source="akgen-build",
                error_class=classify_cxx_error(first),
                data={"log": text[-4000:]},
            )
        )
    return findings
