"""What the server keeps of one open document, in one object, forgotten in one place (`AkgenServer.forget`).

The lint's last findings and parse, the build / run / log findings by source and the text they are placed in (moved
along the edits: tracking.py), the diagnostics last published per source, the last willSave reason, and the last
check with a task (`Checked`: the version and text it checked, its `CheckResult`; the repair features start from
it). The check ahead's pending task and the resolved model repairs stay in their features (a task to cancel, a cache
keyed by version), which `forget` tells too.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from lsprotocol import types

from akgen_lsp.ascendc.syntax import ParsedFile
from akgen_lsp.check.result import CheckResult
from akgen_lsp.findings import Finding
from akgen_lsp.server.session import DocumentDiagnostics

Versioned = tuple[int | None, list[Finding]]  # findings and the document version they are placed in


@dataclass(frozen=True)
class Checked:
    """Which document version a finished check is of, and the text it checked (the repair features start from it:
    their fixes are edits of this version)."""

    uri: str
    version: int | None
    path: str
    text: str
    result: CheckResult


@dataclass
class DocumentState:
    lint: Versioned | None = None  # the last lint's findings
    parsed: ParsedFile | None = None  # the last parse, from which the next lint re-parses incrementally
    checked: dict[str, Versioned] = field(default_factory=dict)  # build, run, log: source -> findings
    tracked_text: str | None = None  # the text the `checked` findings are placed in
    diagnostics: DocumentDiagnostics = field(default_factory=DocumentDiagnostics)  # as published, per source
    save_reason: types.TextDocumentSaveReason | None = (
        None  # of the last willSave (an auto-save does not check)
    )
    last_check: Checked | None = None  # the last finished check with a task

    def checked_findings(self, version: int | None) -> list[Finding]:
        """The build, run and log findings placed in `version` of the text."""
        return [f for v, found in self.checked.values() if v == version for f in found]
