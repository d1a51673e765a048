"""Plain-text scanners of C++ source that the build needs before g++ sees it: code without comments and literals,
the #include lines, host launches `k<<<...>>>(...)`."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator, Mapping

INCLUDE_LINE = re.compile(r"^\s*#\s*include\b")
_RAW_OPEN = re.compile(r'(?:u8|u|U|L)?R"([^()\\\s]{0,16})\(')


def code_only_keep_strings(text: str) -> str:
    """`text` without its comments (string literals kept: `extern "C"` is code)."""
    return re.sub(r"//[^\n]*|/\*.*?\*/", lambda m: re.sub(r"[^\n]", " ", m.group(0)), text, flags=re.DOTALL)


def include_lines(text: str) -> list[str]:
    """The #include lines of a source (outside comments), as written."""
    code = code_only(text).splitlines()
    return [line.strip() for line, c in zip(text.splitlines(), code, strict=False) if INCLUDE_LINE.match(c)]


@functools.lru_cache(maxsize=64)
def code_only(text: str) -> str:
    """`text` with comments and string/char literals replaced by spaces (newlines kept), same length. Memoised: a
    build scans its sources several times (the glue, the split, the core type), a character at a time."""
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
        elif c == "R" or (c in "uUL" and 'R"' in text[i : i + 4]):
            m = _RAW_OPEN.match(text, i)
            if m and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
                end = text.find(f'){m.group(1)}"', m.end())
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


_PP_LINE = re.compile(r"^[ \t]*#[ \t]*(if|ifdef|ifndef|elif|else|endif)\b(.*)$")
_PP_TOKEN = re.compile(
    r"defined\s*\(\s*(\w+)\s*\)|defined\s+(\w+)|(\d+)[uUlL]*|(\w+)|(&&|\|\||==|!=|<=|>=|[<>!()])"
)


def _pp_value(expr: str, defines: Mapping[str, str]) -> bool | None:
    """An #if / #elif condition over the given macros (defined(X), integers, X == N, !, &&, ||, comparisons), or None
    when it names a macro whose value is not known here."""
    out: list[str] = []
    pos = 0
    expr = expr.split("//", 1)[0].strip()
    while pos < len(expr):
        if expr[pos].isspace():
            pos += 1
            continue
        m = _PP_TOKEN.match(expr, pos)
        if m is None:
            return None
        pos = m.end()
        name = m.group(1) or m.group(2)
        if name:
            if name not in defines:
                return None  # the source may define it itself
            out.append("1")
        elif m.group(3):
            out.append(m.group(3))
        elif m.group(4):
            value = defines.get(m.group(4))
            if value is None or not re.fullmatch(r"-?\d+", value.strip() or "1"):
                return None
            out.append(value.strip() or "1")
        else:
            out.append({"&&": " and ", "||": " or ", "!": " not "}.get(m.group(5), m.group(5)))
    try:  # only digits, comparisons, parentheses, and / or / not reach eval (the tokens above)
        return bool(eval("".join(out), {"__builtins__": {}}, {}))
    except (SyntaxError, TypeError, ValueError, RecursionError, MemoryError):
        return None


def active_text(text: str, defines: Mapping[str, str]) -> str:
    """`text` with the lines of the #if / #ifdef / #elif / #else branches that the given -D macros rule out blanked
    (line numbers kept); a condition over a macro not given keeps all of its branches."""
    lines = text.splitlines(keepends=True)
    # per open #if: (this branch is live, a branch was taken, the condition is known)
    stack: list[tuple[bool, bool, bool]] = []
    for i, line in enumerate(lines):
        m = _PP_LINE.match(line)
        live = all(s[0] for s in stack)
        if m:
            kind, rest = m.group(1), m.group(2).strip()
            if kind in ("if", "ifdef", "ifndef"):
                name = rest.split()[0] if rest.split() else ""
                if kind == "if":
                    v = _pp_value(rest, defines)
                else:  # a macro not given may be defined by the source itself: unknown
                    v = None if name not in defines else kind == "ifdef"
                stack.append((v is not False, v is True, v is not None))
            elif kind in ("elif", "else") and stack:
                _, taken, known = stack.pop()
                v = True if kind == "else" else _pp_value(rest, defines)
                if not known or v is None:
                    stack.append((True, False, False))
                else:
                    stack.append((not taken and v, taken or v, True))
            elif kind == "endif" and stack:
                stack.pop()
            continue
        if not live:
            lines[i] = "\n" if line.endswith("\n") else ""
    return "".join(lines)
