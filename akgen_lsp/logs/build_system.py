"""The build system's and the linker's lines -> error blocks: CMake, make, ninja, a CANN project's build.sh, msopgen,
GNU ld and lld.

- CMake: ``CMake Error at FILE:LINE (command):`` and its indented detail lines (the message), ``Call Stack (most
  recent call first):`` frames (the context), ``CMake Error: MESSAGE``, ``CMake Error in FILE:``;
- make and ninja are wrappers: ``make[2]: *** [target] Error 1``, ``*** No rule to make target``, ``FAILED: target``,
  ``ninja: build stopped``; their blocks are marked ``wrapper`` and dropped by the miner when the log has a more
  precise error (the compiler's), so a user reads the cause, not "Error 2";
- build.sh of an msopgen project: ``[ERROR] Op_0 compile failed, see LOG`` (a wrapper too), ``build.sh: line N:``;
- msopgen: its ``[ERROR]`` lines;
- GNU ld: ``undefined reference to `SYM'`` (with the ``in function `f':`` line before it as context),
  ``multiple definition of``, ``cannot find -lNAME``; ``collect2: error: ld returned 1 exit status`` is a wrapper;
  lld: ``ld.lld: error: undefined symbol: SYM`` and its ``>>> referenced by`` notes.
"""

from __future__ import annotations

import re

from akgen_lsp.logs.blocks import ErrorBlock, LineParser, Note
from akgen_lsp.logs.paths import PathMapper
from akgen_lsp.logs.signature import signature

_CMAKE_AT = re.compile(
    r"^\s*CMake (?P<sev>Error|Warning)(?: \(dev\))? (?:at|in) (?P<file>.+?)(?::(?P<line>\d+))?"
    r"(?:\s*\((?P<cmd>\w+)\))?:?\s*$"
)
_CMAKE_PLAIN = re.compile(r"^\s*CMake Error:\s*(?P<msg>.+)$")
_CALL_STACK = re.compile(r"^\s*Call Stack \(most recent call first\):\s*$")
_MAKE = re.compile(
    r"^\s*(?P<tool>g?make)(?:\[\d+\])?: \*\*\* (?:(?:\[(?P<target>[^\]]*)\] )?(?P<msg>Error \d+.*)|"
    r"(?P<norule>No rule to make target.*)|(?P<zh>.*没有规则.*))$"
)
_NINJA_FAILED = re.compile(r"^\s*FAILED: (?P<target>.+)$")
_NINJA_STOP = re.compile(r"^\s*ninja: build stopped: (?P<msg>.+)$")
_BUILD_SH = re.compile(
    r"^\s*(?:\[ERROR\]\s*(?P<op>\S+) compile failed(?P<rest>.*)|(?P<script>\S*build\.sh): line "
    r"(?P<line>\d+): (?P<msg>.+))$"
)
_MSOPGEN = re.compile(r"^\s*(?:[\d-]+ [\d:.]+ \(\d+\) - )?(?:\[ERROR\]|ERROR:)\s*(?P<msg>.+)$")
_LD_IN_FUNCTION = re.compile(
    r"^\s*(?:\S*ld(?:\.bfd|\.gold)?: )?(?P<obj>[^:]+): in function [`'](?P<fn>[^'`]+)['`]:\s*$"
)
_LD_UNDEF = re.compile(
    r"^\s*(?:(?P<src>[^:\s]+):\(\.\w+[^)]*\): |(?:\S*/)?ld(?:\.bfd|\.gold)?: [^:]*: )?"
    r"(?P<kind>undefined reference to|multiple definition of) [`'](?P<sym>[^'`]+)['`]"
)
_LD_CANNOT = re.compile(r"^\s*(?:\S*/)?ld(?:\.\w+)?: (?P<msg>cannot find -l\S+.*|cannot find .+)$")
_LLD = re.compile(r"^\s*(?:\S*/)?ld\.lld: error: (?P<msg>.+)$")
_LLD_REF = re.compile(r"^\s*>>> (?P<msg>(?:referenced|defined) (?:by|at) .+)$")
_COLLECT2 = re.compile(r"^\s*collect2: error: (?P<msg>ld returned \d+ exit status)\s*$")


class BuildSystemParser(LineParser):
    """Recognises one line at a time; `feed` returns True when the line was the build system's (or the linker's)."""

    def __init__(
        self, mapper: PathMapper | None = None, msopgen: bool = False, warnings: bool = False
    ) -> None:
        super().__init__()
        self.mapper = mapper or PathMapper()
        self.msopgen = msopgen
        self.warnings = warnings
        self._cmake_indent: int | None = None
        self._in_stack = False
        self._ld_context: str | None = None

    def active(self) -> bool:
        """Whether a multi-line CMake message is being read (its lines belong here, whatever they look like)."""
        return self._cmake_indent is not None

    def feed(self, text: str, line_no: int) -> bool:
        if self._cmake_indent is not None and self._cmake_line(text):
            return True
        if (m := _CMAKE_AT.match(text)) is not None:
            self._finish()
            if m.group("sev") == "Warning" and not self.warnings:
                self._cmake_indent, self.current = len(text) - len(text.lstrip()), None  # read past it
                return True
            file = m.group("file")
            self.current = ErrorBlock(
                tool="cmake",
                message="",
                file=self.mapper.display(file),
                line=int(m.group("line")) if m.group("line") else None,
                code="CMAKE",
                raw=text,
                severity="error" if m.group("sev") == "Error" else "warning",
                origin={"log_line": line_no},
            )
            if m.group("cmd"):
                self.current.context.append(f"in CMake command {m.group('cmd')}()")
            self._cmake_indent = len(text) - len(text.lstrip())
            return True
        if (m := _CMAKE_PLAIN.match(text)) is not None:
            self._emit(
                ErrorBlock(
                    tool="cmake",
                    message=f"CMake Error: {m.group('msg').strip()}",
                    code="CMAKE",
                    raw=text,
                    origin={"log_line": line_no},
                )
            )
            return True
        if (m := _MAKE.match(text)) is not None:
            msg = m.group("norule") or m.group("zh") or f"[{m.group('target') or ''}] {m.group('msg')}"
            self._emit(
                self._wrapper(
                    "make",
                    f"{m.group('tool')}: *** {msg.strip()}",
                    text,
                    line_no,
                    wrapper=not (m.group("norule") or m.group("zh")),
                )
            )
            return True
        if (m := _NINJA_FAILED.match(text)) is not None:
            self._emit(self._wrapper("ninja", f"ninja: FAILED: {m.group('target').strip()}", text, line_no))
            return True
        if (m := _NINJA_STOP.match(text)) is not None:
            self._emit(
                self._wrapper("ninja", f"ninja: build stopped: {m.group('msg').strip()}", text, line_no)
            )
            return True
        if (m := _BUILD_SH.match(text)) is not None:
            if m.group("op"):
                self._emit(
                    self._wrapper(
                        "build.sh", f"{m.group('op')} compile failed{m.group('rest').rstrip()}", text, line_no
                    )
                )
            else:
                self._emit(
                    ErrorBlock(
                        tool="build.sh",
                        message=m.group("msg").strip(),
                        file=m.group("script"),
                        line=int(m.group("line")),
                        code="BUILD",
                        raw=text,
                        origin={"log_line": line_no},
                    )
                )
            return True
        if (m := _LD_IN_FUNCTION.match(text)) is not None:
            self._ld_context = f"in function {m.group('fn')} ({m.group('obj').strip()})"
            return True
        if (m := _LD_UNDEF.search(text)) is not None:
            block = ErrorBlock(
                tool="ld",
                message=f"{m.group('kind')} `{m.group('sym')}'",
                code="LINK",
                raw=text,
                file=self.mapper.display(m.group("src")) if m.group("src") else None,
                origin={"log_line": line_no},
            )
            if self._ld_context:
                block.context.append(self._ld_context)
            self._emit(block)
            return True
        if (m := _LD_CANNOT.match(text)) is not None:
            self._emit(
                ErrorBlock(
                    tool="ld",
                    message=m.group("msg").strip(),
                    code="LINK",
                    raw=text,
                    origin={"log_line": line_no},
                )
            )
            return True
        if (m := _LLD.match(text)) is not None:
            self._finish()
            msg = m.group("msg").strip()
            if msg.startswith(
                "undefined symbol: "
            ):  # quoted like GNU ld's, so the signature abstracts the symbol
                msg = f"undefined symbol `{msg.removeprefix('undefined symbol: ')}'"
            self.current = ErrorBlock(
                tool="ld", message=msg, code="LINK", raw=text, origin={"log_line": line_no}
            )
            return True
        if self.current is not None and self.current.tool == "ld" and (r := _LLD_REF.match(text)) is not None:
            self.current.notes.append(Note(r.group("msg").strip()))
            self.current.raw += "\n" + text
            return True
        if (m := _COLLECT2.match(text)) is not None:
            self._emit(self._wrapper("ld", f"collect2: {m.group('msg')}", text, line_no))
            return True
        if self.msopgen and (m := _MSOPGEN.match(text)) is not None:
            self._emit(
                ErrorBlock(
                    tool="msopgen",
                    message=f"msopgen: {m.group('msg').strip()}",
                    code="MSOPGEN",
                    raw=text,
                    origin={"log_line": line_no},
                )
            )
            return True
        if self.current is not None and self.current.tool == "ld":
            self._finish()
        return False

    # ------------------------------------------------------------------------------------------- internals

    def _cmake_line(self, text: str) -> bool:
        """A line while a CMake message is open: its detail (indented more) or its call stack; else it ends."""
        indent = len(text) - len(text.lstrip())
        stripped = text.strip()
        cur = self.current
        if not stripped:
            if self._in_stack:
                self._in_stack = False
                self._finish()
            return True
        if _CALL_STACK.match(text):
            self._in_stack = True
            return True
        assert self._cmake_indent is not None
        if indent > self._cmake_indent:
            if cur is not None:
                if self._in_stack:
                    cur.context.append(stripped)
                else:
                    cur.message = f"{cur.message} {stripped}".strip()
                cur.raw += "\n" + text
            return True
        self._finish()
        return False

    def _wrapper(self, tool: str, message: str, text: str, line_no: int, wrapper: bool = True) -> ErrorBlock:
        b = ErrorBlock(tool=tool, message=message, code="BUILD", raw=text, origin={"log_line": line_no})
        if wrapper:
            b.extra["wrapper"] = True
        return b

    def _emit(self, block: ErrorBlock) -> None:
        self._finish()
        self._done.append(block)

    def _finish(self) -> None:
        cur = self.current
        if cur is not None:
            if cur.tool == "cmake":
                cur.message = "CMake Error: " + (cur.message or "(no message)")
                cur.signature = signature(cur.message)
            self._done.append(cur)
        self.current = None
        self._cmake_indent = None
        self._in_stack = False
