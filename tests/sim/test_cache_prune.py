"""The sim cache stays bounded: versioned folders keep their newest entries, size-capped ones drop the oldest."""

from __future__ import annotations

import os
import time
from pathlib import Path

from akgen_lsp.sim import cache_prune
from akgen_lsp.sim.cache_prune import maybe_prune, prune, touch


def _entry(folder: Path, name: str, size: int, age_s: float, now: float) -> Path:
    p = folder / name
    p.mkdir(parents=True)
    (p / "blob").write_bytes(b"x" * size)
    os.utime(p, (now - age_s, now - age_s))
    return p


def test_versioned_folder_keeps_the_newest_entries(tmp_path: Path) -> None:
    now = time.time()
    for i in range(5):
        _entry(tmp_path, f"v{i}", 10, age_s=3600 * (i + 1), now=now)
    rep = prune(tmp_path, keep_newest=2, now=now)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["v0", "v1"]
    assert sorted(rep.removed) == ["v2", "v3", "v4"] and rep.freed_bytes == 30


def test_young_entries_stay_even_beyond_the_limit(tmp_path: Path) -> None:
    now = time.time()
    for i in range(4):
        _entry(tmp_path, f"v{i}", 10, age_s=60 * i, now=now)  # all younger than MIN_AGE_S
    prune(tmp_path, keep_newest=1, now=now)
    assert len(list(tmp_path.iterdir())) == 4


def test_size_cap_drops_oldest_first(tmp_path: Path) -> None:
    now = time.time()
    _entry(tmp_path, "old", 400, age_s=9000, now=now)
    _entry(tmp_path, "mid", 400, age_s=5000, now=now)
    _entry(tmp_path, "new", 400, age_s=1000, now=now)
    rep = prune(tmp_path, max_bytes=900, now=now)
    assert rep.removed == ["old"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mid", "new"]


def test_a_touched_entry_counts_as_recent(tmp_path: Path) -> None:
    now = time.time()
    a = _entry(tmp_path, "a", 400, age_s=9000, now=now)
    _entry(tmp_path, "b", 400, age_s=5000, now=now)
    touch(a)
    prune(tmp_path, max_bytes=500, now=time.time() + cache_prune.MIN_AGE_S + 1)
    assert [p.name for p in tmp_path.iterdir()] == ["a"]


def test_running_builds_are_left_alone_but_day_old_leftovers_go(tmp_path: Path) -> None:
    now = time.time()
    _entry(tmp_path, "k.tmp123", 10, age_s=30, now=now)
    _entry(tmp_path, "j.tmp456", 10, age_s=2 * 86400, now=now)
    prune(tmp_path, keep_newest=0, now=now)
    assert [p.name for p in tmp_path.iterdir()] == ["k.tmp123"]


def test_maybe_prune_runs_at_most_once_per_interval_and_never_raises(tmp_path: Path) -> None:
    pch = tmp_path / "pch"
    now = time.time()
    for i in range(5):
        _entry(pch, f"v{i}", 10, age_s=3600 * (i + 1), now=now)
    first = maybe_prune(pch)
    assert first is not None and len(first.removed) == 5 - cache_prune.KEEP_VERSIONS
    assert maybe_prune(pch) is None  # stamped: not again within INTERVAL_S
    assert maybe_prune(tmp_path / "missing" / "builds") is None
