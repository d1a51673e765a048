"""The local store of repairs: errors already fixed, found again by signature ("similar errors already fixed").

SQLite in the user cache folder (``$AKGEN_CACHE_DIR`` or ``platformdirs.user_cache_dir("akgen")``, then
``errors/repairs.sqlite``). One row per repair: the error's signature and class, its message, the code before and
after (and the unified diff), the task, the model (or ``user`` / ``deterministic``), where it came from
(``provenance``: ``synthesized``, ``editor``, ``history``, ``bench``) and when. Writers: `akgen errors synthesize`,
the editor's verified repairs ("Fix this build error"), fixes found in a kernel's history. Readers: diagnostic
reports (`similar`), and `export` to JSONL for training.

The API is small on purpose::

    store = RepairStore()                                   # or RepairStore(path)
    store.add(signature, before, after, error_class="hallucinated_api", message=..., task=..., model=...,
              provenance="editor", path="op_kernel/add.cpp")
    store.similar(signature, k=3)                          # exact signature first, then the closest of its class
    store.export(Path("repairs.jsonl"))

Each call opens its own connection (safe from threads and processes; SQLite's WAL journal lets readers run while a
writer writes). A repair identical to a stored one (same signature, before and after) is not stored twice.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import re
import sqlite3
import time
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

SCHEMA = 1
_TOKEN = re.compile(r"<\w+>|[A-Za-z_]\w*|'[^']*'|\S")


def default_path() -> Path:
    from akgen_lsp.safety import cache_base

    return cache_base() / "errors" / "repairs.sqlite"


STORE_SUFFIXES = (".sqlite", ".sqlite3", ".db")
_SQLITE_MAGIC = b"SQLite format 3\x00"


def store_problem(path: Path) -> str | None:
    """Why `path` may not hold the repair store (docs/security.md), or None: the store writes only a file named
    *.sqlite, *.sqlite3 or *.db that is absent, empty or already an SQLite database, never through a link, so a
    `fix.store` pointed at ~/.ssh/authorized_keys or another file cannot turn it into a database."""
    import stat

    if path.suffix.lower() not in STORE_SUFFIXES:
        return f"its name must end in {', '.join(STORE_SUFFIXES)}; set fix.store to such a file"
    try:
        st = os.lstat(path)
    except OSError:  # absent (or its folder cannot be made): opening it says why
        return None
    if stat.S_ISLNK(st.st_mode) or not stat.S_ISREG(st.st_mode):
        return "it is a link or not a regular file"
    if st.st_uid != os.geteuid():
        return f"it belongs to another user (uid {st.st_uid})"
    if st.st_size:
        with open(path, "rb") as fh:
            if fh.read(16) != _SQLITE_MAGIC:
                return "it is a file that is not an SQLite database"
    return None


def data_folders() -> list[Path]:
    """The user's own places for a store: the akgen cache folder and the platform's data folder for akgen."""
    import platformdirs

    from akgen_lsp.safety import cache_base

    return [cache_base(), Path(platformdirs.user_data_dir("akgen"))]


def location_problem(path: Path, origin: str, workspace: Path | None) -> str | None:
    """Why `fix.store` = `path`, set by `origin`, may not hold the store (docs/security.md), or None. The user's own
    configuration file and environment may name any place; a value from a repository's akgen.toml or the editor's
    options must lie inside the user's data folders or the `workspace` (links resolved), so a trusted repository or
    a workspace's .vscode/settings.json cannot write a database anywhere else."""
    from akgen_lsp import trust

    if origin.startswith("environment variable") or origin in ("default", str(trust.user_config_file())):
        return None
    places = [*data_folders(), *([workspace] if workspace is not None else [])]
    target = Path(path).absolute().resolve()
    for place in places:
        base = Path(place).resolve()
        if base in target.parents:
            return None
    return (
        f"{origin} may keep it only inside the workspace or the user's data folders "
        f"({', '.join(str(p) for p in places)}); set fix.store to a file there, or set it in your user "
        "configuration (config.toml) or AKGEN_FIX_STORE"
    )


def unified_diff(before: str, after: str, path: str = "kernel.cpp") -> str:
    return "".join(
        difflib.unified_diff(
            before.splitlines(keepends=True), after.splitlines(keepends=True), f"a/{path}", f"b/{path}"
        )
    )


@dataclass(frozen=True)
class Repair:
    id: int
    signature: str
    error_class: str | None
    message: str
    before: str
    after: str
    diff: str
    task: str | None
    model: str | None
    provenance: str
    path: str | None
    created: float
    score: float = 1.0  # similarity to the signature asked for (1.0: the same signature)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


class RepairStoreError(RuntimeError):
    """The store cannot be opened or written; the message names the file."""


class RepairStore:
    def __init__(self, path: str | Path | None = None) -> None:
        try:
            self.path = Path(path) if path is not None else default_path()
        except OSError as exc:  # the cache folder is not private (safety.UnsafePath)
            raise RepairStoreError(f"cannot open the repair store: {exc}") from None
        why = store_problem(self.path)
        if why:
            raise RepairStoreError(f"the repair store {self.path} is refused: {why}")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            with self._connect() as db:
                db.execute("PRAGMA journal_mode=WAL")
                db.execute("""CREATE TABLE IF NOT EXISTS repairs (
                    id INTEGER PRIMARY KEY, signature TEXT NOT NULL, error_class TEXT, message TEXT NOT NULL,
                    before TEXT NOT NULL, after TEXT NOT NULL, diff TEXT NOT NULL, task TEXT, model TEXT,
                    provenance TEXT NOT NULL, path TEXT, created REAL NOT NULL, key TEXT UNIQUE NOT NULL)""")
                db.execute("CREATE INDEX IF NOT EXISTS repairs_signature ON repairs (signature)")
                db.execute("CREATE INDEX IF NOT EXISTS repairs_class ON repairs (error_class)")
                db.execute(f"PRAGMA user_version={SCHEMA}")
        except (OSError, sqlite3.Error) as exc:
            raise RepairStoreError(
                f"cannot open the repair store {self.path}: {exc}; set AKGEN_CACHE_DIR to a writable folder"
            ) from None

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        with closing(sqlite3.connect(self.path, timeout=30.0)) as db, db:
            yield db

    def add(
        self,
        signature: str,
        before: str,
        after: str,
        *,
        error_class: str | None = None,
        message: str = "",
        task: str | None = None,
        model: str | None = None,
        provenance: str = "user",
        path: str | None = None,
    ) -> int | None:
        """Store one repair; returns its id, or None when the same repair was already stored."""
        if before == after:
            raise ValueError("a repair must change the code (before and after are the same)")
        key = hashlib.sha256(
            "\0".join((signature, before, after)).encode("utf-8", "surrogatepass")
        ).hexdigest()
        diff = unified_diff(before, after, path or "kernel.cpp")
        try:
            with self._connect() as db:
                cur = db.execute(
                    "INSERT OR IGNORE INTO repairs (signature, error_class, message, before, after, diff, task, model,"
                    " provenance, path, created, key) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (
                        signature,
                        error_class,
                        message,
                        before,
                        after,
                        diff,
                        task,
                        model,
                        provenance,
                        path,
                        time.time(),
                        key,
                    ),
                )
                return int(cur.lastrowid) if cur.rowcount else None
        except sqlite3.Error as exc:
            raise RepairStoreError(f"cannot write the repair store {self.path}: {exc}") from None

    def count(self) -> int:
        with self._connect() as db:
            return int(db.execute("SELECT COUNT(*) FROM repairs").fetchone()[0])

    def similar(self, signature: str, k: int = 3, error_class: str | None = None) -> list[Repair]:
        """Up to `k` repairs: those of the same signature (newest first), then those of the same class whose
        signature is closest (token overlap, at least 0.5)."""
        with self._connect() as db:
            exact = [
                self._row(r, 1.0)
                for r in db.execute(
                    "SELECT * FROM repairs WHERE signature = ? ORDER BY created DESC LIMIT ?", (signature, k)
                )
            ]
            if len(exact) >= k or not error_class:
                return exact
            rows = db.execute(
                "SELECT * FROM repairs WHERE error_class = ? AND signature != ? ORDER BY created DESC "
                "LIMIT 2000",
                (error_class, signature),
            ).fetchall()
        want = set(_TOKEN.findall(signature))
        scored = []
        for r in rows:
            have = set(_TOKEN.findall(r[1]))
            score = len(want & have) / max(1, len(want | have))
            if score >= 0.5:
                scored.append(self._row(r, round(score, 3)))
        scored.sort(key=lambda rep: (-rep.score, -rep.created))
        return exact + scored[: k - len(exact)]

    def export(self, out: str | Path, provenance: str | None = None) -> int:
        """Write every repair (or those of one provenance) as JSON lines; returns how many."""
        n = 0
        query = "SELECT * FROM repairs" + (" WHERE provenance = ?" if provenance else "") + " ORDER BY id"
        with self._connect() as db, Path(out).open("w", encoding="utf-8") as fh:
            for r in db.execute(query, (provenance,) if provenance else ()):
                fh.write(json.dumps(self._row(r, 1.0).to_json(), ensure_ascii=False) + "\n")
                n += 1
        return n

    @staticmethod
    def _row(r: tuple[Any, ...], score: float) -> Repair:
        return Repair(
            int(r[0]), r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10], float(r[11]), score
        )
