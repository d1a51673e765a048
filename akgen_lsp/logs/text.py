"""A text log (a build log, a compiler's output, a CANN run log) -> error blocks, one line at a time.

Each line goes to the parser that recognises it: the build system and the linker (an open CMake message takes
its own detail lines), then the NPU runtime, and everything else to the compiler parser (which ignores what is not a diagnostic).
Memory stays bounded whatever the log's size: lines are read with a length limit and blocks keep a bounded raw text.
"""

from __future__ import annotations

import gzip
import io
from collections.abc import Iterable, Iterator
from pathlib import Path

from akgen_lsp.logs.blocks import ErrorBlock
from akgen_lsp.logs.build_system import BuildSystemParser
from akgen_lsp.logs.compiler import CompilerParser
from akgen_lsp.logs.npu import NpuParser
from akgen_lsp.logs.paths import PathMapper

MAX_LINE = 64 * 1024  # longer lines are cut (a minified blob in a log must not take the memory)


def open_binary(path: Path) -> io.BufferedIOBase:
    """The log's bytes (a ``.gz`` log is read through gzip)."""
    if path.suffix == ".gz":
        return gzip.open(path, "rb")  # type: ignore[return-value]
    return path.open("rb")


def iter_lines(path: Path, max_line: int = MAX_LINE) -> Iterator[str]:
    """Decoded lines (UTF-8, bad bytes replaced), each at most `max_line` characters; the rest of a longer line is
    skipped."""
    with open_binary(path) as fh:
        while True:
            chunk = fh.readline(max_line)
            if not chunk:
                return
            if not chunk.endswith(b"\n") and len(chunk) >= max_line:
                while True:  # skip to the end of this line
                    rest = fh.readline(max_line)
                    if not rest or rest.endswith(b"\n"):
                        break
            yield chunk.decode("utf-8", errors="replace").rstrip("\r\n")


def mine_lines(
    lines: Iterable[str],
    tool: str = "gcc",
    mapper: PathMapper | None = None,
    warnings: bool = False,
    msopgen: bool = False,
    runtime: bool = True,
) -> Iterator[ErrorBlock]:
    """The blocks of a text log, in log order (not grouped). With ``runtime=False`` (a build log) NPU runtime
    errors are not looked for."""
    mapper = mapper or PathMapper()
    compiler = CompilerParser(tool, mapper, warnings)
    build = BuildSystemParser(mapper, msopgen=msopgen, warnings=warnings)
    npu = NpuParser() if runtime else None
    for n, line in enumerate(lines, 1):
        text = line.replace("\x00", "")
        if (
            compiler.idle()
            and build.current is None
            and not build.active()
            and (npu is None or npu.current is None)
            and ":" not in text
            and "rror" not in text
            and "FAILED" not in text
        ):
            continue  # most lines of a build log ("[ 12%] Building CXX object ..."): nothing can start here
        if build.feed(text, n) or (npu is not None and npu.feed(text, n)):
            yield from compiler.close()
        else:
            yield from compiler.feed(text, n)
        yield from build.take()
        if npu is not None:
            yield from npu.take()
    yield from compiler.close()
    yield from build.close()
    if npu is not None:
        yield from npu.close()
