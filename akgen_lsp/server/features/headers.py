"""Check findings that lie in a header the checked kernel includes: shown in the header, open or not.

A compile error or a runtime fault inside ``add_tiling.h`` belongs to that file: the save check publishes it for the
header's URI (from its text on disk while it is closed, so VS Code's Problems view and Neovim's diagnostics of a
not-yet-loaded buffer list it), with the kernel's including line as related information; the kernel itself shows it
at that including line (save_check.split_findings). Several open kernels may include one header: it shows the union
of their checks. A kernel's next check replaces its part, so a fixed header is cleared; a header closed in the
editor gets its findings back as a closed file's.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

from pygls.uris import to_fs_path

from akgen_lsp.findings import Finding
from akgen_lsp.server.host import FeatureHost

_INCLUDE = re.compile(r'\s*#\s*include\s*["<]([^">]+)[">]')
_MAX_DEPTH = 8
_MAX_FILES = 200
_MAX_BYTES = 1 << 20

# (the header's path, its current text, the findings) -> the findings by server source (``build``, ``run``)
Place = Callable[[str, str, Sequence[Finding]], Mapping[str, Sequence[Finding]]]


def _includes(text: str) -> list[tuple[int, str]]:
    out = []
    for number, line in enumerate(text.splitlines(), 1):
        m = _INCLUDE.match(line)
        if m:
            out.append((number, m.group(1)))
    return out


def _read(path: Path) -> str | None:
    try:
        if not path.is_file() or path.stat().st_size > _MAX_BYTES:
            return None
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None


def include_line(path: str, text: str, header: str) -> int | None:
    """The 1-based line of `text` (the file `path`) that includes `header`, directly (by its name) or through the
    quote-included files beside it (a header that includes it, at most 8 deep); None when none does."""
    target = Path(header).name
    found = _includes(text)
    for number, name in found:
        if Path(name).name == target:
            return number
    seen: set[Path] = set()
    base = Path(path).parent
    for number, name in found:
        if _reaches(base / name, target, seen, 1):
            return number
    return None


def _reaches(path: Path, target: str, seen: set[Path], depth: int) -> bool:
    try:
        path = path.resolve()
    except OSError:
        return False
    if depth > _MAX_DEPTH or path in seen or len(seen) >= _MAX_FILES:
        return False
    seen.add(path)
    text = _read(path)
    if text is None:
        return False
    names = [name for _, name in _includes(text)]
    if any(Path(name).name == target for name in names):
        return True
    return any(_reaches(path.parent / name, target, seen, depth + 1) for name in names)


class HeaderFindings:
    """Per header URI, per kernel URI: the findings of that kernel's last check placed in the header."""

    def __init__(self, place: Place) -> None:
        self.place = place
        self.by_header: dict[str, dict[str, list[Finding]]] = {}

    def update(self, host: FeatureHost, kernel_uri: str, by_header: Mapping[str, list[Finding]]) -> None:
        """The kernel's new check found `by_header` in these headers: replace its part and publish each header
        whose findings changed (one that has none left is cleared)."""
        touched = {h for h, per in self.by_header.items() if kernel_uri in per} | set(by_header)
        for per in self.by_header.values():
            per.pop(kernel_uri, None)
        for header, found in by_header.items():
            if header != kernel_uri:
                self.by_header.setdefault(header, {})[kernel_uri] = list(found)
        for header in sorted(touched - {kernel_uri}):
            self.publish(host, header)

    def findings(self, header_uri: str) -> list[Finding]:
        return [f for per in self.by_header.get(header_uri, {}).values() for f in per]

    def publish(self, host: FeatureHost, header_uri: str) -> None:
        found = self.findings(header_uri)
        if not found:
            self.by_header.pop(header_uri, None)
        path = to_fs_path(header_uri) or ""
        if host.is_open(header_uri):
            placed = self.place(path, host.document(header_uri).source, found)
            host.publish_sources(header_uri, placed)
        else:
            text = _read(Path(path)) or ""
            host.publish_file(header_uri, [f for fs in self.place(path, text, found).values() for f in fs])

    def opened(self, host: FeatureHost, uri: str) -> None:
        """A header with findings was opened: they join its lint's diagnostics."""
        if uri in self.by_header:
            self.publish(host, uri)

    def closed(self, host: FeatureHost, uri: str) -> None:
        """A document was closed: a kernel's part goes (its results are gone with it); a header keeps its findings,
        now as a closed file's."""
        self.update(host, uri, {})
        if uri in self.by_header:
            self.publish(host, uri)
