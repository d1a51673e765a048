"""The project around a kernel file: the headers it shares a kernel with, read once and kept while unchanged.

A rule that needs what other files of the same kernel say (the class hierarchy of a queue split over headers, the
names a project adds to ``namespace AscendC``) asks `project_index(path)`. The index covers the kernel's folder
tree (the nearest ``op_kernel`` folder above the file, else the file's own folder) and the files those include with
``#include "..."`` (resolved against the including file's folder, the tree's root and the folders above it with
their ``inc`` / ``common`` folders; up to `INCLUDE_DEPTH` levels beyond the tree, `MAX_FILES` files in all).
Each file is read once and its facts are kept with its size and modification time; a later question re-reads only
files that changed (a file added to or removed from the tree is seen when the tree is listed again, at most every
`RELIST_S` seconds). The facts of a file:

- the receivers of its ``EnQue`` calls (``outQueXGrad.template EnQue<T>(...)``, ``this->q.EnQue(t)``);
- the ``SetFlag`` / ``WaitFlag`` events it writes (``SetFlag<HardEvent::MTE2_V>``);
- the names it declares inside ``namespace AscendC`` (`header_names.scan`): a project's own helpers there are the
  project's, not unknown Ascend C APIs.

A text with no file on disk has no project: `project_index` returns None.
"""

from __future__ import annotations

import functools
import os
import re
import time
from dataclasses import dataclass, field
from pathlib import Path

from akgen_lsp.ascendc.header_names import scan

SUFFIXES = (".h", ".hpp", ".hh", ".cpp", ".cc", ".asc", ".inc", ".tpp")
MAX_FILES = 600
RELIST_S = 5.0
INCLUDE_DEPTH = 4
_INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"]+)"', re.M)
_ENQUE = re.compile(r"(\w+)\s*(?:\)\s*)?(?:\.|->)\s*(?:template\s+)?EnQue\b")
_FLAG = re.compile(r"\b(SetFlag|WaitFlag)\s*<\s*(?:AscendC\s*::\s*)?HardEvent\s*::\s*(\w+)")


@dataclass(frozen=True)
class FileFacts:
    enqueued: frozenset[str]
    ascendc_names: frozenset[str]  # qualified (AscendC::Std::always_false_v)
    includes: tuple[str, ...]
    flags: frozenset[tuple[str, str]] = frozenset()  # ("SetFlag" | "WaitFlag", "MTE2_V")


_FILES: dict[Path, tuple[int, int, FileFacts]] = {}  # every file read, shared by the indexes


@dataclass
class ProjectIndex:
    root: Path
    listed_at: float = 0.0
    listing: tuple[Path, ...] = ()
    resolved: dict[tuple[Path, str], Path | None] = field(default_factory=dict)

    def _facts(self, path: Path) -> FileFacts | None:
        try:
            st = path.stat()
        except OSError:
            _FILES.pop(path, None)
            return None
        old = _FILES.get(path)
        if old is not None and old[0] == st.st_size and old[1] == st.st_mtime_ns:
            return old[2]
        facts = read_facts(path)
        _FILES[path] = (st.st_size, st.st_mtime_ns, facts)
        return facts

    def _resolve(self, inc: str, here: Path) -> Path | None:
        key = (here, inc)
        if key not in self.resolved:
            self.resolved[key] = _resolve(inc, here, _search_bases(self.root))
        return self.resolved[key]

    def _paths(self) -> list[Path]:
        now = time.monotonic()
        if now - self.listed_at > RELIST_S:
            self.listing = tuple(_list_tree(self.root))
            self.listed_at = now
        paths = list(self.listing)
        seen = set(paths)
        frontier = list(paths)
        for _ in range(INCLUDE_DEPTH):  # the includes outside the tree, a few levels deep
            nxt = []
            for p in frontier:
                facts = self._facts(p)
                for inc in facts.includes if facts else ():
                    target = self._resolve(inc, p.parent)
                    if target is not None and target not in seen and len(seen) < MAX_FILES:
                        seen.add(target)
                        paths.append(target)
                        nxt.append(target)
            frontier = nxt
        return paths

    def related(self, path: Path) -> list[Path]:
        """The files that share a kernel with `path`: those that include it (directly or not) and everything they and
        it include. A folder of independent kernels (samples, a benchmark's answers) is not one kernel: a member of
        the same name EnQue'd in a file that has nothing to do with this one does not count."""
        paths = self._paths()
        by_key = {os.path.realpath(p): p for p in paths}
        edges: dict[str, list[str]] = {}
        for p in paths:
            facts = self._facts(p)
            targets = [self._resolve(inc, p.parent) for inc in (facts.includes if facts else ())]
            edges[os.path.realpath(p)] = [os.path.realpath(t) for t in targets if t is not None]
        users: dict[str, set[str]] = {}
        for k, targets in edges.items():
            for t in targets:
                users.setdefault(t, set()).add(k)
        me = os.path.realpath(path)
        roots, stack = {me}, [me]
        while stack:  # every file that includes this one, however far up
            for u in users.get(stack.pop(), ()):
                if u not in roots:
                    roots.add(u)
                    stack.append(u)
        seen, stack = set(roots), list(roots)
        while stack:  # and everything those include
            for t in edges.get(stack.pop(), ()):
                if t not in seen:
                    seen.add(t)
                    stack.append(t)
        return [by_key.get(k, Path(k)) for k in sorted(seen)]

    def enqueued(self, path: Path) -> frozenset[str]:
        """The receivers of EnQue in the files that share a kernel with `path` (`related`)."""
        out: set[str] = set()
        for p in self.related(path):
            f = self._facts(p)
            if f is not None:
                out |= f.enqueued
        return frozenset(out)

    def flags(self, path: Path) -> frozenset[tuple[str, str]]:
        """(SetFlag | WaitFlag, event) written in the other files that share a kernel with `path`."""
        me = os.path.realpath(path)
        out: set[tuple[str, str]] = set()
        for p in self.related(path):
            if os.path.realpath(p) == me:
                continue
            f = self._facts(p)
            if f is not None:
                out |= f.flags
        return frozenset(out)

    def ascendc_names(self) -> frozenset[str]:
        out: set[str] = set()
        for p in self._paths():
            f = self._facts(p)
            if f is not None:
                out |= f.ascendc_names
        return frozenset(out)


def read_facts(path: Path) -> FileFacts:
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return FileFacts(frozenset(), frozenset(), ())
    names: frozenset[str] = frozenset()
    if "namespace AscendC" in text:
        names = frozenset(f.name for f in scan(text, "project") if f.name.startswith("AscendC::"))
        names |= {n.rsplit("::", 1)[0] for n in names if n.count("::") > 1}
    return FileFacts(
        frozenset(_ENQUE.findall(text)), names, tuple(_INCLUDE.findall(text)), frozenset(_FLAG.findall(text))
    )


def _list_tree(root: Path) -> list[Path]:
    out: list[Path] = []
    for dirpath, dirs, names in os.walk(root):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in ("tests", "build", "docs"))
        for n in sorted(names):
            if n.endswith(SUFFIXES):
                out.append(Path(dirpath) / n)
                if len(out) >= MAX_FILES:
                    return out
    return out


@functools.lru_cache(maxsize=256)
def _search_bases(root: Path) -> tuple[Path, ...]:
    """Where a quoted include may be found besides the including file's folder: the kernel's root and the folders
    above it (up to four), each with its ``inc``, ``common`` and ``common/inc`` (the ops repositories' layout)."""
    out: list[Path] = []
    here = root
    for _ in range(5):
        for base in (here, here / "inc", here / "common", here / "common" / "inc"):
            if base.is_dir() and base not in out:
                out.append(base)
        if here.parent == here or (here / ".git").exists():
            break
        here = here.parent
    return tuple(out)


def _resolve(inc: str, here: Path, bases: tuple[Path, ...]) -> Path | None:
    for base in (here, *bases):
        p = base / inc
        if p.is_file():
            return p.resolve() if ".." in inc else p
    return None


def kernel_root(path: Path) -> Path:
    """The nearest ``op_kernel`` folder above `path` (at most 6 levels), else the file's own folder."""
    here = path.parent
    for _ in range(6):
        if here.name == "op_kernel":
            return here
        if here.parent == here:
            break
        here = here.parent
    return path.parent


@functools.lru_cache(maxsize=64)
def _index_for(root: str) -> ProjectIndex:
    return ProjectIndex(Path(root))


def project_index(path: str | Path) -> ProjectIndex | None:
    p = Path(path)
    if not p.is_absolute() or not p.is_file():
        return None
    return _index_for(str(kernel_root(p)))
