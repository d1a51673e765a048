"""The data scripts' replay, decided outside the box (op_run.py runs a kernel UT's test binary with a broker beside
it; ut_pyrun.py is its client in the box).

A UT's test binary starts its data scripts with system() (`python3 gen_data.py ...`, `python3 compare_data.py ...`)
from inside the box where the kernel runs, so nothing the box writes can say what a script did: a kernel could
write a record that says its compare script passed. So the records live where no box writes (`store`, under the
user's cache, read-only in the box), each sealed with a key the box never sees, and the box only asks:

- the shim's `python3 SCRIPT ARGS` (ut_pyrun.py) writes a request line into `<work>/pyrun/requests` (a FIFO) and
  reads the answer from a FIFO of its own;
- the broker (here, in akgen's process) computes the record's key itself (the script's path and content, the
  arguments, the folder and its file names and sizes, the interpreter), and replays a sealed record when every
  file the recorded run read (inside the box's view) has the content it had: the client writes the record's
  files and prints what the run printed;
- else the broker runs the script in a box of its own (the same view; writable: the work folder and a staging
  folder the test's box cannot see as writable), where ut_pyrun.py records it (an audit hook: what it opened,
  wrote, printed); the broker seals the record into the store when the run was recordable and the script, its
  arguments and its folder are still what they were.

A request the broker cannot answer is answered "run it yourself": the client runs the script in the test's box,
unrecorded. Not covered: a test binary racing its own data files from another thread while the broker's box reads
them (between the digest of a read and the read itself).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import hmac
import json
import os
import re
import secrets
import select
import shutil
import stat
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from akgen_lsp.sim.build_cache import SYSTEM_ROOTS

PYRUN = Path(__file__).with_name("ut_pyrun.py")
MAX_BYTES = 64 << 20  # a read larger than this is never hashed (the record is not replayed)
_REPLY = re.compile(r"^reply-[A-Za-z0-9_.-]{1,64}$")
# (argv, cwd, staging) -> an object with .returncode, .output (the box's Confined result)
RunScript = Callable[[Sequence[str], Path, Path], Any]


def seal_key(base: Path) -> bytes:
    """The user's key of the records' seals (`<cache>/ut-scripts.key`, 0600; the boxes see only `<cache>/sim`)."""
    path = base / "ut-scripts.key"
    with contextlib.suppress(FileExistsError):
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "wb") as fh:
            fh.write(secrets.token_bytes(32))
    data = path.read_bytes()
    if len(data) < 32:
        raise OSError(f"{path} is not a seal key: remove it and it is made again")
    return data


def digest(path: str, roots: Sequence[str] = ()) -> str | None:
    """The content hash of a regular file (following links) that lies under one of `roots` (the box's view;
    none: anywhere); None when it is missing, not a regular file, too large or outside them."""
    try:
        real = os.path.realpath(path)
        if roots and not any(real == r or real.startswith(r.rstrip(os.sep) + os.sep) for r in roots):
            return None
        st = os.stat(real)
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_BYTES:
            return None
        h = hashlib.sha256()
        with open(real, "rb") as fh:
            for chunk in iter(lambda: fh.read(1 << 20), b""):
                h.update(chunk)
        return h.hexdigest()
    except OSError:
        return None


def listing(folder: str) -> list[list[Any]]:
    """The names and sizes (-1: not a regular file) of a folder's entries."""
    out: list[list[Any]] = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return [["?unreadable"]]
    for e in entries:
        try:
            out.append([e.name, e.stat().st_size if e.is_file() else -1])
        except OSError:
            out.append([e.name, -2])
    return sorted(out)


def record_key(python: str, script: str, args: Sequence[str], cwd: str, roots: Sequence[str]) -> str | None:
    """The key of a script's run; None when the script is not a readable file in the box's view."""
    body = digest(script, roots)
    if body is None:
        return None
    try:
        st = os.stat(python)
        exe = f"{os.path.realpath(python)}|{st.st_size}|{st.st_mtime_ns}"
    except OSError:
        exe = python
    h = hashlib.sha256()
    for part in (exe, script, body, json.dumps(list(args)), cwd, json.dumps(listing(cwd))):
        h.update(part.encode("utf-8", "surrogateescape"))
        h.update(b"\0")
    return h.hexdigest()[:32]


def _mac(key: bytes, record: bytes) -> str:
    return hmac.new(key, record, hashlib.sha256).hexdigest()


def sealed_record(entry: Path, key: bytes) -> dict[str, Any] | None:
    """The record of a store entry when its seal is the user's and its files are the ones recorded; else None."""
    try:
        raw = (entry / "record.json").read_bytes()
        seal = (entry / "seal").read_text(encoding="ascii").strip()
        if not hmac.compare_digest(seal, _mac(key, raw)):
            return None
        rec = json.loads(raw)
        for blob, want in rec["blobs"].items():
            if not re.fullmatch(r"out\d+", blob) or digest(str(entry / blob)) != want:
                return None
        return rec if isinstance(rec, dict) else None
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        return None


class ScriptBroker:
    """The broker of one test binary's run: `with ScriptBroker(...) as b:` run the box with
    AKGEN_UT_SCRIPT_BROKER=b.folder in its environment. `store`: the records (never writable in a box); `work`: the
    only folder the boxes write (a record writing elsewhere is not kept); `roots`: the box's view (reads outside it
    are never trusted); `python`: the box's interpreter; `run_script(argv, cwd, staging)`: a box for a script's
    recorded run."""

    def __init__(
        self,
        store: Path,
        work: Path,
        roots: Sequence[Path],
        python: Path,
        run_script: RunScript,
        seal: bytes,
    ) -> None:
        self.store, self.work, self.python, self.run_script, self.seal = store, work, python, run_script, seal
        self.roots = [os.path.realpath(r) for r in (*roots, work, *SYSTEM_ROOTS)]
        self.folder = work / "pyrun"
        self.replayed = self.recorded = self.ran = 0
        self._wake_r, self._wake_w = -1, -1
        self._thread: threading.Thread | None = None

    def __enter__(self) -> ScriptBroker:
        shutil.rmtree(self.folder, ignore_errors=True)
        self.folder.mkdir(parents=True)
        self.store.mkdir(parents=True, exist_ok=True)
        os.mkfifo(self.folder / "requests", 0o600)
        # read and write: the FIFO never reads as ended while no client has it open
        self._fifo = os.open(self.folder / "requests", os.O_RDWR | os.O_NONBLOCK)
        self._wake_r, self._wake_w = os.pipe()
        self._thread = threading.Thread(target=self._serve, name="ut-script-broker", daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        os.write(self._wake_w, b"x")
        if self._thread is not None:
            self._thread.join(timeout=10)  # only a client that never reads its answer keeps it
        for fd in (self._fifo, self._wake_r, self._wake_w):
            with contextlib.suppress(OSError):
                os.close(fd)

    def _serve(self) -> None:
        buf = b""
        while True:
            ready, _, _ = select.select([self._fifo, self._wake_r], [], [])
            if self._wake_r in ready:
                return
            try:
                buf += os.read(self._fifo, 65536)
            except BlockingIOError:
                continue
            while b"\n" in buf:
                line, buf = buf.split(b"\n", 1)
                self._answer(line)
            buf = buf[-65536:]  # what never ends a line is junk

    def _answer(self, line: bytes) -> None:
        """One request: `REPLYNAME SCRIPT CWD ARGS...`, each but the name hex-encoded ("-": empty)."""
        try:
            words = line.decode("ascii").split(" ")
            name = words[0]
            script, cwd, *args = (_text(w) for w in words[1:])
        except (UnicodeDecodeError, ValueError):
            return
        if not _REPLY.match(name):
            return
        reply = self.folder / name
        try:
            if not stat.S_ISFIFO(os.lstat(reply).st_mode):
                return
        except OSError:
            return
        try:
            answer = self._decide(script, args, cwd)
        except Exception:  # any failure of ours: the client runs the script itself
            answer = "L"
        self._send(reply, (answer + "\n").encode("ascii"))

    def _decide(self, script: str, args: list[str], cwd: str) -> str:
        """The answer: `R RC STDOUT STDERR ENTRY [PATH BLOB]...` (replay a sealed record), `S RC STDOUT STDERR` (the
        broker's box ran it) or `L` (run it yourself); hex-encoded, "-" for empty."""
        if not (os.path.isabs(script) and os.path.isabs(cwd) and os.path.isdir(cwd)):
            return "L"  # not a script run in the box's view
        key = record_key(str(self.python), script, args, cwd, self.roots)
        if key is None:
            return "L"  # the script is not a file in the box's view
        entry = self.store / key
        rec = sealed_record(entry, self.seal)
        if rec is not None and all(digest(p, self.roots) == d for p, d in rec["reads"].items()):
            self.replayed += 1
            files = [w for path, blob in rec["writes"].items() for w in (_hex(path), blob)]
            return " ".join(
                [
                    "R",
                    str(int(rec["rc"])),
                    bytes.fromhex(rec["stdout"]).hex() or "-",
                    bytes.fromhex(rec["stderr"]).hex() or "-",
                    _hex(str(entry)),
                    *files,
                ]
            )
        return self._record(script, args, cwd, key, entry)

    def _record(self, script: str, args: list[str], cwd: str, key: str, entry: Path) -> str:
        staging = self.store / f".staging-{secrets.token_hex(8)}"
        staging.mkdir()
        try:
            out = self.run_script(
                [str(self.python), str(PYRUN), "--record", str(staging), script, *args], Path(cwd), staging
            )
            self.ran += 1
            try:
                rec = json.loads((staging / "record.json").read_text(encoding="utf-8"))
                rc, stdout, stderr = int(rec["rc"]), str(rec["stdout"]), str(rec["stderr"])
            except (OSError, ValueError, KeyError, TypeError):
                # the box ended before the record (a timeout, a kill): what it printed, its status
                said = getattr(out, "output", "").encode("utf-8", "replace").hex() or "-"
                return f"S {int(getattr(out, 'returncode', 1) or 1)} - {said}"
            if (
                self._keepable(rec, staging)
                and record_key(str(self.python), script, args, cwd, self.roots) == key
            ):
                raw = (staging / "record.json").read_bytes()
                (staging / "seal").write_text(_mac(self.seal, raw), encoding="ascii")
                if entry.exists():
                    shutil.rmtree(entry, ignore_errors=True)
                with contextlib.suppress(OSError):
                    os.rename(staging, entry)
                    self.recorded += 1
            return f"S {rc} {bytes.fromhex(stdout).hex() or '-'} {bytes.fromhex(stderr).hex() or '-'}"
        finally:
            shutil.rmtree(staging, ignore_errors=True)

    def _keepable(self, rec: dict[str, Any], staging: Path) -> bool:
        """A record worth sealing: a run the recorder could see whole, whose files are all in the work folder and
        whose reads were all in the box's view."""
        if not rec.get("cacheable") or not isinstance(rec.get("reads"), dict):
            return False
        work = os.path.realpath(self.work) + os.sep
        writes, blobs = rec.get("writes"), rec.get("blobs")
        if not isinstance(writes, dict) or not isinstance(blobs, dict) or set(writes.values()) != set(blobs):
            return False
        for path in writes:
            if not os.path.realpath(os.path.dirname(path) or "/").startswith(work.rstrip(os.sep)):
                return False
        for blob, want in blobs.items():
            if not re.fullmatch(r"out\d+", blob) or digest(str(staging / blob)) != want:
                return False
        return all(digest(p, self.roots) == d for p, d in rec["reads"].items())

    def _send(self, reply: Path, data: bytes) -> None:
        deadline = time.monotonic() + 10
        while True:
            try:
                fd = os.open(reply, os.O_WRONLY | os.O_NONBLOCK)
                break
            except OSError as exc:
                if exc.errno != errno.ENXIO or time.monotonic() > deadline:
                    return  # the client went away
                time.sleep(0.001)
        try:
            fcntl.fcntl(fd, fcntl.F_SETFL, fcntl.fcntl(fd, fcntl.F_GETFL) & ~os.O_NONBLOCK)
            _write_all(fd, data)
        except OSError:
            pass
        finally:
            os.close(fd)


def _hex(text: str) -> str:
    return text.encode("utf-8", "surrogateescape").hex() or "-"


def _text(word: str) -> str:
    return "" if word == "-" else bytes.fromhex(word).decode("utf-8", "surrogateescape")


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view) :]
