"""The check worker process: `python -m akgen_lsp.check.process`, one per server (see `check.worker`).

It imports the check (`akgen_lsp.check.kernel`: the bench pipeline, the simulator's Python side, numpy) once, then
serves JSON lines on stdin/stdout. Each job runs in a child forked from this warm process, in a session of its own,
so a job is one process tree that dies as a whole:

    -> {"op": "check", "id": 3, "path": "/ws/k.cpp", "settings": {...}, "trace": "/tmp/t.json"}
    -> {"op": "check", "id": 5, "path": "/ws/k.cpp", "settings": {...}, "text": "...", "task": "AddCustom"}
                                                   (a candidate text as the file; a suite task named by the caller;
                                                    "host_dir": the op_host folder to check it with)
    -> {"op": "warm", "id": 4, "settings": {...}}          (the precompiled header and the launcher object)
    -> {"op": "cancel", "id": 3}
    <- {"event": "ready", "pid": 123, "import_s": 0.41}
    <- {"id": 3, "event": "started", "pid": 456}
    <- {"id": 3, "event": "done", "findings": [...], "figures": {...}}  | {"id": 3, "event": "error", "message": ...}
    <- {"id": 3, "event": "cancelled"}

Nothing of a job outlives it: a cancel kills the job's process group and every descendant still attached to it; this
process is a child subreaper, so whatever a job leaves behind (a daemon that left the group) is re-parented here and
killed by the next sweep; a job whose worker dies gets SIGTERM (PR_SET_PDEATHSIG) and kills its own tree before it
exits; this process dies with the server.
No pygls here: the worker knows only the check and this protocol.
"""

from __future__ import annotations

import contextlib
import json
import os
import selectors
import shutil
import signal
import sys
import threading
import time
import traceback
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from akgen_lsp.sandbox.lifetime import PR_SET_CHILD_SUBREAPER, PR_SET_PDEATHSIG, die_with_parent, prctl

PARENT_ENV = "AKGEN_CHECK_PARENT"


# ------------------------------------------------------------------------------------------------ process trees


def _parents() -> dict[int, int]:
    """pid -> parent pid of every process we can see."""
    out: dict[int, int] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return out
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as fh:
                stat = fh.read()
        except OSError:
            continue
        rest = stat[stat.rfind(b")") + 2 :].split()
        if len(rest) > 1:
            out[int(name)] = int(rest[1])
    return out


def descendants(root: int, parents: dict[int, int] | None = None) -> list[int]:
    """Every process below `root` (children first found, then theirs)."""
    parents = _parents() if parents is None else parents
    children: dict[int, list[int]] = {}
    for pid, ppid in parents.items():
        children.setdefault(ppid, []).append(pid)
    out: list[int] = []
    todo = list(children.get(root, []))
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo.extend(children.get(pid, []))
    return out


def kill_tree(pid: int, alive: bool = True) -> None:
    """SIGKILL `pid`, its process group and every descendant (a few passes, for processes forked meanwhile).
    With `alive` False (the process was reaped: its pid may be reused) only its group is killed."""
    if not alive:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, signal.SIGKILL)
        return
    for _ in range(3):
        victims = [pid, *descendants(pid)]
        for victim in victims:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(victim, signal.SIGKILL)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, signal.SIGKILL)
        if len(victims) == 1:
            break


# ------------------------------------------------------------------------------------------------ jobs


def _run_job(request: dict[str, Any]) -> dict[str, Any]:
    """What a job child computes (imports are already in memory: this runs in a fork of the warm worker)."""
    from akgen_lsp.check.kernel import check_kernel, warm_toolchain

    settings = request.get("settings") or {}
    if request.get("op") == "warm":
        return {"event": "done", "figures": warm_toolchain(settings), "findings": []}
    text, task, cases = request.get("text"), request.get("task"), request.get("max_cases")
    required, host_dir = request.get("required"), request.get("host_dir")
    result = check_kernel(
        request["path"],
        settings,
        trace_to=request.get("trace"),
        host_dir=Path(host_dir) if isinstance(host_dir, str) and host_dir else None,
        text=text if isinstance(text, str) else None,
        task_name=task if isinstance(task, str) and task else None,
        max_cases=cases if isinstance(cases, int) and cases > 0 else None,
        required=tuple(c for c in required if isinstance(c, int)) if isinstance(required, list) else (),
    )
    return {"event": "done", **result.to_json()}


def _end_job(*_: Any) -> None:
    for pid in descendants(os.getpid()):
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.kill(pid, signal.SIGKILL)
    os._exit(1)


def _child(request: dict[str, Any], out_fd: int) -> None:
    """The forked job: a session of its own, dies with the worker, writes one JSON answer to `out_fd`."""
    # imported here, not at the top: the servers import this module (`check.worker`) and need no simulator (numpy)
    from akgen_lsp.sim.later import answer_first

    try:
        os.setsid()
        # the worker died (PDEATHSIG) or the job is told to stop: take its whole tree down first, even what left
        # its process group (a launcher in a session of its own), then go
        signal.signal(signal.SIGTERM, _end_job)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
        if os.getppid() == 1:
            _end_job()
        devnull = os.open(os.devnull, os.O_RDWR)
        os.dup2(devnull, 0)
        os.dup2(2, 1)  # a stray print must not reach the worker's protocol stream
        scratch = request.get("_scratch")
        if scratch:  # every temporary folder of the job lives in its own, removed by the worker when it ends
            os.environ["TMPDIR"] = scratch
            import tempfile

            tempfile.tempdir = scratch
        with (
            answer_first() as afterwards
        ):  # files only read later (a trace), scratch removal: after the answer
            try:
                answer = _run_job(request)
            except BaseException as exc:
                traceback.print_exc()
                answer = {"event": "error", "message": f"{type(exc).__name__}: {exc}"}
        data = (json.dumps(answer, default=str) + "\n").encode()  # one line: the newline says it is whole
        view = memoryview(data)
        while view:
            written = os.write(out_fd, view)
            view = view[written:]
        os.close(out_fd)
        # the answer is out (the worker sends it on end of file, not at this process's exit): now the work the
        # check left for after it (sim/later.py: its Chrome trace, the scratch folders it removes on threads)
        afterwards.run()
        for thread in threading.enumerate():
            if thread is not threading.main_thread() and not thread.daemon:
                thread.join(timeout=60)
    finally:
        os._exit(0)


@dataclass
class Job:
    id: int
    pid: int
    fd: int
    started: float
    chunks: list[bytes] = field(default_factory=list)
    status: int | None = None  # the wait status once reaped
    eof: bool = False
    cancelled: bool = False
    answered: bool = False  # its answer was sent (on end of file; the process may still be cleaning up)
    scratch: str = (
        ""  # the job's private temporary folder (its TMPDIR), removed when it ends, cancelled or not
    )


class Worker:
    def __init__(self) -> None:
        self.jobs: dict[int, Job] = {}  # by pid
        self.by_id: dict[int, Job] = {}
        self.selector = selectors.DefaultSelector()
        self.pending = b""
        self.dirty = False  # a job ran since the last sweep that found nothing left behind
        self.running = True
        # checks at once (AKGEN_CHECK_JOBS, default 2): the others wait their turn (8 saves at once took 4.3 GB)
        self.max_jobs = max(1, int(os.environ.get("AKGEN_CHECK_JOBS", "2") or 2))
        self.waiting: list[dict[str, Any]] = []

    # -------------------------------------------------------------------------------------------- output

    @staticmethod
    def send(message: dict[str, Any]) -> None:
        sys.stdout.write(json.dumps(message, default=str) + "\n")
        sys.stdout.flush()

    # -------------------------------------------------------------------------------------------- requests

    def handle(self, request: dict[str, Any]) -> None:
        op = request.get("op")
        if op in ("check", "warm"):
            if op == "check" and sum(1 for j in self.jobs.values() if not j.answered) >= self.max_jobs:
                self.waiting.append(request)
            else:
                self.start(request)
        elif op == "cancel":
            wanted = int(request.get("id", -1))
            queued = [r for r in self.waiting if int(r.get("id", -2)) == wanted]
            if queued:
                self.waiting = [r for r in self.waiting if r not in queued]
                self.send({"id": wanted, "event": "cancelled"})
            job = self.by_id.get(wanted)
            if job is not None:
                job.cancelled = True
                kill_tree(job.pid)
        elif op == "exit":
            self.running = False
        else:
            self.send({"id": request.get("id"), "event": "error", "message": f"unknown op {op!r}"})

    def start(self, request: dict[str, Any]) -> None:
        import tempfile

        job_id = int(request["id"])
        scratch = tempfile.mkdtemp(prefix="akgen-job-")
        request = {**request, "_scratch": scratch}
        read_fd, write_fd = os.pipe()
        sys.stdout.flush()
        pid = os.fork()
        if pid == 0:  # the job
            os.close(read_fd)
            _child(request, write_fd)
        os.close(write_fd)
        os.set_blocking(read_fd, False)
        job = Job(job_id, pid, read_fd, time.monotonic(), scratch=scratch)
        self.jobs[pid] = job
        self.by_id[job_id] = job
        self.dirty = True
        self.selector.register(read_fd, selectors.EVENT_READ, ("job", job))
        self.send({"id": job_id, "event": "started", "pid": pid})

    # -------------------------------------------------------------------------------------------- completion

    def read_job(self, job: Job) -> None:
        try:
            chunk = os.read(job.fd, 1 << 16)
        except BlockingIOError:
            return
        if chunk:
            job.chunks.append(chunk)
            return
        job.eof = True
        self.selector.unregister(job.fd)
        os.close(job.fd)
        self.answer(job)
        self.maybe_finish(job)

    def answer(self, job: Job, failed: str | None = None) -> None:
        """Send a job's answer as soon as all of it is read (the job cleans up after it answered). One that does not
        read back waits for the exit status, which says what happened (`failed`: that sentence)."""
        if job.cancelled or job.answered:
            return
        data = b"".join(job.chunks)
        whole = data.startswith(b"{") and data.endswith(b"}\n") and len(data) > 3
        if not failed and not whole:
            return
        job.answered = True
        self.by_id.pop(job.id, None)  # a cancel from now on comes too late: the answer is out
        seconds = round(time.monotonic() - job.started, 4)
        if failed:
            self.send({"event": "error", "message": failed, "id": job.id, "seconds": seconds})
            return
        # the job's JSON line as it wrote it (not read and written again: the answer crosses as text once), with
        # the job's id and time added as its last keys
        sys.stdout.flush()
        sys.stdout.buffer.write(data[:-2] + f', "id": {job.id}, "seconds": {seconds}}}\n'.encode())
        sys.stdout.buffer.flush()

    def reap(self) -> None:
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            job = self.jobs.get(pid)
            if job is not None:
                job.status = status
                self.maybe_finish(job)

    def maybe_finish(self, job: Job) -> None:
        if not job.eof or job.status is None:
            return
        del self.jobs[job.pid]
        self.by_id.pop(job.id, None)
        kill_tree(job.pid, alive=False)  # its group; what left the group is swept (re-parented here)
        if job.scratch:
            shutil.rmtree(job.scratch, ignore_errors=True)
        while self.waiting and sum(1 for j in self.jobs.values() if not j.answered) < self.max_jobs:
            self.start(self.waiting.pop(0))
        if job.answered:
            return
        if job.cancelled:
            self.send({"id": job.id, "event": "cancelled"})
            return
        # it ended without an answer that reads back (read_job tried one at end of file)
        sig = os.WTERMSIG(job.status) if os.WIFSIGNALED(job.status) else None
        how = f"killed by signal {sig}" if sig else f"exit status {os.waitstatus_to_exitcode(job.status)}"
        self.answer(job, f"the check process died ({how}) before it answered")

    def sweep(self) -> None:
        """Kill what jobs left behind: our children that are not jobs (re-parented here, the subreaper)."""
        me = os.getpid()
        parents = _parents()
        strays = [pid for pid, ppid in parents.items() if ppid == me and pid not in self.jobs]
        for pid in strays:
            kill_tree(pid)
        self.reap()
        if not strays and not self.jobs:
            self.dirty = False

    # -------------------------------------------------------------------------------------------- loop

    def lines(self, data: bytes) -> Iterable[dict[str, Any]]:
        self.pending += data
        while b"\n" in self.pending:
            line, self.pending = self.pending.split(b"\n", 1)
            if line.strip():
                try:
                    yield json.loads(line)
                except ValueError:
                    self.send({"event": "error", "message": f"not a JSON request: {line[:200]!r}"})

    def serve(self) -> None:
        wake_r, wake_w = os.pipe()
        os.set_blocking(wake_r, False)
        os.set_blocking(wake_w, False)
        signal.set_wakeup_fd(wake_w)
        signal.signal(signal.SIGCHLD, lambda *_: None)
        os.set_blocking(0, False)
        self.selector.register(0, selectors.EVENT_READ, ("stdin", None))
        self.selector.register(wake_r, selectors.EVENT_READ, ("wake", None))
        while self.running:
            for key, _ in self.selector.select(timeout=1.0 if self.dirty or self.jobs else None):
                kind, job = key.data
                if kind == "stdin":
                    try:
                        data = os.read(0, 1 << 16)
                    except BlockingIOError:
                        continue
                    if not data:  # the server is gone
                        self.running = False
                        break
                    for request in self.lines(data):
                        self.handle(request)
                elif kind == "wake":
                    with contextlib.suppress(BlockingIOError):
                        os.read(wake_r, 4096)
                    self.reap()
                else:
                    self.read_job(job)
            self.reap()
            if self.dirty and not self.jobs:
                self.sweep()
        for job in list(self.jobs.values()):
            kill_tree(job.pid)
        self.sweep()


def main() -> int:
    parent = os.environ.get(PARENT_ENV)
    die_with_parent(int(parent) if parent and parent.isdigit() else None)
    prctl(PR_SET_CHILD_SUBREAPER, 1)
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C in the editor's terminal is the server's to handle
    started = time.perf_counter()
    import akgen_lsp.check.kernel
    import akgen_lsp.findings

    akgen_lsp.check.kernel.prime_process()
    from akgen_lsp.safety import sweep_stale

    sweep_stale()  # scratch folders of checks killed a day or more ago

    Worker.send({"event": "ready", "pid": os.getpid(), "import_s": round(time.perf_counter() - started, 3)})
    Worker().serve()
    return 0


if __name__ == "__main__":
    sys.exit(main())
