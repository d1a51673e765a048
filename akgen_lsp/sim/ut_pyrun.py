"""The Python of a kernel unit test's data scripts, with their results reused (op_test.py's shim runs
`python ut_pyrun.py SCRIPT ARGS...` in the box; the standard library only, so a reuse costs an interpreter start
and no NumPy import).

A script's run is recorded, and replayed instead of run again, when it is the same script (path and content) with
the same arguments, from the same folder holding the same file names and sizes, and every file it opened for reading
(recorded by an audit hook: data files, its own helper modules; not the interpreter's own library) still has the
content it had. The replay writes the files the run wrote and prints what it printed, with its exit status. A run
that starts a process, removes, renames or changes the mode of a file, or opens a socket is never recorded, nor one
that wrote more than 64 MiB. A script that draws unseeded random numbers gets the numbers of its recorded run again.

    AKGEN_UT_SCRIPT_CACHE   the folder of the records (in the operator's work folder); unset: the script just runs
"""

from __future__ import annotations

import contextlib
import hashlib
import io
import json
import os
import runpy
import shutil
import sys
import traceback
from typing import Any

MAX_BYTES = 64 << 20
# what a recorded run may not do (loading a library, as NumPy's import does with ctypes, is fine; calling into one
# through ctypes is not)
_UNSAFE = (
    "subprocess.",
    "os.system",
    "os.exec",
    "os.spawn",
    "os.posix_spawn",
    "os.fork",
    "os.remove",
    "os.rename",
    "os.rmdir",
    "os.chmod",
    "os.chown",
    "os.truncate",
    "os.link",
    "os.symlink",
    "shutil.",
    "socket.",
    "ctypes.call_function",
    "ctypes.cdata",
    "os.kill",
)
_WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC


def _digest(path: str) -> str | None:
    try:
        h = hashlib.sha256()
        with open(path, "rb") as fh:
            for chunk in iter(lambda: fh.read(1 << 20), b""):
                h.update(chunk)
        return h.hexdigest()
    except OSError:
        return None


def _listing(folder: str) -> list[list[Any]]:
    try:
        return sorted([e.name, e.stat().st_size if e.is_file() else -1] for e in os.scandir(folder))
    except OSError:
        return []


def _key(script: str, args: list[str]) -> str:
    h = hashlib.sha256()
    for part in (
        sys.executable,
        sys.version,
        script,
        _digest(script) or "",
        json.dumps(args),
        os.getcwd(),
        json.dumps(_listing(os.getcwd())),
    ):
        h.update(part.encode("utf-8", "surrogateescape"))
        h.update(b"\0")
    return h.hexdigest()[:32]


def _replay(entry: str) -> int | None:
    try:
        with open(os.path.join(entry, "record.json"), encoding="utf-8") as fh:
            rec = json.load(fh)
    except (OSError, ValueError):
        return None
    if any(_digest(p) != d for p, d in rec["reads"].items()):
        return None
    for path, blob in rec["writes"].items():
        with open(os.path.join(entry, blob), "rb") as src:
            data = src.read()
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        with open(path, "wb") as dst:
            dst.write(data)
    sys.stdout.buffer.write(bytes.fromhex(rec["stdout"]))
    sys.stderr.buffer.write(bytes.fromhex(rec["stderr"]))
    sys.stdout.flush()
    sys.stderr.flush()
    return int(rec["rc"])


class _Tee(io.TextIOBase):
    def __init__(self, real: Any) -> None:
        self.real, self.seen = real, io.StringIO()

    def write(self, s: str) -> int:
        self.seen.write(s)
        return self.real.write(s)

    def flush(self) -> None:
        self.real.flush()

    @property
    def encoding(self) -> str:  # type: ignore[override]
        return getattr(self.real, "encoding", "utf-8")

    def isatty(self) -> bool:
        return False

    def fileno(self) -> int:
        return self.real.fileno()


def _record_run(script: str, args: list[str], entry: str) -> int:
    own = tuple(
        os.path.realpath(p) + os.sep
        for p in {sys.prefix, sys.base_prefix, sys.exec_prefix, sys.base_exec_prefix}
    )
    reads: dict[str, str | None] = {}
    written: list[str] = []
    state = {"ok": True, "busy": False}

    def hook(event: str, hargs: tuple[Any, ...]) -> None:
        if not state["ok"] or state["busy"]:
            return
        if event == "open":
            path, mode, flags = [*hargs, None, None, 0][:3]
            if not isinstance(path, str | bytes):
                return  # a file descriptor
            path = os.path.abspath(os.fsdecode(path))
            writes = (isinstance(mode, str) and any(c in mode for c in "wax+")) or bool(
                (flags or 0) & _WRITE_FLAGS
            )
            if writes:
                written.append(path)
            elif path not in written and path not in reads and not os.path.realpath(path).startswith(own):
                state["busy"] = True  # the hash's own open is not the script's
                try:
                    reads[path] = _digest(path)
                finally:
                    state["busy"] = False
        elif event.startswith(_UNSAFE):
            state["ok"] = False

    out, err = _Tee(sys.stdout), _Tee(sys.stderr)
    sys.stdout, sys.stderr = out, err  # type: ignore[assignment]
    sys.argv = [script, *args]
    sys.path[0] = os.path.dirname(script)
    sys.addaudithook(hook)
    rc = 0
    try:
        runpy.run_path(script, run_name="__main__")
    except SystemExit as exc:
        code = exc.code
        rc = code if isinstance(code, int) else (0 if code is None else 1)
        if code is not None and not isinstance(code, int):
            print(code, file=sys.stderr)
    except BaseException:  # what python would do: the traceback, exit status 1
        traceback.print_exc()
        rc = 1
    with contextlib.suppress(Exception):
        sys.stdout.flush()
        sys.stderr.flush()
    cacheable, state["ok"] = state["ok"], False  # what follows is ours: the hook stops recording
    if cacheable:
        _store(entry, reads, written, rc, out.seen.getvalue(), err.seen.getvalue())
    return rc


def _store(
    entry: str, reads: dict[str, str | None], written: list[str], rc: int, stdout: str, stderr: str
) -> bool:
    try:
        total = sum(os.path.getsize(p) for p in set(written))
        if total > MAX_BYTES:
            return False
        tmp = f"{entry}.tmp{os.getpid()}"
        os.makedirs(tmp, exist_ok=True)
        writes = {}
        for i, path in enumerate(dict.fromkeys(written)):
            blob = f"out{i}"
            with open(path, "rb") as src, open(os.path.join(tmp, blob), "wb") as dst:
                dst.write(src.read())
            writes[path] = blob
        rec = {
            "reads": reads,
            "writes": writes,
            "rc": rc,
            "stdout": stdout.encode("utf-8", "replace").hex(),
            "stderr": stderr.encode("utf-8", "replace").hex(),
        }
        with open(os.path.join(tmp, "record.json"), "w", encoding="utf-8") as fh:
            json.dump(rec, fh)
        if os.path.isdir(entry):
            shutil.rmtree(entry, ignore_errors=True)
        os.rename(tmp, entry)
        return True
    except OSError:
        return False


def main() -> int:
    argv = sys.argv[1:]
    cache = os.environ.get("AKGEN_UT_SCRIPT_CACHE")
    if (
        not cache
        or not argv
        or argv[0].startswith("-")
        or not argv[0].endswith(".py")
        or not os.path.isfile(argv[0])
    ):
        os.execv(sys.executable, [sys.executable, *argv])  # not a script run this cache knows: python itself
    script = os.path.abspath(argv[0])
    entry = os.path.join(cache, _key(script, argv[1:]))
    rc = _replay(entry)
    if rc is not None:
        return rc
    return _record_run(script, argv[1:], entry)


if __name__ == "__main__":
    sys.exit(main())
