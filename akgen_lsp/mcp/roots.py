"""Where an agent may point akgen: every path a tool is given must lie inside one of the client's roots.

The roots are the client's MCP roots (``roots/list``: ``file://`` URIs) when it lists at least one local folder, else
(a client without the roots capability, or with an empty list) the folders the server was started with (``akgen mcp
--root DIR``, by default its working directory). A path is
resolved first (``..`` and symbolic links followed), so a link inside a root that points outside is refused too.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import unquote, urlparse


class OutsideRoots(ValueError):
    """A path the client may not use: the sentence says which path, which roots, and what to do."""


def path_of_uri(uri: str) -> Path | None:
    """The local folder of a ``file://`` root URI; None for any other scheme (an agent's ``https://`` root names
    nothing on this machine)."""
    parsed = urlparse(str(uri))
    if parsed.scheme != "file" or parsed.netloc not in ("", "localhost"):
        return None
    return Path(unquote(parsed.path))


def _real(path: Path) -> Path:
    return Path(os.path.realpath(path))


@dataclass(frozen=True)
class Roots:
    """The resolved root folders a session's tools may read and write under."""

    folders: tuple[Path, ...]
    origin: str  # "client" (MCP roots) or "server" (--root / the working directory)

    @classmethod
    def of(cls, folders: Iterable[Path | str], origin: str) -> Roots:
        return cls(tuple(dict.fromkeys(_real(Path(f)) for f in folders)), origin)

    @classmethod
    def from_uris(cls, uris: Iterable[str]) -> Roots:
        return cls.of([p for p in (path_of_uri(u) for u in uris) if p is not None], "client")

    def describe(self) -> str:
        if not self.folders:
            return "no folder (the client gave no file:// root)"
        return ", ".join(str(f) for f in self.folders)

    def confine(self, path: str | Path, what: str = "path") -> Path:
        """`path` resolved (a relative path against the first root), or OutsideRoots when it is not inside a root."""
        raw = Path(os.path.expanduser(str(path)))
        if not raw.is_absolute():
            if not self.folders:
                raise OutsideRoots(
                    f"the {what} {str(path)!r} is relative and there is no root to resolve it against; "
                    "give an absolute path inside one of the client's roots"
                )
            raw = self.folders[0] / raw
        real = _real(raw)
        for root in self.folders:
            if real == root or real.is_relative_to(root):
                return real
        who = "the client's roots" if self.origin == "client" else "the server's roots (akgen mcp --root)"
        raise OutsideRoots(
            f"the {what} {str(path)!r} (resolved: {real}) is outside {who}: {self.describe()}; "
            "give a path inside a root, or add its folder as a root of the client"
        )

    def confine_all(self, paths: Sequence[str | Path], what: str = "path") -> list[Path]:
        return [self.confine(p, what) for p in paths]
