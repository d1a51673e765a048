"""The trust model's guards (akgen_lsp/safety.py) and the caches and stores built on them, attacked by another user of
the machine and by a repository: private folders, bounded reads of regular files, sealed pickles (the catalog cache,
the reference cache), the repair store's location, and the terminal escaping of what the CLI prints."""

from __future__ import annotations

import os
import pickle
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest
from trust_helpers import as_other, other_uid

from akgen_lsp import safety
from akgen_lsp.safety import UnsafePath

pytestmark = pytest.mark.hostile


class Boom:
    """Unpickling this writes a marker: the proof that a planted pickle ran code."""

    def __init__(self, marker: str) -> None:
        self.marker = marker

    def __reduce__(self):  # type: ignore[no-untyped-def]
        return (os.system, (f"touch {self.marker}",))


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("AKGEN_CACHE_DIR", str(folder))
    safety._checked.clear()
    yield folder
    safety._checked.clear()


# --- private folders -------------------------------------------------------------------------------------------------

def test_a_private_folder_is_made_0700(tmp_path: Path) -> None:
    p = safety.private_dir(tmp_path / "a" / "b")
    assert p.stat().st_mode & 0o777 == 0o700


def test_a_readable_folder_of_the_user_is_tightened(tmp_path: Path) -> None:
    (tmp_path / "c").mkdir(mode=0o755)
    assert safety.private_dir(tmp_path / "c").stat().st_mode & 0o777 == 0o700


@pytest.mark.parametrize("mode", [0o777, 0o775, 0o1777])
def test_a_folder_others_may_write_is_refused(tmp_path: Path, mode: int) -> None:
    (tmp_path / "c").mkdir()
    (tmp_path / "c").chmod(mode)
    with pytest.raises(UnsafePath, match="writable by other users"):
        safety.private_dir(tmp_path / "c")


def test_a_folder_another_user_made_first_is_refused(tmp_path: Path) -> None:
    (tmp_path / "c").mkdir(mode=0o700)
    os.chown(tmp_path / "c", other_uid(), -1)
    with pytest.raises(UnsafePath, match="owned by another user"):
        safety.private_dir(tmp_path / "c")


def test_a_planted_link_instead_of_the_cache_folder_is_refused(tmp_path: Path) -> None:
    (tmp_path / "victim-data").mkdir()
    (tmp_path / "c").symlink_to(tmp_path / "victim-data")
    with pytest.raises(UnsafePath, match="not a link"):
        safety.private_dir(tmp_path / "c")


def test_the_cache_refuses_a_shared_cache_dir_and_says_why(cache: Path) -> None:
    cache.mkdir(mode=0o777)
    cache.chmod(0o777)
    res = subprocess.run([sys.executable, "-c", "from akgen_lsp.sim.build_cache import cache_dir; cache_dir()"],
                         capture_output=True, text=True, env={**os.environ, "AKGEN_CACHE_DIR": str(cache)})
    assert res.returncode != 0 and "writable by other users" in res.stderr


# --- reads of a repository's files --------------------------------------------------------------------------------

def test_a_fifo_is_not_read(tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "notes.asc")
    done = threading.Event()

    def read() -> None:
        with pytest.raises(UnsafePath, match="not a regular file"):
            safety.read_regular(tmp_path / "notes.asc", 1 << 20)
        done.set()

    t = threading.Thread(target=read, daemon=True)
    t.start()
    t.join(10)
    assert done.is_set(), "reading a FIFO hung"


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/stdin", "/dev/urandom"])
def test_a_link_to_a_device_is_not_read(tmp_path: Path, device: str) -> None:
    (tmp_path / "notes.asc").symlink_to(device)
    with pytest.raises(UnsafePath):
        safety.read_regular(tmp_path / "notes.asc", 1 << 20, root=tmp_path)


def test_a_link_out_of_the_project_is_not_read(tmp_path: Path) -> None:
    secret = tmp_path / "secret"
    secret.write_text("TOKEN")
    (tmp_path / "proj").mkdir()
    (tmp_path / "proj" / "kernel.h").symlink_to(secret)
    with pytest.raises(UnsafePath, match="outside"):
        safety.read_regular(tmp_path / "proj" / "kernel.h", 100, root=tmp_path / "proj")


def test_a_file_over_the_bound_is_not_read(tmp_path: Path) -> None:
    (tmp_path / "big").write_bytes(b"x" * 2000)
    with pytest.raises(UnsafePath, match="more than"):
        safety.read_regular(tmp_path / "big", 1000)


def test_write_private_never_writes_through_a_planted_link(tmp_path: Path) -> None:
    victim = tmp_path / "victim"
    victim.write_text("keep")
    target = tmp_path / "out"
    target.symlink_to(victim)
    safety.write_private(target, b"new")
    assert victim.read_text() == "keep" and not target.is_symlink() and target.read_bytes() == b"new"
    assert target.stat().st_mode & 0o777 == 0o600


# --- sealed caches --------------------------------------------------------------------------------------------------

def test_a_user_key_is_0600_and_refused_when_others_may_read_it(tmp_path: Path) -> None:
    key = safety.user_key(tmp_path / "k")
    assert len(key) == 32 and (tmp_path / "k" / "key").stat().st_mode & 0o777 == 0o600
    assert safety.user_key(tmp_path / "k") == key
    (tmp_path / "k" / "key").chmod(0o644)
    with pytest.raises(UnsafePath):
        safety.user_key(tmp_path / "k")


def test_a_seal_breaks_on_any_change() -> None:
    sealed = safety.seal(b"k" * 32, b"data")
    assert bytes(safety.unseal(b"k" * 32, sealed) or b"") == b"data"
    assert safety.unseal(b"k" * 32, sealed[:-1] + b"x") is None
    assert safety.unseal(b"j" * 32, sealed) is None


def test_a_swapped_catalog_pickle_never_runs(cache: Path, tmp_path: Path) -> None:
    from akgen_lsp.ascendc.catalog import CATALOG_DIR, _cache_file, load_catalog_cached

    load_catalog_cached(CATALOG_DIR)
    target = _cache_file(CATALOG_DIR)
    assert target is not None and target.is_file()
    marker = tmp_path / "pwned"
    evil = pickle.dumps(Boom(str(marker)))
    target.write_bytes(evil)  # an unsealed pickle, as an attacker without the key writes it
    assert len(load_catalog_cached(CATALOG_DIR)) > 100
    target.write_bytes(b"\0" * 32 + evil)  # a forged seal
    assert len(load_catalog_cached(CATALOG_DIR)) > 100
    assert not marker.exists()


def test_another_user_cannot_plant_a_catalog_pickle(monkeypatch: pytest.MonkeyPatch) -> None:
    import shutil
    import tempfile

    from akgen_lsp.ascendc.catalog import CATALOG_DIR, _cache_file, load_catalog_cached

    parent = Path(tempfile.mkdtemp(prefix="akgen-shared-", dir="/tmp"))
    parent.chmod(0o755)  # every user can reach the cache folder's name: only its own mode protects it
    try:
        monkeypatch.setenv("AKGEN_CACHE_DIR", str(parent / "cache"))
        safety._checked.clear()
        load_catalog_cached(CATALOG_DIR)
        target = _cache_file(CATALOG_DIR)
        assert target is not None and target.is_file()
        res = as_other(["sh", "-c", f"ls {target.parent} || echo x > {target}"])
        assert res.returncode != 0 and "Permission denied" in res.stderr
    finally:
        safety._checked.clear()
        shutil.rmtree(parent)


def test_a_swapped_reference_cache_entry_never_runs(cache: Path, tmp_path: Path,
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    from akgen_lsp.bench import refcache

    monkeypatch.delenv("AKGEN_BENCH_REF_CACHE_DIR", raising=False)
    monkeypatch.setattr(refcache, "_key", None)
    assert refcache.put("ab" * 32, {"x": np.arange(4)})
    assert refcache.get("ab" * 32)["x"].tolist() == [0, 1, 2, 3]
    marker = tmp_path / "pwned"
    path = refcache._path("ab" * 32)
    data = bytearray(path.read_bytes())
    blob = pickle.dumps(Boom(str(marker)), protocol=5)
    # the planted entry: a valid layout around an evil pickle, with the old (now wrong) MAC
    import struct

    head = len(refcache._MAGIC) + refcache._MAC
    fields = struct.pack("<QQ", len(blob), 0)
    path.write_bytes(bytes(data[:head]) + fields + blob)
    assert refcache.get("ab" * 32) is None
    assert not marker.exists()


# --- the repair store -------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["authorized_keys", "bashrc.sqlite"])
def test_the_repair_store_never_turns_another_file_into_a_database(tmp_path: Path, name: str) -> None:
    from akgen_lsp.errors.store import RepairStore, RepairStoreError

    victim = tmp_path / name
    victim.write_text("ssh-ed25519 AAAA user@host\n")
    with pytest.raises(RepairStoreError, match="refused"):
        RepairStore(victim)
    assert victim.read_text() == "ssh-ed25519 AAAA user@host\n"


def test_the_repair_store_never_follows_a_link(tmp_path: Path) -> None:
    from akgen_lsp.errors.store import RepairStore, RepairStoreError

    (tmp_path / "elsewhere.sqlite").write_bytes(b"")
    (tmp_path / "repairs.sqlite").symlink_to(tmp_path / "elsewhere.sqlite")
    with pytest.raises(RepairStoreError, match="link"):
        RepairStore(tmp_path / "repairs.sqlite")


def test_the_repair_store_opens_a_new_or_sqlite_file(tmp_path: Path) -> None:
    from akgen_lsp.errors.store import RepairStore

    RepairStore(tmp_path / "r.sqlite")
    RepairStore(tmp_path / "r.sqlite")  # now an SQLite file: opened again


def _repo_with_store(tmp_path: Path, store: str) -> Path:
    repo = tmp_path / "repo"
    (repo / ".git").mkdir(parents=True)
    (repo / "akgen.toml").write_text(f'[fix]\nstore = "{store}"\n')
    return repo


@pytest.mark.parametrize("how", ["outside", "link", "editor"])
def test_a_repository_or_the_editor_keeps_the_store_in_the_workspace(tmp_path: Path, how: str) -> None:
    """A trusted repository's akgen.toml, or a trusted workspace's editor options, may point fix.store only inside
    the workspace or the user's data folders: a database elsewhere (or through a folder link leading out) is refused,
    naming the allowed places, and nothing is written there."""
    from akgen_lsp.config import load_settings
    from akgen_lsp.errors.store import RepairStoreError
    from akgen_lsp.repair.remember import store_for

    outside = tmp_path / "elsewhere"
    outside.mkdir()
    target = outside / "repairs.sqlite"
    if how == "link":
        repo = _repo_with_store(tmp_path, str(tmp_path / "repo" / "data" / "repairs.sqlite"))
        (repo / "data").symlink_to(outside, target_is_directory=True)
        settings = load_settings(workspace=repo, env={})
    elif how == "outside":
        settings = load_settings(workspace=_repo_with_store(tmp_path, str(target)), env={})
    else:
        repo = _repo_with_store(tmp_path, "repairs.sqlite")
        settings = load_settings(workspace=repo, env={}, editor_options={"fix": {"store": str(target)}},
                                 editor_trust=True)
    assert str(settings["fix.store"]).endswith("repairs.sqlite")  # the key itself was accepted (trusted)
    with pytest.raises(RepairStoreError, match="only inside the workspace or the user's data folders") as err:
        store_for(settings)
    assert str(settings.project) in str(err.value) and "AKGEN_FIX_STORE" in str(err.value)
    assert not target.exists() and not list(outside.iterdir())


def test_a_store_inside_the_workspace_or_from_the_user_is_kept(tmp_path: Path) -> None:
    from akgen_lsp.config import load_settings
    from akgen_lsp.repair.remember import store_for

    repo = _repo_with_store(tmp_path, str(tmp_path / "repo" / "out" / "repairs.sqlite"))
    assert store_for(load_settings(workspace=repo, env={})).path == tmp_path / "repo" / "out" / "repairs.sqlite"
    mine = tmp_path / "mine" / "repairs.sqlite"  # the user's own environment may name any place
    user = load_settings(workspace=repo, env={"AKGEN_FIX_STORE": str(mine)})
    assert store_for(user).path == mine and mine.is_file()


# --- the terminal -----------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", ["\x1b[2K\x1b[1A", "\x1b]52;c;ZWNobyBwd25lZA==\x07", "ok\rEVIL", "a\x08\x08b",
                                  "\x9b2K", "\u202eevil", "\x1b]0;title\x07"])
def test_control_characters_are_escaped(text: str) -> None:
    out = safety.escape_control(text)
    assert not any(c in out for c in "\x1b\x07\r\x08\x9b\u202e")
    assert "\\" in out


def test_tabs_and_newlines_stay() -> None:
    assert safety.escape_control("a\tb\nc") == "a\tb\nc"
