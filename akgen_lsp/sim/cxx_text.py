"""Plain-text scanners of C++ source that the build needs before g++ sees it: code without comments and literals,
the #include lines, host launches `k<<<...>>>(...)`."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator

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


