"""The `lint` diagnostic source: which documents are AscendC, and their findings."""

from __future__ import annotations

from akgen_lsp.ascendc.lint import is_ascendc, lint_text
from akgen_lsp.config import Settings
from akgen_lsp.findings import Finding

SOURCE = "lint"


def wants_lint(path: str, text: str, settings: Settings) -> bool:
    """Whether `path` gets lint diagnostics: linting is on and the file is AscendC (``.asc``, or C++ that includes
    an Ascend C header), and no ``files.exclude`` pattern matches it."""
    if not settings["lint.enable"]:
        return False
    if is_excluded(path, settings):
        return False
    return is_ascendc(path, text, settings)


def is_excluded(path: str, settings: Settings) -> bool:
    from fnmatch import fnmatch
    from pathlib import PurePath

    pure = PurePath(path)
    return any(fnmatch(str(pure), pat) or pure.match(pat) for pat in settings["files.exclude"])


def lint_document(text: str, path: str, settings: Settings) -> list[Finding] | None:
    """The findings of the static rules; None for a file that is not linted (not AscendC, excluded, lint off)."""
    if not wants_lint(path, text, settings):
        return None
    return lint_text(text, path, settings)
