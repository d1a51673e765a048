"""The on-disk build cache of the sim toolchain.

Cache layout (``cache_dir()``: ``$AKGEN_CACHE_DIR`` or ``platformdirs.user_cache_dir("akgen")``, then ``sim/``):
``pch/<key>/akgen_pch.h(.gch)``, ``launcher/<key>/launcher.o``, ``builds/<key>/{kernel,build.json}``. The build key
hashes the compiler version, flags, our headers and launcher, the generated glue, the sources and every header file
beside them (``*.h``, ``*.hpp``, ``*.inc`` in the sources' folders). Entries are written to a temporary name and
renamed, so concurrent builds never see half a file.
"""

from __future__ import annotations

import functools
import hashlib
import json
import os
import re
import shutil
import stat
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from akgen_lsp.sim import cache_prune
from akgen_lsp.sim.build_types import BuildOptions
from akgen_lsp.sim.compiler import HEADER_SUFFIXES, INCLUDE_DIR, LAUNCHER_SRC, SIM_DIR, compiler_id


def cache_dir() -> Path:
    """The builds' cache: ``sim/`` in the user's private cache folder (`safety.cache_base`: owner and mode checked;
    a folder another user could write is refused with the reason)."""
    from akgen_lsp.safety import cache_base

    return cache_base() / "sim"


@functools.lru_cache(maxsize=1)
def _generated() -> tuple[str, ...]:
    return (str(SIM_DIR) + os.sep, str(cache_dir()) + os.sep, os.path.join(tempfile.gettempdir(), "akgen-"))


def generated_roots(build_folders: Sequence[Path] = ()) -> tuple[str, ...]:
    """Where files that are never the user's live, as path prefixes for `logs.gcc.parse_gcc_output`: our headers
    and launcher, the builds' cache, the scratch folders (``akgen-*`` in the temporary folder) and `build_folders`
    (a build's own generated files)."""
    return (*_generated(), *(str(g) + os.sep for g in build_folders))


def hash_files(paths: Iterable[Path], h: Any) -> None:
    for p in sorted(paths):
        h.update(str(p).encode())
        h.update(b"\0")
        h.update(p.read_bytes())
        h.update(b"\0")


_headers_memo: dict[str, tuple[tuple[int, int], str]] = {}


def _newest(roots: Sequence[Path], deep: Sequence[bool]) -> tuple[int, int]:
    """The newest mtime and the number of the files under `roots` (recursively where `deep`), by os.scandir: a
    few hundred microseconds, where pathlib's rglob and a stat per path took 13 ms (and every case's run asks)."""
    newest = count = 0
    todo = [(str(r), d) for r, d in zip(roots, deep, strict=True)]
    while todo:
        folder, recurse = todo.pop()
        with os.scandir(folder) as it:
            for e in it:
                if e.is_dir(follow_symlinks=False):
                    if recurse:
                        todo.append((e.path, True))
                elif e.is_file():
                    newest = max(newest, e.stat().st_mtime_ns)
                    count += 1
    return newest, count


def headers_hash() -> str:
    """Hash of our headers and launcher (memoised on the newest mtime and the file count, so a cache hit stays
    cheap)."""
    stamp = _newest((INCLUDE_DIR, LAUNCHER_SRC.parent), (True, False))
    memo = _headers_memo.get("h")
    if memo and memo[0] == stamp:
        return memo[1]
    files = [p for p in INCLUDE_DIR.rglob("*") if p.is_file()] + [
        p for p in LAUNCHER_SRC.parent.iterdir() if p.is_file()
    ]
    h = hashlib.sha256()
    hash_files(files, h)
    digest = h.hexdigest()[:24]
    _headers_memo["h"] = (stamp, digest)
    return digest


def atomic_dir(final: Path) -> Path:
    final.parent.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=final.name + ".tmp", dir=final.parent))


def publish(tmp: Path, final: Path) -> None:
    """Move a finished cache entry into place, then keep its cache folder bounded (cache_prune)."""
    try:
        os.replace(tmp, final)
    except OSError:  # another process won the race: theirs is as good as ours
        shutil.rmtree(tmp, ignore_errors=True)
    cache_prune.maybe_prune(final.parent)


def side_headers(sources: Sequence[Path], extra: Sequence[Path]) -> list[Path]:
    """The headers beside the sources and in `extra` folders (not links out of their folder: the compiler's box
    does not see their targets, so neither does the key)."""
    seen: set[Path] = set()
    for d in {s.parent for s in sources} | set(extra):
        if d.is_dir():
            real = d.resolve()
            for p in d.iterdir():
                if p.suffix in HEADER_SUFFIXES and p.is_file() and real in p.resolve().parents:
                    seen.add(p)
    return sorted(seen)


def build_key(cxx: str, sources: Sequence[Path], glue: str, flags: Sequence[str], opts: BuildOptions) -> str:
    h = hashlib.sha256()
    h.update(f"{compiler_id(cxx)}|{headers_hash()}|{list(flags)}|{opts.use_pch}".encode())
    h.update(glue.encode())
    files = list(sources) + side_headers(sources, opts.include_dirs)
    if opts.tiling_header:
        files.append(opts.tiling_header)
    hash_files(set(files), h)
    return h.hexdigest()[:32]


DIGESTS = "digests.json"


def file_digest(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def seal(entry: Path, *names: str) -> None:
    """Record the content hash of the entry's files `names` (what will be executed or linked), before it is
    published: `reusable` checks them before each reuse."""
    digests = {n: file_digest(entry / n) for n in names}
    (entry / DIGESTS).write_text(json.dumps(digests), encoding="utf-8")


def parse_depfile(text: str, base: Path | None = None) -> list[Path]:
    """The files a compile read, from the make rule g++ writes with -MD -MF (a target, a colon and its dependencies,
    lines continued and spaces in names escaped with a backslash). Relative names are relative to `base`, the
    compiler's working folder."""
    out: list[Path] = []
    for rule in text.replace("\\\n", " ").split("\n"):
        _, sep, deps = rule.partition(": ")
        if not sep:
            continue
        for name in re.split(r"(?<!\\)\s+", deps.strip()):
            if name:
                p = Path(name.replace("\\ ", " "))
                out.append(p if p.is_absolute() or base is None else base / p)
    return list(dict.fromkeys(out))


def read_depfile(path: Path, base: Path | None = None) -> list[Path]:
    """`parse_depfile` of the file at `path`; [] when there is none."""
    try:
        return parse_depfile(path.read_text(encoding="utf-8", errors="replace"), base)
    except OSError:
        return []


def user_deps(deps: Iterable[Path], outside: Sequence[Path], inside: Sequence[Path]) -> dict[str, str]:
    """The files of `deps` that are the user's, each with its content hash: what a cached build must find unchanged
    to be reused. The dependency list comes from a compile of untrusted code, so only regular files inside the
    folders the compiler's box could read (`inside`) count, never one under `outside` (the system's headers, ours,
    the build's own): a kernel that includes /proc/1/environ makes akgen read nothing outside those folders."""
    found: dict[str, str] = {}
    roots = [os.path.realpath(r) + os.sep for r in outside]
    allowed = [os.path.realpath(r) + os.sep for r in inside]
    for d in deps:
        real = os.path.realpath(d)
        if any(real.startswith(r) for r in roots) or not any(real.startswith(a) for a in allowed):
            continue
        try:
            if not stat.S_ISREG(os.stat(real).st_mode):
                continue
            found[real] = file_digest(Path(real))
        except OSError:
            continue
    return found


SYSTEM_ROOTS = (Path("/usr"), Path("/lib"), Path("/lib64"), Path("/opt"))


def deps_unchanged(meta: dict[str, Any]) -> bool:
    """Whether every file the build read (its `deps`: path -> content hash, from the compiler's dependency list)
    still has that content."""
    deps = meta.get("deps") or {}
    if not isinstance(deps, dict):
        return False
    for path, digest in deps.items():
        try:
            if file_digest(Path(path)) != digest:
                return False
        except OSError:
            return False
    return True


def reusable(entry: Path, *names: str, meta_name: str = "build.json") -> dict[str, Any] | None:
    """The metadata of a cache entry that may be reused, or None (a miss): no entry, unreadable metadata, a file the
    build read (its recorded `deps`: every header the compiler opened, wherever it is) that changed since, or, for a
    successful build, files whose content no longer matches the hash recorded when it was built (an entry changed
    behind the cache's back is removed and built again)."""
    meta_path = entry / meta_name
    if not meta_path.is_file():
        return None
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        if meta.get("no_reuse") or not deps_unchanged(meta):
            raise ValueError("a file the build read changed, or one it looked for may exist now")
        if meta.get("ok"):
            digests = json.loads((entry / DIGESTS).read_text(encoding="utf-8"))
            if any(digests.get(n) != file_digest(entry / n) for n in names):
                raise ValueError("content changed")
    except (OSError, ValueError, AttributeError):
        shutil.rmtree(entry, ignore_errors=True)
        return None
    cache_prune.touch(entry)
    return meta if isinstance(meta, dict) else None
