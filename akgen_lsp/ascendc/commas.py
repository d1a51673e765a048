"""C++ text split at its top-level commas (or another separator): parameter lists, argument lists, template arguments.

The one implementation (the sim, the bench's pybind reader, the catalog, the kernel model, completion and the fixers
all call it). What counts as a bracket:
- ``()``, ``[]`` and ``{}`` always; a closer ends everything opened after its opener (an unclosed ``<`` inside a
  parenthesis was a comparison);
- ``<`` opens template arguments only after a name (``Tensor<``, ``TQue <``), never after a number, a closing
  bracket or an operator (``1 < 2``, ``f(x) < y``), and never as part of ``<<``, ``<=`` or ``<=>``;
- ``>`` closes only an open ``<`` (so ``a > b`` with no ``<`` open, ``->`` and the ``>`` of a comparison inside
  parentheses are plain characters); ``>>`` closes two;
- commas inside string and character literals do not count.
Leading and trailing white space of each part is removed; an empty text has no parts.
"""

from __future__ import annotations

__all__ = ["split_top_level"]

_OPEN = {"(": ")", "[": "]", "{": "}"}
_CLOSE = {")": "(", "]": "[", "}": "{"}


def _is_name_char(ch: str) -> bool:
    return ch.isalnum() or ch == "_"


def _after_name(text: str, i: int) -> bool:
    """Whether the last token before `text[i]` (white space skipped) is a name, not a number or punctuation."""
    j = i - 1
    while j >= 0 and text[j].isspace():
        j -= 1
    if j < 0 or not _is_name_char(text[j]):
        return False
    while j >= 0 and _is_name_char(text[j]):
        j -= 1
    return not text[j + 1].isdigit()


def split_top_level(text: str, sep: str = ",") -> list[str]:
    """`text` split at each `sep` (one character) outside brackets and literals; see the module docstring."""
    parts: list[str] = []
    stack: list[str] = []
    start = 0
    i = 0
    n = len(text)
    while i < n:
        ch = text[i]
        if ch in "\"'" and not (ch == "'" and i > 0 and text[i - 1].isalnum()):  # 1'000 is a number
            i += 1
            while i < n and text[i] != ch:
                i += 2 if text[i] == "\\" else 1
        elif ch in _OPEN:
            stack.append(ch)
        elif ch in _CLOSE:
            if _CLOSE[ch] in stack:
                while stack.pop() != _CLOSE[ch]:
                    pass
        elif ch == "<":
            nxt = text[i + 1] if i + 1 < n else ""
            if nxt == "<":
                i += 1  # a shift
            elif nxt != "=" and _after_name(text, i):
                stack.append("<")
        elif ch == ">":
            if stack and stack[-1] == "<" and not (i > 0 and text[i - 1] == "-"):
                stack.pop()
        elif ch == sep and not stack:
            parts.append(text[start:i])
            start = i + 1
        i += 1
    tail = text[start:]
    if tail.strip() or parts:
        parts.append(tail)
    return [p.strip() for p in parts]
