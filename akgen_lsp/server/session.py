"""What the server remembers between requests: settings per folder, and diagnostics per document and source.

No LSP transport here: the protocol layer asks this module for settings and hands it diagnostics to merge.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from akgen_lsp.config import Settings, SettingsError, defaults, find_config_file, load_settings

log = logging.getLogger(__name__)

# Sections of an editor's `akgen` configuration that belong to the client, not to the server.
CLIENT_ONLY_SECTIONS = ("server", "trace")
# The initialization option by which an editor says whether the user trusts the workspace (VS Code's Workspace
# Trust): true lets the workspace's akgen.toml and the editor's settings set the restricted keys of
# akgen_lsp.trust; it never lets the editor name a program or switch the sandbox off (docs/security.md).
TRUST_OPTION = "workspaceTrust"


def take_trust(options: Mapping[str, Any] | None) -> tuple[dict[str, Any], bool | None]:
    """`options` without the workspace-trust flag, and the flag (None when the editor did not say)."""
    if not options:
        return {}, None
    out = dict(options)
    flag = out.pop(TRUST_OPTION, None)
    inner = out.get("akgen")
    if isinstance(inner, Mapping) and TRUST_OPTION in inner:
        inner = dict(inner)
        flag = inner.pop(TRUST_OPTION)
        out["akgen"] = inner
    return out, flag if isinstance(flag, bool) else None


# The diagnostic sources, in the order their diagnostics are listed.
SOURCES = ("lint", "build", "run")


def strip_client_sections(options: Mapping[str, Any] | None) -> dict[str, Any]:
    """Editor options without the sections only the client reads (``akgen.server.command``, ``akgen.trace``)."""
    if not options:
        return {}
    out: dict[str, Any] = {}
    for key, value in options.items():
        if key == "akgen" and value == []:  # Lua's empty table arrives as a JSON array: no settings
            continue
        if key == "akgen" and isinstance(value, Mapping):
            inner = strip_client_sections(value)
            if inner:
                out[key] = inner
        elif key.split(".")[0] not in CLIENT_ONLY_SECTIONS:
            out[key] = value
    return out


class SettingsProvider:
    """Settings for a file: defaults < the nearest ``akgen.toml`` < environment < editor options.

    Invalid editor options are dropped as a whole (the server goes on with the other layers) and the sentence that
    says why is kept in `problems` for the protocol layer to show once.
    """

    def __init__(self, root: Path | None = None, env: Mapping[str, str] | None = None) -> None:
        self.root = root
        self.env = dict(os.environ if env is None else env)
        self.options: dict[str, Any] = {}
        self.problems: list[str] = []
        self.editor_trust: bool | None = None
        # told each notice of a settings layer (a key it may not set), once: the server shows it to the user
        self.on_notice: Callable[[str], None] | None = None
        self._noticed: set[str] = set()
        self._cache: dict[tuple[str, float], Settings] = {}

    def set_options(self, options: Mapping[str, Any] | None) -> str | None:
        """Take new editor options; returns the problem sentence when they are invalid (and keeps the old ones)."""
        options, flag = take_trust(options)
        if flag is not None:
            self.editor_trust = flag
        cleaned = strip_client_sections(options)
        try:
            defaults().with_overrides(cleaned, "the editor's settings")
        except SettingsError as exc:
            problem = (
                f"akgen: {exc}. The server goes on without the editor's settings; fix them in your editor."
            )
            self.problems.append(problem)
            self.options = {}
            self._cache.clear()
            return problem
        self.options = cleaned
        self._cache.clear()
        return None

    def for_path(self, path: str | None) -> Settings:
        folder = Path(path).parent if path else self.root
        config = find_config_file(folder, self.root) if folder is not None else None
        key = (str(config) if config else "", config.stat().st_mtime if config else 0.0)
        cached = self._cache.get(key)
        if cached is not None:
            return cached
        settings = self._load(folder)
        self._cache[key] = settings
        for notice in settings.notices:
            if notice not in self._noticed:
                self._noticed.add(notice)
                if self.on_notice is not None:
                    self.on_notice(notice)
                else:
                    self.problems.append(notice)
        return settings

    def _load(self, folder: Path | None) -> Settings:
        try:
            return load_settings(
                folder, self.env, self.options, root=self.root, editor_trust=self.editor_trust
            )
        except SettingsError as exc:
            # The editor options were validated already, so the file or the environment is wrong.
            problem = f"akgen: {exc}. The server goes on with the default settings for the other keys."
            if problem not in self.problems:
                self.problems.append(problem)
            log.warning("%s", problem)
        try:
            return load_settings(None, self.env, self.options, root=self.root, editor_trust=self.editor_trust)
        except SettingsError:
            return defaults()

    def clear(self) -> None:
        self._cache.clear()

    def take_problems(self) -> list[str]:
        out, self.problems = self.problems, []
        return out


@dataclass
class DocumentDiagnostics:
    """The diagnostics of one document, kept per source so a slow source never hides a fast one."""

    by_source: dict[str, tuple[int | None, list[Any]]] = field(default_factory=dict)

    def set(self, source: str, version: int | None, diagnostics: list[Any]) -> None:
        self.by_source[source] = (version, list(diagnostics))

    def clear(self, source: str | None = None) -> None:
        if source is None:
            self.by_source.clear()
        else:
            self.by_source.pop(source, None)

    def merged(self) -> list[Any]:
        order = {s: i for i, s in enumerate(SOURCES)}
        out: list[Any] = []
        for source in sorted(self.by_source, key=lambda s: order.get(s, len(order))):
            out.extend(self.by_source[source][1])
        return out

    def version(self, source: str) -> int | None:
        entry = self.by_source.get(source)
        return entry[0] if entry else None
