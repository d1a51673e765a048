"""Run a command in a box: `run_confined(argv, policy) -> Confined`.

With the sandbox on (`sim.sandbox = "on"`, the default), the command runs under bubblewrap: new user, mount, pid,
network, IPC, UTS and cgroup namespaces; no capabilities; a fresh session (no controlling terminal) and stdin
/dev/null; a clear environment (only `policy.env`, plus a PATH for the compiler profiles); a read-only view of the
profile's part of the system and of `policy.read_only`, `policy.writable` read-write, a private /tmp (a tmpfs with a
size), /dev with only null (and urandom for the profiles that run code); /proc of its own pid namespace; the profile's seccomp filter
(seccomp_filter.py) and the rlimits (address space, CPU, file size, open files, no core files) set on the box's
first process before it execs the command (bwrap waits on `--block-fd` while they are set), so no code of the
command runs outside them. `--die-with-parent` chains SIGKILL from the caller to bwrap to the box's init, whose death
ends every process of the pid namespace: killing the caller (a cancelled check) or the wall-clock timeout leaves no
process behind, orphaned compiler children included. The combined stdout/stderr is read as it comes and capped
(capture.py).

With the sandbox off (explicitly), only the wall-clock timeout (the process group killed), stdin /dev/null, the
environment and the output cap apply. Where the sandbox is on but cannot start, `SandboxUnavailable` says why and how
to fix it; nothing runs.
"""

from __future__ import annotations

import contextlib
import json
import os
import resource
import selectors
import signal
import subprocess
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from akgen_lsp.sandbox.capture import CappedOutput
from akgen_lsp.sandbox.mode import bwrap_path, require, sandbox_mode
from akgen_lsp.sandbox.policy import ISOLATION, RUNTIME_PROFILES, Policy, existing, system_mounts
from akgen_lsp.sandbox.seccomp_filter import filter_fd

NAMESPACES = ("user", "mount", "pid", "net", "ipc", "uts", "cgroup")
_SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin"


@dataclass
class Confined:
    """What a boxed command did. `returncode` is the command's exit status; `signal` the signal that ended it, when
    one did (under bwrap an exit status of 128 + N is read as signal N, as a shell does); `output` the combined
    stdout/stderr, capped (`dropped` bytes were left out); `timed_out` when the wall clock ran out and the tree was
    killed. `sandbox` is what was in force, as the trusted side set it up."""

    returncode: int
    output: str
    dropped: int
    timed_out: bool
    wall_s: float
    signal: int | None = None
    sandbox: dict[str, Any] = field(default_factory=dict)
    start_s: float = 0.0  # from the call to the box's first process released (bwrap's setup), for benchmarks
    disk_exceeded: bool = False  # killed: the run took more than `Limits.disk_bytes` of the disk


POLL_S = 0.02  # how often a run's disk use is looked at: a writer at 2 GB/s passes the bound by about 40 MB


class DiskWatch:
    """How much of the disk a run takes: the drop of the free space of the file systems of its writable folders
    since the start (one `statvfs` each; other writers on the same file system count too, so a bound errs on the
    safe side). `over()` is True once one dropped by more than `limit` bytes."""

    def __init__(self, folders: Sequence[Path], limit: int) -> None:
        self.limit = limit
        self.exceeded = False
        self.base: dict[int, tuple[Path, int]] = {}
        for folder in existing(list(folders)):
            with contextlib.suppress(OSError):
                self.base.setdefault(os.stat(folder).st_dev, (folder, self._free(folder)))
        self.next = 0.0

    @staticmethod
    def _free(folder: Path) -> int:
        st = os.statvfs(folder)
        return st.f_bavail * st.f_frsize

    def over(self) -> bool:
        now = time.monotonic()
        if self.exceeded or now < self.next:
            return self.exceeded
        self.next = now + POLL_S
        for folder, free in self.base.values():
            with contextlib.suppress(OSError):
                if free - self._free(folder) > self.limit:
                    self.exceeded = True
        return self.exceeded


def _watch(policy: Policy) -> DiskWatch | None:
    lim = policy.limits.disk_bytes
    return DiskWatch(list(policy.writable), lim) if lim and policy.writable else None


def run_confined(
    argv: Sequence[str], policy: Policy, *, mode: str | None = None, extra_system: Sequence[Path] = ()
) -> Confined:
    """Run `argv` under `policy`. `mode`: "on" / "off" (None: `sandbox_mode()`). `extra_system`: system folders
    outside the usual view that the command itself lives in (a compiler under /opt)."""
    mode = mode or sandbox_mode()
    if mode == "off":
        return _run_unconfined(argv, policy)
    require()
    return _run_bwrap(argv, policy, extra_system)


def _limits(policy: Policy) -> list[tuple[int, tuple[int, int]]]:
    """The rlimits of the box's first process, none above what this process may hand on (its own hard limits)."""
    return [(res, _within(res, value)) for res, value in _wanted(policy)]


def _within(res: int, value: tuple[int, int]) -> tuple[int, int]:
    hard = resource.getrlimit(res)[1]
    if hard == resource.RLIM_INFINITY:
        return value
    return min(value[0], hard), min(value[1], hard)


def _wanted(policy: Policy) -> list[tuple[int, tuple[int, int]]]:
    lim = policy.limits
    out: list[tuple[int, tuple[int, int]]] = [
        (resource.RLIMIT_CORE, (0, 0)),
        (resource.RLIMIT_NOFILE, (lim.nofile, lim.nofile)),
    ]
    if lim.cpu_s:
        cpu = max(1, int(lim.cpu_s + 0.999))
        out.append((resource.RLIMIT_CPU, (cpu, cpu + 2)))  # the soft limit sends SIGXCPU first (reported)
    if lim.as_bytes:
        out.append((resource.RLIMIT_AS, (lim.as_bytes, lim.as_bytes)))
    fsize = (
        min(x for x in (lim.fsize_bytes, lim.disk_bytes) if x) if lim.fsize_bytes or lim.disk_bytes else None
    )
    if fsize:  # one file may not pass the run's whole disk bound either (exact, where the watch polls)
        out.append((resource.RLIMIT_FSIZE, (fsize, fsize)))
    if lim.nproc:
        out.append((resource.RLIMIT_NPROC, (lim.nproc, lim.nproc)))
    return out


def _mounts(policy: Policy) -> list[str]:
    """bwrap mount arguments for the policy's folders, parents before children (a writable folder inside a
    read-only one, or the other way round, both show)."""
    items = [(p, "--ro-bind") for p in existing(list(policy.read_only))]
    items += [(p, "--bind") for p in existing(list(policy.writable))]
    items += [(p, "--dev-bind") for p in existing(list(policy.devices))]
    items.sort(key=lambda it: len(it[0].parts))
    args: list[str] = []
    for path, how in items:
        args += [how, str(path), str(path)]
    return args


def describe(policy: Policy, mode: str) -> dict[str, Any]:
    """The sandbox facts of a run, from the side that set it up."""
    lim = policy.limits
    base: dict[str, Any] = {
        "mode": mode,
        "timeout_s": lim.wall_s,
        "stdin": "/dev/null",
        "output_cap_bytes": lim.output_bytes,
    }
    if mode == "off":
        return {
            **base,
            "confinement": "none (sim.sandbox is off)",
            "seccomp": False,
            "namespaces": [],
            "rlimits": False,
            "net_isolated": False,
        }
    return {
        **base,
        "confinement": "bubblewrap",
        "profile": policy.profile,
        "namespaces": list(NAMESPACES),
        "seccomp": True,
        "net_isolated": True,
        "no_new_privs": True,
        "capabilities": "none",
        "rlimits": {
            "cpu_s": lim.cpu_s,
            "as_bytes": lim.as_bytes,
            "fsize_bytes": lim.fsize_bytes,
            "nofile": lim.nofile,
            "nproc": lim.nproc,
            "core": 0,
            "disk_bytes": lim.disk_bytes,
        },
        "filesystem": {
            "read_only": [str(p) for p in existing(list(policy.read_only))],
            "writable": [str(p) for p in existing(list(policy.writable))],
            "system": "libraries only" if policy.profile in RUNTIME_PROFILES else "/usr read-only",
        },
    }


def _run_bwrap(argv: Sequence[str], policy: Policy, extra_system: Sequence[Path]) -> Confined:
    bwrap = bwrap_path()
    assert bwrap is not None  # require() checked
    env = dict(policy.env)
    if policy.profile not in RUNTIME_PROFILES:
        env.setdefault("PATH", _SYSTEM_PATH)
    env.setdefault("LANG", "C")
    seccomp_r = filter_fd(policy.profile)
    block_r, block_w = os.pipe()
    status_r, status_w = os.pipe()
    args = [
        bwrap,
        *ISOLATION,
        "--clearenv",
        *system_mounts(policy.profile, extra_system),
        "--proc",
        "/proc",
        "--dir",
        "/dev",
        "--dev-bind",
        "/dev/null",
        "/dev/null",
        *_random_device(policy.profile),
        "--size",
        str(policy.tmp_bytes),
        "--tmpfs",
        "/tmp",
        *_mounts(policy),
    ]
    for k, v in env.items():
        args += ["--setenv", k, v]
    if policy.cwd is not None:
        args += ["--chdir", str(policy.cwd)]
    args += [
        "--seccomp",
        str(seccomp_r),
        "--block-fd",
        str(block_r),
        "--json-status-fd",
        str(status_w),
        "--",
        *argv,
    ]
    t0 = time.perf_counter()
    try:
        proc = subprocess.Popen(
            args,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            pass_fds=(seccomp_r, block_r, status_w),
            env={"PATH": _SYSTEM_PATH, "LANG": "C"},
        )
    except OSError as exc:
        for fd in (seccomp_r, block_r, block_w, status_r, status_w):
            os.close(fd)
        raise RuntimeError(f"cannot start bwrap: {exc}") from None
    for fd in (seccomp_r, block_r, status_w):
        os.close(fd)
    started = 0.0
    problem = ""
    child: int | None = None
    # closing block_w without writing also releases the box: every way out but the write kills it first
    try:
        child = _child_pid(status_r, proc)
        if child is not None:
            try:
                for res, value in _limits(policy):
                    resource.prlimit(child, res, value)
            except (OSError, ValueError) as exc:
                problem = f"its limits could not be set ({exc})"
                _kill_box(proc, child)  # a box without its limits must not run
                child = None
            else:
                os.write(block_w, b"1")
                started = time.perf_counter() - t0
    except BaseException:
        _kill_box(proc, child)
        raise
    finally:
        os.close(block_w)
    box = child
    watch = _watch(policy)
    out, timed_out = _collect(
        proc,
        policy.limits.wall_s - (time.perf_counter() - t0),
        policy.limits.output_bytes,
        _kill,
        (lambda: _terminate(box)) if box is not None else None,
        watch,
    )
    with contextlib.suppress(OSError):
        os.close(status_r)
    code = proc.returncode
    sig = code - 128 if 128 < code < 128 + 65 else None
    text = out.text()
    if child is None and not timed_out:
        said = text.strip().splitlines()
        why = problem or (said[-1] if said else f"exit status {code}")
        raise RuntimeError(f"the sandbox (bwrap) failed to start: {why}")
    return Confined(
        code,
        text,
        out.dropped,
        timed_out,
        time.perf_counter() - t0,
        sig,
        describe(policy, "on"),
        started,
        bool(watch and watch.exceeded),
    )


def _random_device(profile: str) -> list[str]:
    """/dev/urandom for code that runs (std::random_device, torch), never for a compiler (an endless include)."""
    if profile in RUNTIME_PROFILES and Path("/dev/urandom").exists():
        return ["--dev-bind", "/dev/urandom", "/dev/urandom"]
    return []


def _child_pid(status_r: int, proc: subprocess.Popen[bytes]) -> int | None:
    """The pid of the box's first process, from bwrap's first JSON status line (None when bwrap ended first)."""
    buf = b""
    while b"\n" not in buf:
        chunk = os.read(status_r, 4096)
        if not chunk:
            return None
        buf += chunk
    try:
        return int(json.loads(buf.split(b"\n", 1)[0])["child-pid"])
    except (ValueError, KeyError, TypeError):
        _kill(proc)
        return None


GRACE_S = 1.0  # between SIGTERM to the boxed processes at the time limit and SIGKILL to the box


def _collect(
    proc: subprocess.Popen[bytes],
    timeout_s: float,
    limit: int,
    kill: Callable[[subprocess.Popen[bytes]], None],
    term: Callable[[], None] | None = None,
    watch: DiskWatch | None = None,
) -> tuple[CappedOutput, bool]:
    """Read the child's output until it ends or `timeout_s` passes; then `term` asks the boxed processes to stop
    (SIGTERM: the launcher reports where the kernel was) and, `GRACE_S` later, `kill` ends the tree. The output is
    capped. With `watch`, a run that takes more of the disk than its bound is killed at once (not timed out)."""
    out = CappedOutput(limit)
    deadline = time.monotonic() + max(0.0, timeout_s)
    stage = 0  # 0 running, 1 asked to stop, 2 killed
    assert proc.stdout is not None
    fd = proc.stdout.fileno()
    os.set_blocking(fd, False)
    sel = selectors.DefaultSelector()
    sel.register(fd, selectors.EVENT_READ)
    try:
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                if stage == 0 and term is not None:
                    term()
                    stage, deadline = 1, time.monotonic() + GRACE_S
                elif stage < 2:
                    kill(proc)
                    stage, deadline = 2, time.monotonic() + 5.0  # drain what the dying tree still wrote
                else:
                    break
                continue
            if watch is not None and stage < 2 and watch.over():
                kill(proc)
                stage, deadline = 2, time.monotonic() + 5.0
                continue
            if not sel.select(min(left, 1.0 if watch is None else POLL_S)):
                continue
            try:
                chunk = os.read(fd, 1 << 16)
            except BlockingIOError:
                continue
            if not chunk:
                break
            out.feed(chunk)
    except BaseException:
        kill(proc)  # interrupted (KeyboardInterrupt, a cancelled worker): nothing of the box may keep running
        raise
    finally:
        sel.close()
        proc.stdout.close()
    try:
        proc.wait(timeout=5.0)
    except subprocess.TimeoutExpired:
        kill(proc)
        proc.wait()
    if stage == 1:
        kill(proc)  # the command ended on SIGTERM; anything it left in the box goes with the box
    return out, stage > 0 and not (watch is not None and watch.exceeded)


def _descendants(pid: int) -> list[int]:
    """The processes below `pid` (from /proc; the box's processes are visible from outside its pid namespace)."""
    out: list[int] = []
    todo = [pid]
    while todo and len(out) < 4096:
        p = todo.pop()
        try:
            tasks = os.listdir(f"/proc/{p}/task")
        except OSError:
            continue
        for tid in tasks:
            try:
                kids = [int(k) for k in Path(f"/proc/{p}/task/{tid}/children").read_text().split()]
            except (OSError, ValueError):
                continue
            out += kids
            todo += kids
    return out


def _terminate(child: int) -> None:
    for pid in _descendants(child):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGTERM)


def _kill(proc: subprocess.Popen[bytes]) -> None:
    """SIGKILL the box: bwrap's death reaches its init (die-with-parent), whose death ends the pid namespace."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        proc.kill()


def _kill_box(proc: subprocess.Popen[bytes], child: int | None) -> None:
    if child is not None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(child, signal.SIGKILL)
    _kill(proc)
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=5.0)


def _term_group(proc: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGTERM)


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)


def _run_unconfined(argv: Sequence[str], policy: Policy) -> Confined:
    env: Mapping[str, str] = {"PATH": _SYSTEM_PATH, "LANG": "C", **policy.env}
    t0 = time.perf_counter()
    proc = subprocess.Popen(
        list(argv),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        cwd=policy.cwd,
        env=dict(env),
        start_new_session=True,
    )
    try:
        out, timed_out = _collect(
            proc, policy.limits.wall_s, policy.limits.output_bytes, _kill_group, lambda: _term_group(proc)
        )
    finally:
        _kill_group(proc)  # what the command left running in its group
    code = proc.returncode
    return Confined(
        code,
        out.text(),
        out.dropped,
        timed_out,
        time.perf_counter() - t0,
        -code if code < 0 else None,
        describe(policy, "off"),
    )
