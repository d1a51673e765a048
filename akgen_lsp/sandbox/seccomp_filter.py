"""The seccomp filter of a box, built with libseccomp's bindings (pyseccomp: ctypes over the system's
libseccomp.so.2) and handed to bwrap as BPF (`--seccomp FD`), so it is in force before the first instruction of the
boxed program: the dynamic loader, constructors, `.preinit_array` entries and ifunc resolvers included.

Every profile traps (SIGSYS: the process ends, or the launcher's handler reports the call) what a box never needs
and an escape would: ptrace and other processes' memory, kernel modules, BPF, perf, keyrings, io_uring (which would
bypass the filter), userfaultfd, another process's limits, new namespaces through clone, and terminal injection
(`ioctl` TIOCSTI / TIOCLINUX); mounts, unshare and setns fail with EPERM. The runtime profiles (kernel, host, program) also trap fork, vfork and clone without
CLONE_THREAD, execveat and sockets; clone3 answers ENOSYS so glibc's pthread_create falls back to clone, whose flags
the filter can read. Calls of another architecture (i386, x32) kill the process (libseccomp's default).
"""

from __future__ import annotations

import errno
import functools
import os
import tempfile

from akgen_lsp.sandbox.policy import PROFILES, RUNTIME_PROFILES

_ALWAYS = (
    "ptrace",
    "process_vm_readv",
    "process_vm_writev",
    "bpf",
    "perf_event_open",
    "keyctl",
    "add_key",
    "request_key",
    "io_uring_setup",
    "io_uring_enter",
    "io_uring_register",
    "userfaultfd",
    "kexec_load",
    "kexec_file_load",
    "init_module",
    "finit_module",
    "delete_module",
    "reboot",
    "swapon",
    "swapoff",
    "acct",
    "quotactl",
    "open_by_handle_at",
    "name_to_handle_at",
    "fanotify_init",
    "pidfd_getfd",
    "kcmp",
    "iopl",
    "ioperm",
    "syslog",
    "vhangup",
    "settimeofday",
    "clock_settime",
    "clock_adjtime",
    "adjtimex",
    "personality",
    "lookup_dcookie",
)
# refused with EPERM rather than trapped: the launcher's own defence in depth asks for a network namespace and fails
# quietly when it is already in one
_REFUSED = (
    "mount",
    "umount2",
    "pivot_root",
    "chroot",
    "unshare",
    "setns",
    "move_mount",
    "open_tree",
    "fsopen",
    "fsmount",
    "fsconfig",
    "fspick",
    "mount_setattr",
    "sethostname",
    "setdomainname",
)
_RUNTIME_ONLY = ("fork", "vfork", "execveat", "socket", "socketpair")
_TIOCSTI, _TIOCLINUX, _TIOCCONS = 0x5412, 0x541C, 0x541D
_CLONE_THREAD = 0x00010000
_CLONE_NAMESPACES = (
    0x00020000,
    0x02000000,
    0x04000000,
    0x08000000,
    0x10000000,
    0x20000000,
    0x40000000,
    0x00000080,
)  # NEWNS, NEWCGROUP, NEWUTS, NEWIPC, NEWUSER, NEWPID, NEWNET, NEWTIME


@functools.lru_cache(maxsize=len(PROFILES))
def filter_bytes(profile: str) -> bytes:
    """The BPF program of `profile` (built once per process)."""
    import pyseccomp as sc

    if profile not in PROFILES:
        raise ValueError(f"unknown sandbox profile {profile!r}")
    f = sc.SyscallFilter(defaction=sc.ALLOW)
    for name in _ALWAYS:
        _add(f, sc.TRAP, name)
    for name in _REFUSED:
        _add(f, sc.ERRNO(errno.EPERM), name)
    for request in (_TIOCSTI, _TIOCLINUX, _TIOCCONS):
        f.add_rule(sc.TRAP, "ioctl", sc.Arg(1, sc.EQ, request))
    # another process's limits (the parent's open files); pid 0 is the caller itself, as glibc's setrlimit passes it
    f.add_rule(sc.TRAP, "prlimit64", sc.Arg(0, sc.NE, 0))
    for (
        flag
    ) in _CLONE_NAMESPACES:  # new namespaces from inside (a user namespace would give back capabilities)
        f.add_rule(sc.TRAP, "clone", sc.Arg(0, sc.MASKED_EQ, flag, flag))
    f.add_rule(sc.ERRNO(errno.ENOSYS), "clone3")
    if profile in RUNTIME_PROFILES:
        for name in _RUNTIME_ONLY:
            _add(f, sc.TRAP, name)
        f.add_rule(sc.TRAP, "clone", sc.Arg(0, sc.MASKED_EQ, _CLONE_THREAD, 0))  # a new process, not a thread
    elif profile == "compiler":  # no network in the box anyway; a refused socket lets a tool fall back (NSS)
        _add(f, sc.ERRNO(errno.EACCES), "socket")
    with tempfile.TemporaryFile() as fh:
        f.export_bpf(fh)
        fh.seek(0)
        return fh.read()


def _add(f: object, action: int, name: str) -> None:
    try:
        f.add_rule(action, name)  # type: ignore[attr-defined]
    except (
        OSError,
        RuntimeError,
        ValueError,
    ):  # a call this kernel or libseccomp does not know: nothing to deny
        return


def filter_fd(profile: str) -> int:
    """A pipe's read end holding the profile's BPF program, for bwrap's `--seccomp FD` (the caller closes it once
    bwrap has started). The program is a few KiB, well under a pipe's buffer."""
    data = filter_bytes(profile)
    r, w = os.pipe()
    try:
        os.write(w, data)
    finally:
        os.close(w)
    return r
