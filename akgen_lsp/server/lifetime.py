"""The server's lifetime tied to the editor's: exit when the editor's process is gone (LSP `initialize.processId`,
vscode-languageclient's ``--clientProcessId``), even when nobody closes our stdin (a crashed editor, a detached
terminal, an SSH session that went away).

A daemon thread waits on a pidfd (Linux 5.3+; no polling) or polls every `interval_s` where there is none.
"""

from __future__ import annotations

import contextlib
import logging
import os
import select
import threading
import time
from collections.abc import Callable

log = logging.getLogger(__name__)


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: it exists
        return True
    return True


def watch_process(pid: int, on_exit: Callable[[int], None], interval_s: float = 2.0) -> bool:
    """Call `on_exit(pid)` from a daemon thread once process `pid` has exited. False when it does not exist now
    (another PID namespace, a remote editor): then nothing is watched."""
    if pid <= 0 or pid == os.getpid() or not alive(pid):
        return False
    fd: int | None = None
    with contextlib.suppress(AttributeError, OSError):
        fd = os.pidfd_open(pid)  # type: ignore[attr-defined]

    def wait() -> None:
        if fd is not None:
            try:
                select.select([fd], [], [])
            finally:
                os.close(fd)
        else:
            while alive(pid):
                time.sleep(interval_s)
        log.info("the editor's process %d exited", pid)
        on_exit(pid)

    threading.Thread(target=wait, name=f"akgen-watch-{pid}", daemon=True).start()
    return True
