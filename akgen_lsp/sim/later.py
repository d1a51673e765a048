"""Work a check does after its answer: scratch folders removed, files that are only read later (a Chrome trace).

A check job of the server's worker (check/process.py) answers first and does this work afterwards, so a save's
diagnostics do not wait for it: inside `answer_first()`, `later(fn)` queues `fn` and the job runs the queue once its
answer is out (`Afterwards.run`). Everywhere else (the CLI, the bench, tests) `later(fn)` runs `fn` at once, so a
command's files exist when it returns. Queued work runs in the order it was queued: a trace is written before it is
copied, and copied before its folder is removed.
"""

from __future__ import annotations

import contextlib
import shutil
import sys
import threading
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path, PurePath


@dataclass
class Afterwards:
    """The queue of one `answer_first()`: the work, and the files it will make (for `pending`)."""

    work: list[Callable[[], None]] = field(default_factory=list)
    files: list[Path] = field(default_factory=list)

    def run(self) -> None:
        """Run the queued work in order; a failure is printed (the answer is out: nobody else can be told) and the
        rest still runs."""
        work, self.work = self.work, []
        for fn in work:
            try:
                fn()
            except Exception:
                traceback.print_exc(file=sys.stderr)


_current: Afterwards | None = None


@contextlib.contextmanager
def answer_first() -> Iterator[Afterwards]:
    """While inside, `later` queues; the caller runs the queue (`.run()`) after it has answered."""
    global _current
    outer, _current = _current, Afterwards()
    try:
        yield _current
    finally:
        _current = outer


def later(fn: Callable[[], None], makes: Path | None = None) -> None:
    """Run `fn` now, or after the answer inside `answer_first()`; `makes` is the file it writes (see `pending`)."""
    if _current is None:
        fn()
        return
    _current.work.append(fn)
    if makes is not None:
        _current.files.append(Path(makes))


def pending(folder: Path, pattern: str) -> list[Path]:
    """The files under `folder` matching `pattern` (a relative glob) that queued work will write."""
    if _current is None:
        return []
    out = []
    for f in _current.files:
        with contextlib.suppress(ValueError):
            if PurePath(f.relative_to(folder)).match(pattern):
                out.append(f)
    return out


def remove_later(path: Path) -> None:
    """Delete a folder (a run's or a check's scratch folder, which a box wrote: rmtree follows no links) on a
    background thread, so the result is returned without waiting for the file system; inside `answer_first()`
    the thread starts after the answer. The thread is not a daemon: a process waits for it at exit (a forked check
    job joins it after it answered; see check/process)."""

    def start() -> None:
        threading.Thread(
            target=shutil.rmtree, args=(path,), kwargs={"ignore_errors": True}, name="akgen-cleanup"
        ).start()

    later(start)
