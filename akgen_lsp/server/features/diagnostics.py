"""The `lint` diagnostic source: which documents are AscendC, and their findings."""

from __future__ import annotations

from akgen_lsp.ascendc.lint import is_ascendc, lint_parsed
from akgen_lsp.ascendc.syntax import ParsedFile, parse
from akgen_lsp.config import Settings
from akgen_lsp.findings import Finding

SOURCE = "lint"


def is_ascendc_document(path: str, text: str, settings: Settings) -> bool:
    """Whether the server serves a document: AscendC (``.asc``, or C++ that includes an Ascend C header) and not
    matched by a ``files.exclude`` pattern. Other C++ files are left to the user's C++ server."""
    return not is_excluded(path, settings) and is_ascendc(path, text, settings)


def wants_lint(path: str, text: str, settings: Settings) -> bool:
    """Whether `path` gets lint diagnostics: linting is on and the server serves the document."""
    return bool(settings["lint.enable"]) and is_ascendc_document(path, text, settings)


def is_excluded(path: str, settings: Settings) -> bool:
    from fnmatch import fnmatch
    from pathlib import PurePath

    pure = PurePath(path)
    return any(fnmatch(str(pure), pat) or pure.match(pat) for pat in settings["files.exclude"])


def lint_document(text: str, path: str, settings: Settings) -> list[Finding] | None:
    """The findings of the static rules; None for a file that is not linted (not AscendC, excluded, lint off)."""
    return lint_incremental(text, path, settings, None)[0]


def lint_incremental(
    text: str, path: str, settings: Settings, previous: ParsedFile | None
) -> tuple[list[Finding] | None, ParsedFile | None]:
    """`lint_document`, re-parsing incrementally from the document's previous parse; also returns the new parse
    (None when the file is not linted) for the next time."""
    if not wants_lint(path, text, settings):
        return None, None
    parsed = parse(text, path, previous if previous is not None and previous.path == path else None)
    return lint_parsed(parsed, settings), parsed
