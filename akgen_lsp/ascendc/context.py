"""What a rule sees: the parsed file, the catalog, the hardware profile, the target CANN version and the project."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from akgen_lsp.ascendc.arch import ArchProfile
from akgen_lsp.ascendc.catalog import Catalog
from akgen_lsp.ascendc.project import ProjectFacts
from akgen_lsp.ascendc.syntax import ParsedFile


@dataclass
class LintContext:
    parsed: ParsedFile
    catalog: Catalog
    arch: ArchProfile
    cann_version: str
    options: dict[str, Any] = field(default_factory=dict)
    # what the file's project says (CANN version, kind); the default for a text with no file on disk
    project: ProjectFacts = field(default_factory=lambda: ProjectFacts(None, None, "", "unknown"))

    @property
    def path(self) -> str:
        return self.parsed.path

    @property
    def text(self) -> str:
        return self.parsed.text

    @cached_property
    def memo(self) -> dict[str, Any]:
        """Shared per-file results between rules (the model of classes and calls is built once)."""
        return {}
