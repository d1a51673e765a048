"""What a boxed run sends back: the launcher's events file (JSON lines), read as untrusted input.

The file lives in the box's writable folder, so the kernel can write anything into it. Everything is therefore
bounded (the bytes read, a line's length, the number of findings, a message's length) and each finding is checked
before a user sees it: its code must be one our headers and launcher emit, its location a line of the kernel's own
files (its sources, the headers beside them or in its include folders, its tiling header) or of our headers, its
severity one of three. Records that fail are dropped and counted, and the run gets one `SIM-UNTRUSTED-EVENTS` error
that says so (a kernel that forges findings does not pass). Verdicts are never read from here: the sim status comes
from the box's exit status and these events, the bench's correctness from the outputs alone.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import signal
import stat
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from akgen_lsp.findings import Finding, Severity, Span
from akgen_lsp.sandbox import Confined
from akgen_lsp.sim.build_cache import headers_hash
from akgen_lsp.sim.compiler import HEADER_SUFFIXES, INCLUDE_DIR, LAUNCHER_SRC

MAX_EVENTS_BYTES = 256 << 20
MAX_LINE_BYTES = 64 << 20  # a block's trace is one line
MAX_FINDINGS = 1000
MAX_TEXT = 4000
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_CODE = re.compile(rb'"(SIM-[A-Z0-9][A-Z0-9-]*)\\?"')
SYSCALL_NAMES = frozenset(
    {
        "open",
        "openat",
        "fork",
        "vfork",
        "clone",
        "clone3",
        "execve",
        "socket",
        "connect",
        "unlink",
        "unlinkat",
        "kill",
        "creat",
        "syscall",
    }
)


@functools.lru_cache(maxsize=4)
def _codes_for(version: str) -> frozenset[str]:
    del version  # the cache key: our headers' hash
    codes: set[str] = set()
    for root in (INCLUDE_DIR, LAUNCHER_SRC.parent):
        for p in root.rglob("*"):
            if p.is_file() and (p.suffix in HEADER_SUFFIXES or p.suffix == ".cpp"):
                codes.update(m.group(1).decode() for m in _CODE.finditer(p.read_bytes()))
    return frozenset(codes)


def known_codes() -> frozenset[str]:
    """The finding codes our C++ side can emit (read from our headers and launcher, once per header version)."""
    return _codes_for(headers_hash())


def open_regular(path: Path) -> int | None:
    """A read-only descriptor of `path` when it is a regular file and not a symlink (the box may have planted one
    pointing at a file of the user's), else None."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return None
    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        return None
    return fd


def read_regular(path: Path, limit: int) -> bytes | None:
    """At most `limit` bytes of a regular file the box wrote (None: missing, a symlink, not a file)."""
    fd = open_regular(path)
    if fd is None:
        return None
    with os.fdopen(fd, "rb") as fh:
        return fh.read(limit)


def write_fresh(path: Path, data: str) -> None:
    """Write a new file where the box may have left something (a symlink to a file of the user's): whatever is
    there is removed first, and the file is created exclusively without following links."""
    with contextlib.suppress(FileNotFoundError, IsADirectoryError):
        os.unlink(path)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(data)


def read_events(path: Path) -> tuple[list[dict[str, Any]], int]:
    """The JSON objects of the events file (at most MAX_EVENTS_BYTES read, lines over MAX_LINE_BYTES skipped) and how
    many lines were not JSON objects or were cut."""
    out: list[dict[str, Any]] = []
    bad = 0
    fd = open_regular(path)
    if fd is None:
        return out, bad
    read = 0
    with os.fdopen(fd, "rb") as fh:
        while read < MAX_EVENTS_BYTES:
            line = fh.readline(MAX_LINE_BYTES)
            if not line:
                break
            read += len(line)
            if not line.endswith(b"\n") and len(line) >= MAX_LINE_BYTES:
                bad += 1
                while line and not line.endswith(b"\n"):  # skip the rest of the over-long line
                    line = fh.readline(MAX_LINE_BYTES)
                    read += len(line)
                continue
            line = line.strip()
            if not line:
                continue
            try:
                ev = json.loads(line)
            except (ValueError, RecursionError):
                bad += 1
                continue
            if isinstance(ev, dict):
                out.append(ev)
            else:
                bad += 1
        if fh.read(1):
            bad += 1
    return out, bad


def _text(value: Any, limit: int = MAX_TEXT) -> str:
    return _CONTROL.sub(" ", str(value))[:limit]


def _int(value: Any, lo: int, hi: int, default: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        return default
    return value if lo <= value <= hi else default


@dataclass
class EventCheck:
    """Checks the records of one run against what the simulator writes. `files`: the kernel's own files (any path
    spelling); `fallback`: where findings without a location go (the kernel's first source, line 1)."""

    files: Sequence[Path]
    fallback: str
    dropped: list[str] = field(default_factory=list)
    findings: int = 0
    _lines: dict[str, int] = field(default_factory=dict)
    _codes: frozenset[str] | None = None  # known_codes(), asked once per run (not once per finding record)

    def __post_init__(self) -> None:
        for f in self.files:
            try:
                self._lines[os.path.realpath(f)] = f.read_bytes().count(b"\n") + 1
            except OSError:
                continue

    def _place(self, file: Any, line: Any, column: Any) -> tuple[str, int, int] | None:
        """(path, line, column) when the location is one the simulator can report, else None."""
        if not file:
            return self.fallback, 1, 1
        if not isinstance(file, str) or len(file) > 4096 or "\0" in file:
            return None
        real = os.path.realpath(file)
        ln = _int(line, 1, 10_000_000, 0)
        col = _int(column, 0, 100_000, 1) or 1
        limit = self._lines.get(real)
        if limit is None:
            inside_ours = INCLUDE_DIR in Path(real).parents
            if not inside_ours:
                return None
            limit = 10_000_000
        if not 1 <= ln <= limit:
            return None
        return file, ln, col

    def reject(self, why: str) -> None:
        self.dropped.append(why)

    def finding(self, ev: dict[str, Any]) -> Finding | None:
        """The finding of a `finding` record, or None (dropped, counted) when it is not one the simulator writes."""
        code = ev.get("code")
        if self._codes is None:
            self._codes = known_codes()
        if not isinstance(code, str) or code not in self._codes:
            self.reject(f"unknown code {_text(code, 40)!r}")
            return None
        where = self._place(ev.get("file"), ev.get("line"), ev.get("column"))
        if where is None:
            self.reject(
                f"{code} at {_text(ev.get('file'), 200)}:{_text(ev.get('line'), 12)}, outside the kernel's "
                "sources"
            )
            return None
        if self.findings >= MAX_FINDINGS:
            self.reject("more findings than the simulator reports")
            return None
        self.findings += 1
        sev = ev.get("severity")
        severity = Severity(sev) if sev in ("error", "warning", "info") else Severity.ERROR
        data: dict[str, Any] = {}
        if "block" in ev:
            data["block"] = _int(ev.get("block"), 0, 1 << 24, 0)
        for k in ("function", "api"):
            if k in ev:
                data[k] = _text(ev[k], 300)
        if "cwe" in ev:  # the CWE id of a memory-safety or concurrency check
            data["cwe"] = _int(ev.get("cwe"), 1, 100_000, 0) or None
        cls = ev.get("error_class")
        return Finding(
            code=code,
            message=_text(ev.get("message", "")),
            span=Span(where[0], where[1], where[2], where[1], where[2]),
            severity=severity,
            source="akgen-run",
            error_class=_text(cls, 40) if isinstance(cls, str) else None,
            data=data,
        )

    def terminal(self, ev: dict[str, Any]) -> dict[str, Any]:
        """A crash / timeout / forbidden record with its fields made safe to show (unknown location: the fallback)."""
        where = self._place(ev.get("file"), ev.get("line"), ev.get("column")) or (self.fallback, 1, 1)
        syscall = ev.get("syscall")
        return {
            "kind": ev.get("kind"),
            "file": where[0],
            "line": where[1],
            "column": where[2],
            "api": _text(ev.get("api") or "", 100),
            "function": _text(ev.get("function") or "", 300),
            "reason": _text(ev.get("reason") or "", 200),
            "block": _int(ev.get("block"), -1, 1 << 24, -1),
            "signal": _int(ev.get("signal"), 0, 128, 0),
            "syscall": syscall if syscall in SYSCALL_NAMES else "",
            "syscall_nr": _int(ev.get("syscall_nr"), -1, 4096, -1),
        }

    def summary(self) -> Finding | None:
        """One error saying what was dropped, when anything was."""
        if not self.dropped:
            return None
        shown = "; ".join(dict.fromkeys(self.dropped[:5]))
        return Finding(
            "SIM-UNTRUSTED-EVENTS",
            f"{len(self.dropped)} record(s) that the kernel process wrote into "
            f"the simulator's result channel were dropped, because the simulator never writes them "
            f"({shown}): code in the kernel wrote there, so this run's findings cannot be trusted",
            Span.point(self.fallback, 1),
            severity=Severity.ERROR,
            source="akgen-run",
            error_class="runtime",
            data={"dropped": len(self.dropped)},
        )


def kernel_files(
    sources: Iterable[Path], dirs: Iterable[Path] = (), extra: Iterable[Path] = ()
) -> list[Path]:
    """The files a kernel's findings may point at: its sources, the headers in their folders and in `dirs`, and
    `extra` (a tiling header)."""
    files = [Path(s) for s in sources] + [Path(e) for e in extra]
    for d in {Path(s).parent for s in sources} | {Path(d) for d in dirs}:
        if d.is_dir():
            files += [p for p in d.iterdir() if p.suffix in HEADER_SUFFIXES and p.is_file()]
    return files


def valid_block(ev: dict[str, Any]) -> bool:
    """A block summary the cost model can read: numbers where it reads numbers."""
    nums = ("cycles", "gm_read", "gm_write", "gm_scalar_read", "gm_scalar_write", "ub_used", "wall_us")
    busy = ev.get("busy")
    return (
        isinstance(ev.get("block"), int)
        and all(isinstance(ev.get(k, 0), (int, float)) for k in nums)
        and isinstance(busy, dict)
        and len(busy) <= 16
        and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in busy.values())
    )


_CRASH_CODE = {"crash": "SIM-CRASH", "timeout": "SIM-TIMEOUT", "forbidden": "SIM-SANDBOX"}


def crash_finding(ev: dict[str, Any]) -> Finding:
    """The finding of a terminal record made safe by `EventCheck.terminal`."""
    kind = ev.get("kind", "crash")
    api = ev.get("api") or ""
    where = f" after the last API call ({api}) here" if api else " (no API call was made before it)"
    if kind == "forbidden":
        sc = ev.get("syscall") or f"#{ev.get('syscall_nr')}"
        msg = (
            f"the kernel made a forbidden system call ({sc}): device code may not open files, start processes "
            f"or use the network; the sandbox stopped it{where}"
        )
    elif kind == "timeout":
        msg = f"the kernel ran out of time: {ev.get('reason', '')}; stopped{where}"
    else:
        msg = f"the kernel crashed with {ev.get('reason') or 'a signal'}{where}"
    blk = ev.get("block", -1)
    if isinstance(blk, int) and blk >= 0:
        msg += f" [block {blk}]"
    data = {
        k: ev[k] for k in ("block", "signal", "syscall", "function", "api") if ev.get(k) not in (None, "", -1)
    }
    return Finding(
        code=_CRASH_CODE.get(kind, "SIM-CRASH"),
        message=msg,
        span=Span(ev["file"], ev["line"], ev["column"], ev["line"], ev["column"]),
        severity=Severity.ERROR,
        source="akgen-run",
        error_class="runtime",
        data=data,
    )


def dedupe(findings: list[Finding]) -> list[Finding]:
    """The same check at the same line in many blocks is one finding listing the blocks."""
    seen: dict[tuple[str, str, int, str, str], int] = {}
    out: list[Finding] = []
    for f in findings:
        # severity is part of the key: npu mode warns for a CPU-debug check at a line where the physical bound check
        # of the same code can fail in another block
        key = (f.code, f.span.path, f.span.line, f.message if "block" not in f.data else "", f.severity.value)
        blk = f.data.get("block")
        if key in seen:
            prev = out[seen[key]]
            blocks = list(prev.data.get("blocks", []))
            if blk is not None and blk not in blocks:
                blocks.append(blk)
            out[seen[key]] = Finding(
                prev.code,
                prev.message,
                prev.span,
                prev.severity,
                prev.source,
                prev.error_class,
                prev.fixes,
                {**prev.data, "blocks": blocks},
            )
            continue
        seen[key] = len(out)
        data = dict(f.data)
        if blk is not None:
            data["blocks"] = [blk]
        out.append(Finding(f.code, f.message, f.span, f.severity, f.source, f.error_class, f.fixes, data))
    return out


def box_outcome(
    res: Confined,
    terminal: dict[str, Any] | None,
    setup_failed: bool,
    fallback: str,
    what: str = "kernel",
    exit_is_crash: bool = True,
) -> tuple[str, Finding | None]:
    """The run's status and its terminal finding, decided on the trusted side: the box's exit status and signal
    (under bwrap), the wall clock, and the launcher's own crash record (made safe) for the location. A plain non-zero
    exit status is a crash of the launcher unless `exit_is_crash` is False (a program's main may return it: the
    caller says so)."""
    if res.disk_exceeded:  # killed from outside: whatever the launcher recorded last, this is why it ended
        bound = (res.sandbox.get("rlimits") or {}).get("disk_bytes") or 0
        return "runtime_error", Finding(
            "SIM-DISK",
            f"the {what} wrote more than {bound >> 20} MiB to the disk in all (its working and run "
            "folders) and was stopped with every process it started; write less, or write to memory",
            Span.point(fallback, 1),
            severity=Severity.ERROR,
            source="akgen-run",
            error_class="runtime",
            data={"disk_bytes": bound},
        )
    if terminal is not None:
        status = {"crash": "crash", "timeout": "timeout", "forbidden": "runtime_error"}.get(
            terminal["kind"], "crash"
        )
        return status, crash_finding(terminal)
    here = Span.point(fallback, 1)
    if res.timed_out:
        return "timeout", Finding(
            "SIM-TIMEOUT",
            f"the {what} did not finish within {res.sandbox.get('timeout_s', 0):g}"
            " s (wall clock); it was stopped with every process it started",
            here,
            severity=Severity.ERROR,
            source="akgen-run",
            error_class="runtime",
        )
    if res.signal == signal.SIGSYS:
        return "runtime_error", Finding(
            "SIM-SANDBOX",
            f"the {what} made a system call the sandbox forbids (starting a process, a socket, "
            "another process's memory or limits, the terminal, namespaces or mounts) and the sandbox stopped it, "
            "where the simulator could not say which call or where: before the simulator had started (a "
            f"constructor, .preinit_array entry or ifunc resolver of the {what}'s code) or with signals blocked",
            here,
            severity=Severity.ERROR,
            source="akgen-run",
            error_class="runtime",
            data={"signal": int(signal.SIGSYS)},
        )
    if res.signal:
        try:
            name = signal.Signals(res.signal).name
        except ValueError:
            name = f"signal {res.signal}"
        return "crash", Finding(
            "SIM-CRASH",
            f"the {what} process ended abnormally ({name})",
            here,
            severity=Severity.ERROR,
            source="akgen-run",
            error_class="runtime",
        )
    if res.returncode != 0 and exit_is_crash:
        if setup_failed:
            return "runtime_error", None
        return "crash", Finding(
            "SIM-CRASH",
            f"the {what} process ended abnormally (exit status {res.returncode})",
            here,
            severity=Severity.ERROR,
            source="akgen-run",
            error_class="runtime",
        )
    return "ok", None


def unfinished(fallback: str, what: str = "kernel") -> Finding:
    """A run that exited 0 without the launcher's end-of-run record: code in the box ended the process early."""
    return Finding(
        "SIM-CRASH",
        f"the {what} process exited before the simulator finished the run (no end-of-run "
        "record): code in the kernel ended the process",
        Span.point(fallback, 1),
        severity=Severity.ERROR,
        source="akgen-run",
        error_class="runtime",
    )
