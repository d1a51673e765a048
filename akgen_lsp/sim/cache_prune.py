"""Keep the simulator's on-disk caches bounded.

Every header version gets its own precompiled header (a few hundred MB each) and every (source, flags, headers)
combination its own build folder, so without pruning the cache grows with every upgrade and every edit. After a new
entry is published, `maybe_prune` removes the least recently used entries of that cache folder:

- ``pch/`` and ``launcher/``: all but the newest `KEEP_VERSIONS` entries (one per header version);
- ``builds/``, ``host/``, ``programs/``: oldest first while the folder is above its byte budget.

"Recently used" is the entry folder's mtime; cache hits call `touch` so a hot entry stays. An entry younger than
`MIN_AGE_S` is never removed (another process may be about to use it), nor are unfinished ``*.tmp*`` folders of
running builds unless they are a day old (left behind by a killed process). Pruning renames an entry away before
deleting it, so a reader sees an entry whole or not at all. It runs at most once per `INTERVAL_S` per folder (a stamp
file), and any OS error just stops it: pruning never fails a build.

Budgets can be changed with ``AKGEN_SIM_CACHE_MB`` (the byte budget of each size-capped folder, in MiB).
"""

from __future__ import annotations

import contextlib
import os
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path

KEEP_VERSIONS = 3
DEFAULT_BUDGET_MB = 2048
MIN_AGE_S = 600.0
STALE_TMP_S = 86400.0
INTERVAL_S = 300.0
_STAMP = ".akgen-pruned"
VERSIONED = ("pch", "launcher", "program_runtime")


@dataclass
class PruneReport:
    removed: list[str] = field(default_factory=list)
    freed_bytes: int = 0
    kept: int = 0


def budget_bytes() -> int:
    raw = os.environ.get("AKGEN_SIM_CACHE_MB", "")
    try:
        mb = int(raw) if raw else DEFAULT_BUDGET_MB
    except ValueError:
        mb = DEFAULT_BUDGET_MB
    return max(mb, 1) * 1024 * 1024


def touch(entry: Path) -> None:
    """Mark a cache entry as used now (a hit), so pruning keeps it."""
    with contextlib.suppress(OSError):
        os.utime(entry)


def _size(path: Path) -> int:
    total = 0
    for root, _dirs, files in os.walk(path):
        for name in files:
            with contextlib.suppress(OSError):
                total += os.lstat(os.path.join(root, name)).st_size
    return total


def _remove(entry: Path, report: PruneReport, size: int) -> None:
    doomed = entry.with_name(f"{entry.name}.tmpdel{os.getpid()}")
    try:
        entry.rename(doomed)
    except OSError:
        return
    shutil.rmtree(doomed, ignore_errors=True)
    report.removed.append(entry.name)
    report.freed_bytes += size


def prune(
    folder: Path,
    *,
    keep_newest: int | None = None,
    max_bytes: int | None = None,
    now: float | None = None,
    min_age_s: float = MIN_AGE_S,
) -> PruneReport:
    """Remove old entries (sub-folders) of `folder`: beyond the `keep_newest` most recent, and/or oldest first while
    the total is above `max_bytes`. Entries younger than `min_age_s` always stay."""
    report = PruneReport()
    now = time.time() if now is None else now
    try:
        children = [p for p in folder.iterdir() if p.is_dir()]
    except OSError:
        return report
    entries: list[tuple[float, Path]] = []
    for p in children:
        try:
            mtime = p.stat().st_mtime
        except OSError:
            continue
        if ".tmp" in p.name:
            if now - mtime > STALE_TMP_S:
                _remove(p, report, _size(p))
            continue
        entries.append((mtime, p))
    entries.sort(key=lambda e: e[0], reverse=True)  # newest first
    sizes = {p: _size(p) for _, p in entries} if max_bytes is not None else {}
    total = sum(sizes.values())
    for rank, (mtime, p) in enumerate(entries):
        old_enough = now - mtime >= min_age_s
        too_many = keep_newest is not None and rank >= keep_newest
        if old_enough and too_many:
            _remove(p, report, sizes.get(p, 0) or _size(p))
            total -= sizes.get(p, 0)
            continue
        report.kept += 1
    if max_bytes is not None and total > max_bytes:
        for mtime, p in reversed(entries):  # oldest first
            if total <= max_bytes:
                break
            if p.name in report.removed or now - mtime < min_age_s:
                continue
            _remove(p, report, sizes.get(p, 0))
            total -= sizes.get(p, 0)
            report.kept -= 1
    return report


def maybe_prune(folder: Path) -> PruneReport | None:
    """Prune `folder` (a sub-folder of the sim cache) by its policy, at most once per INTERVAL_S; never raises."""
    stamp = folder / _STAMP
    try:
        if stamp.is_file() and time.time() - stamp.stat().st_mtime < INTERVAL_S:
            return None
        stamp.touch()
        if folder.name in VERSIONED:
            return prune(folder, keep_newest=KEEP_VERSIONS)
        return prune(folder, max_bytes=budget_bytes())
    except OSError:
        return None
