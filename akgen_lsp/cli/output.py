"""The command line's printers: every text that may come from a file, a program or a model goes to the terminal
through these, with its control characters escaped (`akgen_lsp.safety.escape_control`): an erase-line code in a
source line or a repair diff cannot hide a changed line, an OSC 52 sequence cannot write the clipboard."""

from __future__ import annotations

import io
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TextIO

from akgen_lsp.safety import escape_control

_raw: dict[str, TextIO] = {}


class EscapingStream(io.TextIOBase):
    """A text stream that escapes control characters in everything written to it (`escape_control`); the CLI's
    stdout and stderr while `akgen` runs (`install`). Its `buffer` is the real binary stream, for protocols that
    write bytes (the language server's framing over stdio), never for text meant for a person."""

    def __init__(self, inner: TextIO) -> None:
        self._inner = inner

    def write(self, text: str) -> int:  # type: ignore[override]
        self._inner.write(escape_control(text))
        return len(text)

    def flush(self) -> None:
        if not self._inner.closed:
            self._inner.flush()

    @property
    def closed(self) -> bool:  # type: ignore[override]
        # the real stream's state: the language server closes stdout's buffer at exit, and Python's last flush of a
        # stream that says it is open but is not ends the process with status 120
        return bool(self._inner.closed)

    def close(self) -> None:
        """Closing the wrapper leaves the real stream to its owner."""

    def isatty(self) -> bool:
        # rich (the CLI's tables) then writes plain text, without colour or cursor codes, which would be escaped
        return False

    def fileno(self) -> int:
        return self._inner.fileno()

    def writable(self) -> bool:
        return True

    @property
    def buffer(self) -> Any:
        return self._inner.buffer

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self._inner, "encoding", "utf-8")

    @property
    def errors(self) -> str | None:  # type: ignore[override]
        return getattr(self._inner, "errors", None)


def install() -> None:
    """Make sys.stdout and sys.stderr escape control characters for the rest of the process (the `akgen` command):
    whatever prints a file's line, a program's output or a model's diff goes through `escape_control`."""
    for name in ("stdout", "stderr"):
        stream = getattr(sys, name)
        if not isinstance(stream, EscapingStream):
            _raw[name] = stream
            setattr(sys, name, EscapingStream(stream))
    try:  # typer's help (our own text) keeps its colours: its console writes to the real stream
        import typer.rich_utils as rich_utils

        made = rich_utils._get_rich_console

        def _help_console(stderr: bool = False) -> Any:
            con = made(stderr)
            con.file = _raw["stderr" if stderr else "stdout"]
            return con

        if not getattr(made, "_akgen", False):
            _help_console._akgen = True  # type: ignore[attr-defined]
            rich_utils._get_rich_console = _help_console
    except (ImportError, AttributeError):
        pass


def console(stderr: bool = False, **options: Any) -> Any:
    """A rich Console for the CLI's progress bars: it writes its colour and cursor codes to the real stream, so every
    text from a file, a program or a model put in it must pass through `safe` first. (Tables and other prints go
    through the escaping sys.stdout, where rich writes plain text.)"""
    from rich.console import Console

    name = "stderr" if stderr else "stdout"
    return Console(file=_raw.get(name) or getattr(sys, name), **options)


@contextmanager
def progress_bar(label: str, first: str = "") -> Iterator[Callable[[int, int, object], None]]:
    """A progress bar on stdout (`label`, done/total, the time taken, a description), for a loop over work items:
    yields ``update(done, total, description)``; the description is escaped (`safe`)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(
        TextColumn(f"[bold]{label}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TextColumn("{task.description}", markup=False),
        console=console(),
    ) as prog:
        bar = prog.add_task(first, total=None)

        def update(done: int, total: int, description: object) -> None:
            prog.update(bar, completed=done, total=total, description=safe(description))

        yield update


def safe(text: object) -> str:
    return escape_control(str(text))


def write(text: object, stream: TextIO | None = None) -> None:
    """Write `text` as it is given (no newline added), control characters escaped."""
    (stream or sys.stdout).write(safe(text))


def out(line: object = "") -> None:
    """One line on stdout."""
    sys.stdout.write(safe(line) + "\n")


def err(line: object = "") -> None:
    """One line on stderr."""
    sys.stderr.write(safe(line) + "\n")


def notice(line: str) -> None:
    """A settings notice (a key that a layer may not set): one line on stderr."""
    err(line)
