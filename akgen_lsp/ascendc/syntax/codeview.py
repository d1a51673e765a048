"""The code view of a text (comments, string and character literals blanked, same length) and the small scanners
the masking and the text-level helpers run over it."""

from __future__ import annotations

import re
import sys
from array import array
from collections.abc import MutableSequence

# comments, string and character literals: blanked in the "code view" that the scanners below search. An unclosed
# comment runs to the end of the text and an unclosed string to the end of its line, as the compiler reads them, and
# a character literal is a few characters long; so no start is tried again to the end of the text from every quote
# (`"\` 24,000 times on one line took 30 s: quadratic)
_NOISE_RE = re.compile(
    r'//[^\n]*|/\*.*?(?:\*/|\Z)|"(?:\\.|[^"\\\n])*(?:"|(?=\n)|\Z)'
    r"|\'(?:\\.|[^\'\\\n]){0,16}\'",
    re.S,
)


def _blank(match: re.Match[str]) -> str:
    s = match.group(0)
    if "\n" not in s:
        return " " * len(s)
    return "\n".join([" " * len(part) for part in s.split("\n")])


def _blank_range(buf: MutableSequence[str], start: int, end: int) -> None:
    for i in range(start, end):
        if buf[i] != "\n":
            buf[i] = " "


_CODE_POINTS = "w" if sys.version_info >= (3, 13) else "u"  # "u" (wchar_t) is deprecated from 3.13


def _char_buffer(text: str) -> MutableSequence[str]:
    """`text` as a mutable sequence of its characters, one item per code point: an array where an item holds any
    code point (made and read back as a string about 8 times faster than a list of 90,000 one-character strings), a
    list where wchar_t is 16 bits (Windows: a character beyond the BMP would take two items and shift the offsets)."""
    if array(_CODE_POINTS).itemsize == 4:
        return array(_CODE_POINTS, text)
    return list(text)


def _buffer_text(buf: MutableSequence[str]) -> str:
    """The string a `_char_buffer` holds."""
    return buf.tounicode() if isinstance(buf, array) else "".join(buf)


def _put(buf: MutableSequence[str], start: int, chars: str) -> None:
    """Overwrite ``buf[start:start + len(chars)]`` with `chars` (same length: offsets never move)."""
    for i, c in enumerate(chars, start):
        buf[i] = c


def code_view(text: str) -> str:
    """`text` with comments, string and character literals blanked (same length), so scanners do not match
    inside them."""
    return _NOISE_RE.sub(_blank, text)


def _match_paren(code: str, i: int) -> int:
    """Index just past the bracket that closes the one at `code[i]`, or -1 (`code` is a code view)."""
    close = {"(": ")", "[": "]", "{": "}"}
    stack = [close[code[i]]]
    j = i + 1
    n = len(code)
    while j < n:
        c = code[j]
        if c in close:
            stack.append(close[c])
        elif c in ")]}":
            if c != stack[-1]:
                return -1
            stack.pop()
            if not stack:
                return j + 1
        elif c == ";" and stack[-1] != ")" and len(stack) == 1:
            return -1
        j += 1
    return -1


def _line_start(code: str, i: int) -> int:
    return code.rfind("\n", 0, i) + 1


def _prev_code_char(code: str, i: int) -> str:
    j = i - 1
    while j >= 0 and code[j].isspace():
        j -= 1
    return code[j] if j >= 0 else ""


def _next_code_char(code: str, i: int) -> str:
    n = len(code)
    while i < n and code[i].isspace():
        i += 1
    return code[i] if i < n else ""


def _word_start(code: str, i: int) -> bool:
    return i == 0 or not (code[i - 1].isalnum() or code[i - 1] == "_")


def _call_start(code: str, i: int) -> bool:
    """Whether a name at `i` starts a free call (not a member, not qualified, not the tail of a longer name)."""
    if i == 0:
        return True
    c = code[i - 1]
    return not (c.isalnum() or c in "_.>:")
