"""Compiler diagnostics -> error blocks: g++ (on our headers), clang and bisheng (CANN's clang-based compiler).

Both print ``FILE:LINE[:COL]: error|fatal error|warning|note: MESSAGE``; what differs is around it, and each shape
is read:
- include chains (``In file included from A:3,`` / ``from B:1:``) and g++'s function and template contexts
  (``x.cpp: In instantiation of 'void K<T>::Run() [with T = float]':``, ``x.cpp:7:9:   required from here``) open
  the context of the next error; they become its `context` frames (one block, not one per frame);
- notes after an error (``note: candidate: ...``, clang's ``note: in instantiation of ... requested here``) are the
  error's notes, with their own locations;
- the source line and caret (g++ ``  5 |   code`` / ``    |   ^~~``, clang the raw line then ``~~~^``) give the
  block's `source_line`; clang's suggestion line under the caret and ``fix-it:`` lines are its `fixits`;
- an error reported inside a library header (our simulator headers, the CANN toolkit, the standard library) is moved
  to the user's line that led there: the innermost ``required from`` / ``requested here`` frame in a user file,
  else the user's ``#include`` line; the header's place stays in the context (``reported in ...``).
Lines of other tools in between (make, CMake, pip's indentation) end the current block.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from akgen_lsp.logs.blocks import ErrorBlock, Note
from akgen_lsp.logs.paths import PathMapper

_QUOTES = str.maketrans({"\u2018": "'", "\u2019": "'"})
DIAG = re.compile(
    r"^\s*(?P<file>[^\s:][^:\n]*?):(?P<line>\d+):(?:(?P<col>\d+):)?\s*"
    r"(?P<sev>fatal error|error|warning|note|remark):\s*(?P<msg>.*)$"
)
_INCLUDED = re.compile(
    r"^\s*(?:In file included from|from)\s+(?P<file>[^\s:][^:\n]*?):(?P<line>\d+)(?::(?P<col>\d+))?"
    r"[:,]?\s*$"
)
_IN_CONTEXT = re.compile(
    r"^\s*(?P<file>[^\s:][^:\n]*?): (?P<what>In (?:function|member function|static member "
    r"function|instantiation of|constructor|destructor|lambda function|substitution of)\b.*?):?\s*$"
)
_REQUIRED = re.compile(
    r"^\s*(?P<file>[^\s:][^:\n]*?):(?P<line>\d+):(?:(?P<col>\d+):)?\s+(?P<what>(?:recursively )?"
    r"required (?:from|by)\b.*)$"
)
_GCC_SOURCE = re.compile(r"^\s*(?P<n>\d+)?\s*\|(?P<code>.*)$")
_CARET = re.compile(r"^\s*(?:\|\s*)?[~^]*\^[~^]*\s*$|^\s*(?:\|\s*)?~+\s*$")
_FIXIT = re.compile(r"^\s*fix-it:\s*(?P<what>.*)$")
_END = re.compile(
    r"^\s*(?:\d+ (?:errors?|warnings?)(?: and \d+ errors?)? generated\.|compilation terminated\.|"
    r"\d+ warnings? and \d+ errors? generated\.)\s*$"
)
_DRIVER = re.compile(
    r"^\s*(?P<tool>bisheng|ccec|clang\+\+|clang|g\+\+|gcc|c\+\+|cc1plus)(?:\[\d+\])?:\s*"
    r"(?:fatal )?error:\s*(?P<msg>.+)$"
)
_BISHENG = re.compile(r"\bbisheng\b|\bccec\b|tikcfw|ascendc_kernel", re.I)
_USER_FRAME = re.compile(
    r"requested here|required from here|required from|in instantiation of|expanded from", re.I
)


@dataclass
class _Pending:
    includes: list[tuple[str, int]] = field(default_factory=list)
    frames: list[str] = field(default_factory=list)
    user_frames: list[tuple[str, int, int]] = field(
        default_factory=list
    )  # (file, line, col) of required-from frames
    raw: list[str] = field(default_factory=list)

    def clear(self) -> None:
        self.includes.clear()
        self.frames.clear()
        self.user_frames.clear()
        self.raw.clear()


class CompilerParser:
    """A line-at-a-time parser (bounded memory): feed lines, take the finished blocks."""

    def __init__(self, tool: str = "gcc", mapper: PathMapper | None = None, warnings: bool = False) -> None:
        self.tool = tool
        self.mapper = mapper or PathMapper()
        self.warnings = warnings
        self.pending = _Pending()
        self.current: ErrorBlock | None = None
        self._header: tuple[str, int, int] | None = (
            None  # where the current block was reported, if a library file
        )
        self._weak = False  # the block sits at the user's #include line: a later instantiation note is better
        self._held: str | None = (
            None  # an unindented line after a diagnostic: its source line if a caret follows
        )
        self._last_user: tuple[str, int, int | None] | None = (
            None  # where the previous header error was moved
        )
        self._after_caret = False
        self._last_plain: str | None = None
        self._line_no = 0
        self._done: list[ErrorBlock] = []

    def feed(self, line: str, line_no: int | None = None) -> list[ErrorBlock]:
        """Read one line; returns the blocks it finished (usually none)."""
        self._line_no = line_no if line_no is not None else self._line_no + 1
        text = line.rstrip("\r\n").translate(_QUOTES)
        if self.tool == "gcc" and _BISHENG.search(text):
            self.tool = "bisheng"
        m = DIAG.match(text)
        if m is not None:
            self._diag(m, text)
        elif (inc := _INCLUDED.match(text)) is not None:
            self.pending.includes.append((inc.group("file"), int(inc.group("line"))))
            self.pending.raw.append(text)
        elif (ctx := _IN_CONTEXT.match(text)) is not None:
            self._finish()
            self.pending.frames.append(f"{self.mapper.display(ctx.group('file'))}: {ctx.group('what')}")
            self.pending.raw.append(text)
        elif (req := _REQUIRED.match(text)) is not None:
            self._finish()
            loc = (req.group("file"), int(req.group("line")), int(req.group("col") or 1))
            self.pending.frames.append(f"{self.mapper.display(loc[0])}:{loc[1]}: {req.group('what')}")
            if self.mapper.is_user(loc[0]):
                self.pending.user_frames.append(loc)
            self.pending.raw.append(text)
        elif _END.match(text):
            self._finish()
        elif (drv := _DRIVER.match(text)) is not None:
            self._finish()
            tool = "bisheng" if drv.group("tool") in ("bisheng", "ccec") else self.tool
            self._done.append(
                ErrorBlock(
                    tool=tool,
                    message=f"{drv.group('tool')}: {drv.group('msg').strip()}",
                    code="CXX",
                    raw=text,
                    origin={"log_line": self._line_no},
                )
            )
        elif self.current is not None:
            self._body(text)
        out, self._done = self._done, []
        return out

    def idle(self) -> bool:
        """No block open and no context pending: a line without a colon cannot matter."""
        return self.current is None and not self.pending.raw

    def close(self) -> list[ErrorBlock]:
        self._finish()
        out, self._done = self._done, []
        return out

    # ------------------------------------------------------------------------------------------- internals

    def _diag(self, m: re.Match[str], text: str) -> None:
        sev = m.group("sev")
        file, line, col = m.group("file"), int(m.group("line")), int(m.group("col") or 0) or None
        msg = m.group("msg").strip()
        if sev == "note":
            if self.current is None:
                return
            self.current.notes.append(Note(msg, self.mapper.display(file), line, col))
            self.current.raw += "\n" + "\n".join([*self.pending.raw, text])
            if (
                self.mapper.is_user(file)
                and _USER_FRAME.search(msg)
                and (self._header is not None or self._weak)
            ):
                self._move_to(file, line, col)
                self._weak = False
            self.pending.clear()
            self._after_caret = False
            return
        self._finish()
        if sev == "remark" or (sev == "warning" and not self.warnings):
            self.pending.clear()
            return
        severity = "error" if sev in ("error", "fatal error") else "warning"
        block = ErrorBlock(
            tool=self.tool,
            message=msg,
            file=self.mapper.display(file),
            line=line,
            column=col,
            severity=severity,
            code="CXX",
            raw="\n".join([*self.pending.raw, text]),
            context=list(self.pending.frames),
            origin={"log_line": self._line_no},
        )
        block.context.extend(
            f"included from {self.mapper.display(f)}:{n}"
            for f, n in self.pending.includes
            if self.mapper.is_user(f)
        )  # the toolkit's and our glue's own include lines are noise
        self.current = block
        self._header = None
        self._weak = False
        if not self.mapper.is_user(file):
            self._header = (file, line, col or 1)
            if (
                self.pending.user_frames
            ):  # the innermost frame in the user's code: the call that led into the header
                self._move_to(*self.pending.user_frames[0])
            elif not self.pending.includes and not self.pending.frames and self._last_user is not None:
                self._move_to(
                    *self._last_user
                )  # a further error of the instantiation the previous one reported
            else:
                inc = next(
                    ((f, n) for f, n in reversed(self.pending.includes) if self.mapper.is_user(f)), None
                )
                if inc is not None:
                    self._move_to(inc[0], inc[1], None)
                    self._weak = True
        self.pending.clear()
        self._after_caret = False
        self._last_plain = None
        self._last_user = (
            (file, line, col)
            if self.mapper.is_user(file)
            else (block.file or file, block.line or line, block.column)
            if any(c.startswith("reported in") for c in block.context)
            else None
        )

    def _move_to(self, file: str, line: int, col: int | None) -> None:
        assert self.current is not None
        if self._header is not None:
            hfile, hline, hcol = self._header
            self.current.context.append(f"reported in {self.mapper.display(hfile)}:{hline}")
            self.current.header = f"{hfile}:{hline}:{hcol}"
        self.current.file, self.current.line, self.current.column = self.mapper.display(file), line, col
        self.current.source_line = None
        self._header = None
        # a further error of this header with no context of its own goes here too
        self._last_user = (file, line, col)

    def _body(self, text: str) -> None:
        cur = self.current
        assert cur is not None
        if not text.strip():
            return
        held, self._held = self._held, None
        if held is not None:
            if not _CARET.match(text):
                self._finish()  # the held line was not source: the block ended before it
                return
            self._last_plain = held
            cur.raw += "\n" + held
        if (fx := _FIXIT.match(text)) is not None:
            cur.fixits.append(fx.group("what").strip())
            cur.raw += "\n" + text
            return
        if _CARET.match(text):
            if (
                self._last_plain is not None
                and cur.source_line is None
                and not cur.notes
                and self._header is None
            ):
                cur.source_line = self._last_plain
            self._after_caret = True
            cur.raw += "\n" + text
            return
        g = _GCC_SOURCE.match(text)
        if g is not None:
            code = g.group("code")
            if (
                g.group("n") is None and self._after_caret
            ):  # g++'s "    |   SoftMax" suggestion under the caret
                if code.strip() and not cur.notes:
                    cur.fixits.append(code.strip())
            else:
                self._last_plain = code.rstrip()
            cur.raw += "\n" + text
            return
        if self._after_caret and not cur.notes and text.startswith(" ") and len(text.strip().split()) <= 3:
            cur.fixits.append(text.strip())  # clang's suggestion line under the caret
            cur.raw += "\n" + text
            self._after_caret = False
            return
        if text.startswith((" ", "\t")) and not self._after_caret:
            self._last_plain = text.rstrip()  # clang prints the source line as it is, then the caret
            cur.raw += "\n" + text
            return
        if text.startswith((" ", "\t")) and self._after_caret:
            self._last_plain = text.rstrip()
            cur.raw += "\n" + text
            self._after_caret = False
            return
        if self._held is None:  # clang shows a source line at column 1 as it is: a caret line must follow
            self._held = text
            return
        self._finish()  # another tool's line: the block is over

    def _finish(self) -> None:
        self._held = None
        if self.current is not None:
            self._done.append(self.current)
            self.current = None
            self._header = None


def parse_compiler_lines(
    lines: Iterable[str], tool: str = "gcc", mapper: PathMapper | None = None, warnings: bool = False
) -> Iterator[ErrorBlock]:
    parser = CompilerParser(tool, mapper, warnings)
    for n, line in enumerate(lines, 1):
        yield from parser.feed(line, n)
    yield from parser.close()


def parse_compiler_text(
    text: str, tool: str = "gcc", mapper: PathMapper | None = None, warnings: bool = False
) -> list[ErrorBlock]:
    return list(parse_compiler_lines(text.splitlines(), tool, mapper, warnings))
