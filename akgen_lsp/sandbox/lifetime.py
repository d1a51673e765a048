"""A process that dies with its parent (Linux's PR_SET_PDEATHSIG): the check worker of the server, its jobs, and the
bench's pool workers, so that killing the process that started them (a signal, a closed terminal, an editor that
quit) leaves none of them behind."""

from __future__ import annotations

import ctypes
import os
import signal

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36


def prctl(option: int, value: int) -> bool:
    """prctl(2) with one argument; False where it failed or is not there (not Linux)."""
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return libc.prctl(option, value, 0, 0, 0) == 0
    except (OSError, AttributeError):  # not Linux
        return False


def die_with_parent(expected_parent: int | None = None, sig: int = signal.SIGKILL) -> None:
    """`sig` to this process when its parent exits (Linux); exit now if the parent is already gone (it died
    before this was asked, and the signal will never come)."""
    prctl(PR_SET_PDEATHSIG, sig)
    if expected_parent is not None and os.getppid() != expected_parent:
        os._exit(1)
