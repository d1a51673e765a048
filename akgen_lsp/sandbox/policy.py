"""What one box gets: a profile (which system calls and which part of the system it sees), the folders it may read
and write (each mounted at its own path, so paths in diagnostics and findings stay the user's), limits, environment.

Profiles:
- ``compiler``: the compiler on untrusted source, and trusted tools (cann's build.sh, cmake) on an untrusted
  project: processes and exec allowed (g++ runs cc1plus, as, ld), the system's /usr read-only;
- ``kernel`` (a sim kernel), ``host`` (an op_host TilingFunc runner), ``program`` (a run-program host with its
  kernels): no new processes (threads only), no exec after the first, only the system's libraries, nothing of
  /usr/bin;
- ``tool``: like compiler, and sockets are allowed (the cann NPU runner's Python talks to the NPU driver).
"""

from __future__ import annotations

import functools
import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

PROFILES = ("compiler", "kernel", "host", "program", "tool")
RUNTIME_PROFILES = ("kernel", "host", "program")

MiB = 1 << 20
GiB = 1 << 30
RUN_DISK_BYTES = 4 * GiB  # what one run (a kernel, a program, task code) may write to the disk in all


@dataclass(frozen=True)
class Limits:
    """Resource limits of a box: wall clock (the whole process tree is killed past it), CPU seconds per process,
    address space, file size, open files and processes/threads (rlimits set before anything in the box runs), and how
    much of the combined stdout/stderr is kept (the first and the last `output_bytes` each; what lies between is
    counted). `disk_bytes` bounds what the run may write to the disk in all (`fsize_bytes` is per file). `nproc` bounds the box's processes and threads together: the box has its own user namespace, where the
    kernel (5.14+) counts RLIMIT_NPROC apart from the user's other processes, so a kernel that spawns threads without
    end stops at it, not at the machine's pid limit."""

    wall_s: float
    cpu_s: float | None = None
    as_bytes: int | None = 8 * GiB
    fsize_bytes: int | None = 1 * GiB
    nofile: int = 1024
    output_bytes: int = 1 * MiB
    nproc: int | None = 256
    # the most the run may take of the disk: the free space of the file systems of `Policy.writable` may drop by at
    # most this much while it runs (checked 50 times a second; the box is killed past it: `Confined.disk_exceeded`);
    # no one file may pass it either (RLIMIT_FSIZE)
    disk_bytes: int | None = None


@dataclass(frozen=True)
class Policy:
    profile: str
    limits: Limits
    read_only: Sequence[Path] = ()
    writable: Sequence[Path] = ()
    devices: Sequence[Path] = ()
    cwd: Path | None = None
    env: Mapping[str, str] = field(default_factory=dict)
    tmp_bytes: int = 512 * MiB  # the box's own /tmp (a tmpfs)

    def __post_init__(self) -> None:
        if self.profile not in PROFILES:
            raise ValueError(f"unknown sandbox profile {self.profile!r}; one of {', '.join(PROFILES)}")


# The parts of / a box may see, by profile. Top-level symlinks (merged /usr: /bin -> usr/bin) are recreated as links.
_COMPILER_VIEW = (
    "/usr",
    "/bin",
    "/sbin",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/etc/alternatives",
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
)
_RUNTIME_VIEW = (
    "/usr/lib",
    "/usr/lib32",
    "/usr/lib64",
    "/usr/libx32",
    "/lib",
    "/lib32",
    "/lib64",
    "/libx32",
    "/etc/ld.so.cache",
)


# bwrap's isolation of every box (and of the probe that tells whether boxes work here): new namespaces of every
# kind, no user namespace inside, killed with its parent, its own session (no TIOCSTI into the terminal), no
# capabilities
ISOLATION = (
    "--unshare-all",
    "--unshare-user",
    "--disable-userns",
    "--die-with-parent",
    "--new-session",
    "--cap-drop",
    "ALL",
)


def system_mounts(profile: str, extra: Sequence[Path] = ()) -> list[str]:
    """bwrap arguments that show the profile's part of the system read-only (`extra`: more system folders, such as a
    compiler installed outside /usr). The system's layout is read once per process (every box of a check asks)."""
    return list(_system_mounts(profile, tuple(str(p) for p in extra)))


@functools.lru_cache(maxsize=32)
def _system_mounts(profile: str, extra: tuple[str, ...]) -> tuple[str, ...]:
    view = _RUNTIME_VIEW if profile in RUNTIME_PROFILES else _COMPILER_VIEW
    args: list[str] = []
    for name in [*view, *extra]:
        path = Path(name)
        if path.is_symlink() and path.parent == Path("/"):
            target = os.readlink(path)
            resolved = (path.parent / target).resolve()
            covered = any(resolved == Path(v) or Path(v) in resolved.parents for v in view)
            if covered or profile not in RUNTIME_PROFILES:
                args += ["--symlink", target, name]
            continue
        if path.exists():
            args += ["--ro-bind", name, name]
    return tuple(args)


def existing(paths: Sequence[Path | str]) -> list[Path]:
    """The paths that exist, resolved, without duplicates and without one inside another (the outer one covers it)."""
    out: list[Path] = []
    for p in sorted({Path(p).resolve() for p in paths if Path(p).exists()}, key=lambda q: len(q.parts)):
        if not any(p == o or o in p.parents for o in out):
            out.append(p)
    return out
