"""The local pool's workers die with the run that started them: a synthesis or a bench run killed or interrupted
mid-candidate leaves no worker (nor any box of one) behind."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from akgen_lsp.bench.tasks import Task

REPO = Path(__file__).resolve().parents[2]
# Bounds, not pauses: each wait returns at its event; under a load of 15 on 2 cores a killed pool's boxes took more
# than 15 s to go, so the bounds only say how long a real failure takes to show.
BOUND_S = 180
RUN = textwrap.dedent("""
    import sys
    from pathlib import Path
    from akgen_lsp.bench.executor import Job, LocalPoolExecutor
    from akgen_lsp.bench.pipeline import Candidate, RunSettings
    from akgen_lsp.bench.tasks import load_task

    task = load_task(Path(sys.argv[1]))
    a = task.answers[0]
    jobs = [Job(str(task.root), Candidate(task.id, i, a.kernel, a.kernel.parent.parent / "op_host"),
                RunSettings(max_cases=1)) for i in range(8)]
    LocalPoolExecutor(2).run(jobs, lambda job, rec: print("done", rec["status"], flush=True))
""")


def _children(pid: int) -> set[int]:
    out: set[int] = set()
    for name in os.listdir("/proc"):
        if name.isdigit():
            try:
                stat = Path(f"/proc/{name}/stat").read_bytes()
            except OSError:
                continue
            if int(stat[stat.rfind(b")") + 2:].split()[1]) == pid:
                out.add(int(name))
    return out


def _tree(pid: int) -> set[int]:
    todo, seen = [pid], set()
    while todo:
        for child in _children(todo.pop()):
            if child not in seen:
                seen.add(child)
                todo.append(child)
    return seen


def _alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return False
    return stat[stat.rfind(b")") + 2:].split()[0] != b"Z"


@pytest.mark.parametrize("how", [signal.SIGKILL, signal.SIGINT])
def test_killing_the_run_ends_every_worker_and_what_it_started(task_copy, how: signal.Signals) -> None:
    task: Task = task_copy()
    proc = subprocess.Popen([sys.executable, "-c", RUN, str(task.root)], stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, env={**os.environ, "PYTHONPATH": str(REPO)})
    try:
        deadline = time.monotonic() + BOUND_S
        workers: set[int] = set()
        while time.monotonic() < deadline and len(workers) < 2:
            workers = _children(proc.pid)
            time.sleep(0.1)
        assert len(workers) == 2, "the pool did not start its two workers"
        time.sleep(1.0)  # the workers are inside their first candidates (compiling, or running in their boxes)
        tree = _tree(proc.pid)
        assert tree >= workers
        os.kill(proc.pid, how)
        proc.wait(timeout=BOUND_S)
        deadline = time.monotonic() + BOUND_S
        while time.monotonic() < deadline and any(_alive(p) for p in tree):
            time.sleep(0.1)
        left = sorted(p for p in tree if _alive(p))
        assert not left, f"left behind after {how.name}: {left}"
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
