"""The `lint` diagnostic source: which documents are AscendC, and their findings."""

from __future__ import annotations

from akgen_lsp.ascendc.lint import is_ascendc, lint_parsed
from akgen_lsp.ascendc.syntax import ParsedFile, parse
from akgen_lsp.config import Settings
from akgen_lsp.findings import Finding

SOURCE = "lint"
# an open document longer than this is not served (no parse, no lint, no hover, no check): one finding says so. The
# largest AscendC sources of CANN's operator repositories hold about 1.1 MB; a 60 MB one-line document made the parse
# grow the server past 6 GB (docs/security.md, "Resources"). The same bound as the workspace's files on disk.
MAX_DOCUMENT_CHARS = 2 * 1024 * 1024


def is_ascendc_document(path: str, text: str, settings: Settings) -> bool:
    """Whether the server serves a document: AscendC (``.asc``, or C++ that includes an Ascend C header) and not
    matched by a ``files.exclude`` pattern. Other C++ files are left to the user's C++ server."""
    return (
        len(text) <= MAX_DOCUMENT_CHARS
        and not is_excluded(path, settings)
        and is_ascendc(path, text, settings)
    )


def too_large(path: str, text: str, settings: Settings) -> Finding | None:
    """The one finding of an AscendC document over `MAX_DOCUMENT_CHARS` (lint on, not excluded), else None."""
    if len(text) <= MAX_DOCUMENT_CHARS or not settings["lint.enable"] or is_excluded(path, settings):
        return None
    if not is_ascendc(path, text[:200_000], settings):
        return None
    from akgen_lsp.findings import Severity, Span

    return Finding(
        "AKG000",
        f"this document holds {len(text):,} characters, more than the {MAX_DOCUMENT_CHARS:,} "
        "akgen checks: no static check, hover, completion or check on save runs for it; split the file, "
        "or exclude it with files.exclude",
        Span.point(path, 1),
        Severity.WARNING,
    )


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
    big = too_large(path, text, settings)
    if big is not None:
        return [big], None
    if not wants_lint(path, text, settings):
        return None, None
    parsed = parse(text, path, previous if previous is not None and previous.path == path else None)
    return lint_parsed(parsed, settings), parsed
