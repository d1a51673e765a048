"""The post-filters of an inline completion: each takes the model's text and what is around the cursor and returns
the text to show (trimmed, re-indented, balanced) or None (nothing worth showing). `post_filter` runs them in order.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass


class AroundCursor:
    """The text before and after a cursor, with the parts on the cursor's line."""

    prefix: str
    suffix: str

    @property
    def line_prefix(self) -> str:
        return self.prefix[self.prefix.rfind("\n") + 1 :]

    @property
    def line_suffix(self) -> str:
        nl = self.suffix.find("\n")
        return self.suffix if nl < 0 else self.suffix[:nl]


def _code_chars(text: str) -> list[tuple[int, str]]:
    """(index, char) of bracket characters outside strings, char literals and comments."""
    out: list[tuple[int, str]] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == "/" and text.startswith("//", i):
            nl = text.find("\n", i)
            i = n if nl < 0 else nl
            continue
        if c == "/" and text.startswith("/*", i):
            end = text.find("*/", i + 2)
            i = n if end < 0 else end + 2
            continue
        if c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            i = j + 1
            continue
        if c in "()[]{}":
            out.append((i, c))
        i += 1
    return out


# ----------------------------------------------------------------------------------------------- post-filters


@dataclass(frozen=True)
class FilterContext(AroundCursor):
    prefix: str
    suffix: str
    mode: str = "multi"

    @property
    def line_above(self) -> str:
        lines = self.prefix.split("\n")
        return lines[-2] if len(lines) >= 2 else ""


Filter = Callable[[str, FilterContext], "str | None"]


def drop_blank(text: str, ctx: FilterContext) -> str | None:
    """Nothing but whitespace: no suggestion."""
    return text if text.strip() else None


_PARTIAL_WORD = re.compile(r"[A-Za-z_]\w*$")


def drop_restated_word(text: str, ctx: FilterContext) -> str | None:
    """A model that writes the word being typed again (``Pip`` typed, ``PipeBarrier()`` written) means its rest
    (``eBarrier()``): ``PipPipeBarrier`` is never what it meant. Only for a typed part of three characters or more."""
    line_prefix = ctx.prefix.rsplit("\n", 1)[-1]
    m = _PARTIAL_WORD.search(line_prefix)
    if m is None or len(m.group(0)) < 3:
        return text
    word = m.group(0)
    if (
        text.startswith(word)
        and len(text) > len(word)
        and (text[len(word)].isalnum() or text[len(word)] == "_")
    ):
        return text[len(word) :]
    return text


def trim_repetition(text: str, ctx: FilterContext) -> str | None:
    """Cut a loop: a line repeated 3+ times in a row keeps its first copy; a short pattern repeated 5+ times within a
    line keeps one; a first line that rewrites the line above the cursor drops the suggestion."""
    lines = text.split("\n")
    if lines and ctx.line_above.strip() and len(ctx.line_above.strip()) > 3 and not ctx.line_prefix.strip():
        first = next((ln for ln in lines if ln.strip()), "")
        if first.strip() == ctx.line_above.strip():
            return None
    out: list[str] = []
    run = 0
    for ln in lines:
        if out and ln.strip() and ln == out[-1]:
            run += 1
            if run >= 2:  # the third copy: the model is looping
                while len(out) >= 2 and out[-1] == out[-2]:
                    out.pop()
                break
            out.append(ln)
            continue
        run = 0
        out.append(ln)
    text = "\n".join(out)
    m = re.search(r"(.{3,40}?)\1{4,}", text)
    if m:
        text = text[: m.start() + len(m.group(1))]
    return text


def drop_suffix_duplicate(text: str, ctx: FilterContext) -> str | None:
    """The suggestion repeats what already follows the cursor: drop it, or drop its trailing lines that match the
    start of the text below."""
    body = text.strip()
    after = ctx.suffix.strip()
    if not body:
        return None
    if after.startswith(body):
        return None
    below = [ln.strip() for ln in ctx.suffix.split("\n")[1:] if ln.strip()]
    lines = text.rstrip().split("\n")
    if below and len(lines) > 1:
        # longest tail of the suggestion equal to the head of the text below
        for k in range(min(len(lines) - 1, len(below)), 0, -1):
            if [ln.strip() for ln in lines[-k:]] == below[:k]:
                lines = lines[:-k]
                return "\n".join(lines).rstrip() or None
    return text


_PAIRS = {")": "(", "]": "[", "}": "{"}


def balance_brackets(text: str, ctx: FilterContext) -> str | None:
    """Close only the brackets the suggestion opened: an unmatched closer that the rest of the line already has is
    cut, with everything after it."""
    stack: list[str] = []
    rest = ctx.line_suffix.strip()
    for i, ch in _code_chars(text):
        if ch in "([{":
            stack.append(ch)
        elif stack and stack[-1] == _PAIRS[ch]:
            stack.pop()
        elif stack:
            return text[:i].rstrip() or None  # a mismatched closer: the model lost its way
        elif rest.startswith(ch) or (ctx.mode == "single" and ch in rest):
            return text[:i] if text[:i].strip() else None
        elif ch == "}":
            return text[:i].rstrip(" \t") or None
    return text


def _indent_unit(prefix: str) -> str:
    tabs = spaces = 0
    for ln in prefix.split("\n")[-200:]:
        if ln.startswith("\t"):
            tabs += 1
        elif ln.startswith("  "):
            spaces += 1
    return "\t" if tabs > spaces else " "


def normalise_indentation(text: str, ctx: FilterContext) -> str | None:
    """Match the file's indentation: no second copy of the cursor's indentation on the first line, tabs or spaces
    as the file uses them, and trailing whitespace removed."""
    lines = text.split("\n")
    lp = ctx.line_prefix
    if lp and not lp.strip() and lines[0][: len(lp)] == lp:
        lines[0] = lines[0][len(lp) :]
    elif lp and not lp.strip() and lines[0].startswith((" ", "\t")) and ctx.mode == "multi":
        lines[0] = lines[0].lstrip(" \t")
    unit = _indent_unit(ctx.prefix)
    fixed = []
    for i, ln in enumerate(lines):
        if i > 0:
            lead = len(ln) - len(ln.lstrip(" \t"))
            ws = ln[:lead]
            if unit == " " and "\t" in ws:
                ws = ws.replace("\t", "    ")
            elif unit == "\t" and ws.startswith("    "):
                ws = "\t" * (len(ws.replace("\t", "    ")) // 4) + " " * (len(ws.replace("\t", "    ")) % 4)
            ln = ws + ln[lead:]
        fixed.append(ln.rstrip(" \t") if i < len(lines) - 1 else ln)
    out = "\n".join(fixed)
    if ctx.mode == "multi":
        out = out.rstrip()
    return out if out.strip() else None


POST_FILTERS: tuple[tuple[str, Filter], ...] = (
    ("blank", drop_blank),
    ("restated_word", drop_restated_word),
    ("repetition", trim_repetition),
    ("suffix_duplicate", drop_suffix_duplicate),
    ("brackets", balance_brackets),
    ("indentation", normalise_indentation),
    ("blank_after", drop_blank),
)


def post_filter(
    text: str, ctx: FilterContext, filters: Sequence[tuple[str, Filter]] = POST_FILTERS
) -> str | None:
    for _name, f in filters:
        result = f(text, ctx)
        if result is None:
            return None
        text = result
    return text
