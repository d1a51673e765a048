"""What a rule sees: the parsed file, the catalog, the hardware profile and the target CANN version."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from akgen_lsp.ascendc.arch import ArchProfile
from akgen_lsp.ascendc.catalog import Catalog
from akgen_lsp.ascendc.syntax import ParsedFile


@dataclass
class LintContext:
    parsed: ParsedFile
    catalog: Catalog
    arch: ArchProfile
    cann_version: str
    options: dict[str, Any] = field(default_factory=dict)

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
