"""The workspace's files as the server sees them: the folders to watch, the C++ sources, the build logs.

Bounded on purpose: VCS, virtual environments, node_modules and cache folders are skipped; build folders are looked
at only for their logs, two levels down; at most `MAX_DIRS` folders and `MAX_FILES` sources (a workspace opened at
the home folder is not walked at all). One walk is kept until a folder is created or removed.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from pathlib import Path

from akgen_lsp.server.features.build_logs import is_build_log

log = logging.getLogger(__name__)

MAX_DIRS = 4000
MAX_FILES = 5000
SKIPPED = {
    ".git",
    ".hg",
    ".svn",
    ".venv",
    "venv",
    "node_modules",
    "__pycache__",
    "dist",
    ".tox",
    ".mypy_cache",
    ".pytest_cache",
    ".ruff_cache",
    ".akgen-cache",
    ".cache",
    ".vscode-test",
    "kernel_meta",
    ".idea",
}
BUILD_DIRS = {"log", "logs", "cmakefiles", "out", "output"}  # and every folder named build*
SOURCE_SUFFIXES = {".asc", ".cpp", ".cc", ".cxx", ".h", ".hpp", ".inc"}


@dataclass
class Scan:
    root: Path
    dirs: list[Path] = field(default_factory=list)
    sources: list[Path] = field(default_factory=list)
    logs: list[Path] = field(default_factory=list)
    truncated: bool = False


def walkable(root: Path | None) -> bool:
    """Whether a workspace root is worth walking (not the file system root, not the home folder itself)."""
    if root is None or not root.is_dir():
        return False
    resolved = root.resolve()
    return resolved != Path(resolved.anchor) and resolved != Path.home().resolve()


def is_build_dir(path: Path) -> bool:
    name = path.name.lower()
    return name.startswith("build") or name in BUILD_DIRS


def scan(root: Path) -> Scan:
    out = Scan(root)
    if not walkable(root):
        return out
    # (folder, depth inside a build folder or -1)
    todo: list[tuple[Path, int]] = [(root, -1)]
    while todo:
        folder, build_depth = todo.pop()
        if len(out.dirs) >= MAX_DIRS:
            out.truncated = True
            break
        out.dirs.append(folder)
        try:
            entries = list(os.scandir(folder))
        except OSError:
            continue
        for entry in entries:
            try:
                is_dir = entry.is_dir(follow_symlinks=False)
            except OSError:
                continue
            path = Path(entry.path)
            if is_dir:
                if entry.name in SKIPPED or entry.name.startswith("."):
                    continue
                if build_depth >= 0:
                    if build_depth < 2:
                        todo.append((path, build_depth + 1))
                elif is_build_dir(path):
                    todo.append((path, 0))
                else:
                    todo.append((path, -1))
                continue
            if is_build_log(path):
                out.logs.append(path)
            elif build_depth < 0 and path.suffix.lower() in SOURCE_SUFFIXES:
                if len(out.sources) >= MAX_FILES:
                    out.truncated = True
                    continue
                out.sources.append(path)
    if out.truncated:
        log.info(
            "workspace %s is large: watching %d folders and %d sources", root, len(out.dirs), len(out.sources)
        )
    return out


class WorkspaceFiles:
    """The last `scan` of a root, walked again after `invalidate` (a folder appeared or went away)."""

    def __init__(self, root: Path | None) -> None:
        self.root = root
        self._scan: Scan | None = None

    def get(self) -> Scan:
        if self._scan is None:
            self._scan = scan(self.root) if self.root is not None else Scan(Path("."))
        return self._scan

    def invalidate(self) -> None:
        self._scan = None
