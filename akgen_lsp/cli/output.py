"""The command line's printers: every text that may come from a file, a program or a model goes to the terminal
through these, with its control characters escaped (`akgen_lsp.safety.escape_control`): an erase-line code in a
source line or a repair diff cannot hide a changed line, an OSC 52 sequence cannot write the clipboard."""

from __future__ import annotations

import sys
from typing import TextIO

from akgen_lsp.safety import escape_control


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
