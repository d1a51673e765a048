"""The Python of a kernel unit test's data scripts in the box (op_test.py's shim runs `python -S ut_pyrun.py SCRIPT
ARGS...`; the standard library only, so a replay costs an interpreter start without site-packages or NumPy).

Client (in the test's box, $AKGEN_UT_SCRIPT_BROKER set): the script's run is asked of the broker outside the box
(ut_broker.py), which answers with a sealed record to replay (this writes the files the run wrote and prints what
it printed, with its exit status), with the outcome of a run it made in a box of its own, or with "run it
yourself" (then the script runs here, unrecorded). Unset: the script just runs.

Recorder (`ut_pyrun.py --record STAGING SCRIPT ARGS...`, in the broker's box): runs the script and writes
STAGING/record.json: every file it opened for reading (an audit hook; not the interpreter's own library) with its
content hash, the files it wrote (copied beside), what it printed, its exit status, and whether the run can be
replayed: a run that starts a process, removes, renames or changes the mode of a file, calls through ctypes or
opens a socket cannot, nor one that wrote more than 64 MiB. A script that draws unseeded random numbers gets the
numbers of its recorded run again.
"""

from __future__ import annotations

import os
import sys

# the client's path imports nothing more (json, hashlib and typing cost a replay ~20 ms of CPU): the recorder's
# imports are in its functions
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
    """A regular file's content hash; None: missing, unreadable or not a regular file (a device never ends)."""
    import hashlib
    import stat

    try:
        st = os.stat(path)
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_BYTES:
            return None
        h = hashlib.sha256()
        with open(path, "rb") as fh:
            for chunk in iter(lambda: fh.read(1 << 20), b""):
                h.update(chunk)
        return h.hexdigest()
    except OSError:
        return None


def _hex(text: str) -> str:
    return text.encode("utf-8", "surrogateescape").hex() or "-"


def _unhex(token: str) -> bytes:
    return b"" if token == "-" else bytes.fromhex(token)


def _said(rc: str, stdout: str, stderr: str) -> int:
    sys.stdout.buffer.write(_unhex(stdout))
    sys.stderr.buffer.write(_unhex(stderr))
    sys.stdout.flush()
    sys.stderr.flush()
    return int(rc)


def _replay(entry: str, files: list[str]) -> None:
    """Write the files of the record at `entry` (which the broker checked): pairs of a path (hex) and its copy."""
    for path_hex, blob in zip(files[0::2], files[1::2], strict=True):
        path = _unhex(path_hex).decode("utf-8", "surrogateescape")
        with open(os.path.join(entry, os.path.basename(blob)), "rb") as src:
            data = src.read()
        os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
        with open(path, "wb") as dst:
            dst.write(data)


def _record_run(script: str, args: list[str], staging: str) -> int:
    import contextlib
    import io
    import runpy
    import traceback
    from typing import Any

    class Tee(io.TextIOBase):
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

    out, err = Tee(sys.stdout), Tee(sys.stderr)
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
    _store(staging, cacheable, reads, written, rc, out.seen.getvalue(), err.seen.getvalue())
    return rc


def _store(
    staging: str,
    cacheable: bool,
    reads: dict[str, str | None],
    written: list[str],
    rc: int,
    stdout: str,
    stderr: str,
) -> None:
    """STAGING/record.json (and the written files beside it when the run can be replayed)."""
    import json

    writes: dict[str, str] = {}
    blobs: dict[str, str | None] = {}
    try:
        if cacheable and sum(os.path.getsize(p) for p in set(written)) <= MAX_BYTES:
            for i, path in enumerate(dict.fromkeys(written)):
                blob = f"out{i}"
                with open(path, "rb") as src, open(os.path.join(staging, blob), "wb") as dst:
                    dst.write(src.read())
                writes[path], blobs[blob] = blob, _digest(os.path.join(staging, blob))
        else:
            cacheable = False
    except OSError:
        cacheable, writes, blobs = False, {}, {}
    rec = {
        "cacheable": cacheable,
        "reads": reads,
        "writes": writes,
        "blobs": blobs,
        "rc": rc,
        "stdout": stdout.encode("utf-8", "replace").hex(),
        "stderr": stderr.encode("utf-8", "replace").hex(),
    }
    with open(os.path.join(staging, "record.json"), "w", encoding="utf-8") as fh:
        json.dump(rec, fh)


def _ask(broker: str, script: str, args: list[str]) -> list[str] | None:
    """The broker's answer to a run of `script` (its words, ut_broker.py); None when there is no broker to ask."""
    name = f"reply-{os.getpid()}-{os.urandom(6).hex()}"
    reply = os.path.join(broker, name)
    line = (" ".join([name, *(_hex(s) for s in (script, os.getcwd(), *args))]) + "\n").encode()
    if len(line) > 4000:  # one write of a FIFO is whole up to PIPE_BUF only
        return None
    try:
        os.mkfifo(reply, 0o600)
    except OSError:
        return None
    try:
        try:
            fd = os.open(os.path.join(broker, "requests"), os.O_WRONLY | os.O_NONBLOCK)
        except OSError:
            return None  # no broker reads it
        try:
            os.write(fd, line)
        finally:
            os.close(fd)
        with open(reply, "rb") as fh:  # until the broker answers (its box runs the script meanwhile)
            return fh.read().decode("ascii").split() or None
    except (OSError, ValueError):
        return None
    finally:
        try:  # noqa: SIM105 - contextlib's import would cost each replay
            os.unlink(reply)
        except OSError:
            pass


def _python(argv: list[str]) -> None:
    os.execv(sys.executable, [sys.executable, *argv])  # with site-packages (the shim started us with -S)


def main() -> int:
    argv = sys.argv[1:]
    if len(argv) >= 3 and argv[0] == "--record":  # in the broker's box
        if sys.flags.no_site:
            import site

            site.main()
        return _record_run(os.path.abspath(argv[2]), argv[3:], argv[1])
    broker = os.environ.get("AKGEN_UT_SCRIPT_BROKER")
    if (
        not broker
        or not argv
        or argv[0].startswith("-")
        or not argv[0].endswith(".py")
        or not os.path.isfile(argv[0])
    ):
        _python(argv)  # not a script run the broker knows: python itself
    words = _ask(broker, os.path.abspath(argv[0]), argv[1:])  # type: ignore[arg-type]
    try:
        if words and words[0] == "R" and len(words) >= 5:  # a sealed record: its files, its output
            _replay(_unhex(words[4]).decode("utf-8", "surrogateescape"), words[5:])
            return _said(*words[1:4])
        if words and words[0] == "S" and len(words) == 4:  # the broker's box ran it
            return _said(*words[1:4])
    except (OSError, ValueError):
        pass
    _python(argv)  # no broker, or it says so: the script runs here, unrecorded
    return 1


if __name__ == "__main__":
    sys.exit(main())
