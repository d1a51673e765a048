"""One MCP server's state (`Akgen`): its own roots, the warm check worker, the thread that lints, the settings per
folder, the folder of its run outputs, and the confinement of every path to the roots.
"""

from __future__ import annotations

import asyncio
import functools
import gc
import tempfile
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ListRootsResult

from akgen_lsp.config import Settings, SettingsError, load_settings
from akgen_lsp.mcp import knowledge
from akgen_lsp.mcp.checking import CheckService
from akgen_lsp.mcp.roots import OutsideRoots, Roots

T = TypeVar("T")


class Akgen:
    """One server's state: its own roots, the warm check worker, the settings per folder."""

    def __init__(self, roots: Sequence[Path], warm: bool = True) -> None:
        self.server_roots = Roots.of(roots or [Path.cwd()], "server")
        self.checks = CheckService()
        self.warm_on_start = warm
        self._outputs: Path | None = None
        self.parses = knowledge.Parses()
        # lint, explain and report run on one thread of their own: the event loop stays free, and one thread's
        # heap serves every call (a pool's many threads each grow a malloc arena of their own)
        self.executor = ThreadPoolExecutor(max_workers=1, thread_name_prefix="akgen-mcp")

    async def run(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.get_running_loop().run_in_executor(self.executor, functools.partial(fn, *args))

    def prepare(self) -> None:
        """Load the catalog and the rules (the first lint then costs what the next ones cost), then move everything
        loaded so far out of the garbage collector's sight (`gc.freeze`), so that the full collection after each
        lint (`lint`) costs a few milliseconds instead of tens."""
        knowledge.lint("", "prepare.cpp", self.settings(None), None)
        gc.collect()
        gc.freeze()

    def lint(self, text: str, path: str, settings: Settings) -> dict[str, Any]:
        """The lint, then a full collection: a parse's objects sit in reference cycles that hold the tree-sitter
        tree, and without it each lint of a large file left megabytes until Python's rare full collection (the
        server grew 105 -> 150 MB over 160 lints of a 2,000-line file; with it, flat)."""
        try:
            return knowledge.lint(text, path, settings, self.parses)
        finally:
            gc.collect()

    @property
    def outputs(self) -> Path:
        """The folder of this server's run and bench outputs (made on first use)."""
        if self._outputs is None:
            self._outputs = Path(tempfile.mkdtemp(prefix="akgen-mcp-out-"))
        return self._outputs

    def roots(self, listed: ListRootsResult | None) -> Roots:
        """The client's roots when it lists at least one local folder; else (no roots capability, an empty list,
        only remote URIs) the server's own: the folders whoever started the server gave it."""
        client = Roots.from_uris([str(r.uri) for r in listed.roots]) if listed is not None else None
        return client if client is not None and client.folders else self.server_roots

    def settings(self, folder: Path | None, arch: str | None = None, cann: str | None = None) -> Settings:
        try:
            settings = load_settings(folder or self.server_roots.folders[0])
            over = {k: v for k, v in (("arch", arch), ("cann.version", cann)) if v}
            return settings.with_overrides(over, "the tool call") if over else settings
        except SettingsError as exc:
            raise ToolError(str(exc)) from None

    def confine(self, listed: ListRootsResult | None, path: str, what: str) -> Path:
        try:
            return self.roots(listed).confine(path, what)
        except OutsideRoots as exc:
            raise ToolError(str(exc)) from None
