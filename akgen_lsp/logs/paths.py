"""Which paths of a log are the user's files, and how they are shown.

A log names the user's kernel by wherever it was built (``/tmp/akgen-cann-w1/cann/project/op_kernel/add.cpp``, a
copy under ``build_out``, a CI checkout) and names library files too: our simulator headers, the CANN toolkit, the
C++ standard library, the sim's generated glue. Library files are never the place to fix an error; the user's files
are shown as the user knows them: found under the source folders given (``--source DIR``) by the longest common
path suffix, else as the log wrote them.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

# the simulator's Ascend C headers (akgen_lsp/sim/include; found by place: this layer is below the sim)
INCLUDE_DIR = Path(__file__).resolve().parent.parent / "sim" / "include"

SOURCE_SUFFIXES = (
    ".cpp",
    ".cc",
    ".cxx",
    ".c",
    ".h",
    ".hpp",
    ".hh",
    ".inc",
    ".asc",
    ".txt",
    ".cmake",
    ".json",
)
# path pieces of files that are not the user's: toolkits, system headers, our emulation and generated glue
LIBRARY_MARKERS = (
    "/usr/include/",
    "/usr/lib/gcc/",
    "/usr/local/include/",
    "/usr/lib/llvm",
    "/opt/rh/",
    "/Ascend/",
    "ascend-toolkit",
    "/tikcpp/",
    "/tikcfw/",
    "/tikcfw",
    "/cann-",
    "/compiler/ccec_compiler/",
    "/opp/built-in/",
    "/akgen_sim/",
    "/sim/include/",
    "<built-in>",
    "<command-line>",
    "<stdin>",
    "/site-packages/torch",
    "/sim/builds/",
    "/sim/programs/",
    "/sim/host/",
)


class PathMapper:
    """`is_user(path)` and `display(path)` for the paths of one log."""

    def __init__(
        self, sources: Sequence[str | Path] = (), library_markers: Iterable[str] = LIBRARY_MARKERS
    ) -> None:
        self.markers = tuple(library_markers)
        self.include_dir = str(INCLUDE_DIR)
        self.files: list[Path] = []
        for s in sources:
            p = Path(s)
            if p.is_file():
                self.files.append(p.resolve())
            elif p.is_dir():
                self.files.extend(
                    f.resolve()
                    for f in sorted(p.rglob("*"))
                    if f.is_file() and f.suffix.lower() in SOURCE_SUFFIXES and len(self.files) < 20000
                )
        self._by_name: dict[str, list[Path]] = {}
        for f in self.files:
            self._by_name.setdefault(f.name, []).append(f)
        self._memo: dict[str, str] = {}
        self._seen_user: dict[str, str] = {}  # basename -> the first user path shown with it

    def is_user(self, path: str) -> bool:
        p = path.replace("\\", "/")
        if p.startswith(self.include_dir) or any(m in p for m in self.markers):
            return False
        return not (p.endswith("/glue.cpp") or p == "glue.cpp")

    def display(self, path: str) -> str:
        """The user's file for `path` when one under the source folders matches it, else `path` as written."""
        got = self._memo.get(path)
        if got is not None:
            return got
        shown = path
        if self.files and self.is_user(path):
            shown = self._match(path) or path
        name = Path(path).name
        if "/build_out/" in path.replace("\\", "/") and name in self._seen_user:
            shown = self._seen_user[name]  # the copy a CANN binary build compiles is the user's file
        elif self.is_user(path):
            self._seen_user.setdefault(name, shown)
        if len(self._memo) < 50000:
            self._memo[path] = shown
        return shown

    def _match(self, path: str) -> str | None:
        parts = os.path.normpath(path.replace("\\", "/")).split("/")
        cands = self._by_name.get(parts[-1], [])
        if not cands:
            return None
        if len(cands) == 1:
            return str(cands[0])

        def common(c: Path) -> int:
            cp = c.parts
            n = 0
            while n < min(len(cp), len(parts)) and cp[-1 - n] == parts[-1 - n]:
                n += 1
            return n

        best = max(cands, key=common)
        return str(best)


class UserFiles(PathMapper):
    """The paths of one build's log, when the caller knows the user's files (`user_files`: a path the build
    compiled -> the file as the user knows it; the editor's and the cann bench's case). A path is the user's when
    it is a key of the map, one of its values, or has a key's basename (a copy the build made, e.g. under
    ``build_out``); it is shown as the user's file. Every other path is a library's and is shown as written."""

    def __init__(self, user_files: Mapping[str, str]) -> None:
        super().__init__()
        self.exact = {os.path.normpath(k): v for k, v in user_files.items()}
        self.shown = set(self.exact.values())
        self.by_name: dict[str, str] = {}
        for k, v in user_files.items():
            self.by_name.setdefault(os.path.basename(k), v)

    def user(self, path: str) -> str | None:
        """The user's file `path` stands for, or None."""
        p = os.path.normpath(path)
        if p in self.exact:
            return self.exact[p]
        if p in self.shown:
            return p
        return self.by_name.get(os.path.basename(p))

    def is_user(self, path: str) -> bool:
        return self.user(path) is not None

    def display(self, path: str) -> str:
        return self.user(path) or path

    @property
    def kernel(self) -> str:
        """Where an error without a place goes: the user's kernel (the file under ``op_kernel``), else the first
        user file, else ``build.log``."""
        for v in self.exact.values():
            if "op_kernel" in v.replace("\\", "/"):
                return v
        return next(iter(self.exact.values()), "build.log")
