"""The persistent check worker: real checks in forked jobs; nothing of a cancelled job, a dead worker or a closed
server stays alive."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from akgen_lsp.check.process import descendants, kill_tree
from akgen_lsp.check.worker import CheckFailed, CheckWorker

SPIN = """\
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void spin(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    volatile int forever = 1;
    while (forever) {
    }
}
"""

TOML = """\
[[task]]
name = "Spin"
file = "spin.cpp"
kernel = "spin"
mode = "static"
block_dim = 1
reference = "x"
inputs = [{ name = "x", shape = [64], dtype = "float32" }]
outputs = [{ name = "y", shape = [64], dtype = "float32" }]
"""

SETTINGS = {"toolchain.timeout_s": 120.0}


def _spin_kernel(tmp_path: Path) -> Path:
    (tmp_path / "akgen.toml").write_text(TOML, encoding="utf-8")
    kernel = tmp_path / "spin.cpp"
    kernel.write_text(SPIN, encoding="utf-8")
    return kernel


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    # a zombie waiting for its parent is gone for our purpose
    try:
        with open(f"/proc/{pid}/stat", "rb") as fh:
            return fh.read().rsplit(b")", 1)[1].split()[0] == b"Z"
    except OSError:
        return True


async def _until(predicate, timeout: float = 10.0) -> None:  # type: ignore[no-untyped-def]
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("timed out")
        await asyncio.sleep(0.05)


async def _running_job(worker: CheckWorker, kernel: Path) -> tuple[asyncio.Task[object], list[int]]:
    """A check of the spinning kernel, once its launcher runs (the job and the processes below it)."""
    task = asyncio.ensure_future(worker.check(str(kernel), SETTINGS, 120.0))
    await _until(lambda: bool(worker.job_pids()), 30)
    job = worker.job_pids()[0]
    # compile, then the launcher spins: wait until the job runs the built kernel (its binary is named "kernel";
    # in the sandbox, bwrap starts it)
    await _until(lambda: any(_program(p) in (b"kernel", b"bwrap") for p in descendants(job)), 90)
    return task, [job, *descendants(job)]


def _program(pid: int) -> bytes:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            return os.path.basename(fh.read().split(b"\0", 1)[0])
    except OSError:
        return b""


async def test_a_check_runs_in_the_warm_worker_and_reports():
    worker = CheckWorker()
    try:
        kernel = Path(__file__).resolve().parents[2] / "samples" / "kernels" / "add_custom.cpp"
        first = await worker.check(str(kernel), {}, 300.0)
        assert first.figures.status == "pass" and first.figures.passed_cases == 1
        second = await worker.check(str(kernel), {}, 300.0)
        assert second.figures.estimate_us == first.figures.estimate_us
        assert worker.starts == 1 and worker.import_s is not None
        # each job is gone soon after it answered (it removes its scratch folders after the answer is out)
        await _until(lambda: descendants(worker.pid or -1) == [], 30)
    finally:
        await worker.close()


async def test_cancelling_a_check_kills_its_whole_process_tree(tmp_path: Path):
    worker = CheckWorker()
    try:
        task, tree = await _running_job(worker, _spin_kernel(tmp_path))
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await _until(lambda: all(_gone(p) for p in tree), 5)
        await _until(lambda: descendants(worker.pid or -1) == [], 5)
        assert worker.running  # the worker itself serves the next check
    finally:
        await worker.close()


async def test_a_worker_that_dies_fails_its_job_and_is_started_again(tmp_path: Path):
    worker = CheckWorker()
    try:
        task, tree = await _running_job(worker, _spin_kernel(tmp_path))
        os.kill(worker.pid or -1, signal.SIGKILL)
        with pytest.raises(CheckFailed, match="stopped"):
            await task
        await _until(lambda: all(_gone(p) for p in tree), 5)  # the job died with its worker
        kernel = Path(__file__).resolve().parents[2] / "samples" / "kernels" / "add_custom.cpp"
        again = await worker.check(str(kernel), {}, 300.0)
        assert again.figures.status == "pass" and worker.starts == 2
    finally:
        await worker.close()


async def test_closing_the_worker_leaves_nothing_running(tmp_path: Path):
    worker = CheckWorker()
    _, tree = await _running_job(worker, _spin_kernel(tmp_path))
    pid = worker.pid
    await worker.close()
    assert pid is not None
    await _until(lambda: all(_gone(p) for p in [pid, *tree]), 5)


def test_kill_tree_reaches_what_left_the_process_group():
    # a child that starts a grandchild in a session of its own (setsid): killpg alone would miss it
    code = ("import os, subprocess, sys, time\n"
            "p = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'], start_new_session=True)\n"
            "print(p.pid, flush=True)\n"
            "time.sleep(60)\n")
    parent = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, start_new_session=True)
    assert parent.stdout is not None
    grandchild = int(parent.stdout.readline())
    kill_tree(parent.pid)
    parent.wait(5)
    deadline = time.monotonic() + 5
    while not _gone(grandchild) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _gone(grandchild)


async def test_a_job_answers_first_and_then_removes_its_scratch_folders(tmp_path, monkeypatch):
    # the job's scratch folders (the check's copy, the runs' folders) are removed on threads after the answer went
    # out: none may be left behind when the job has ended (an os._exit before they finish would leave them)
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    worker = CheckWorker()
    try:
        kernel = Path(__file__).resolve().parents[2] / "samples" / "kernels" / "add_custom.cpp"
        trace = tmp_path / "add.trace.json"
        result = await worker.check(str(kernel), {}, 300.0, str(trace))
        assert result.figures.status == "pass" and result.figures.trace == str(trace)
        await _until(lambda: descendants(worker.pid or -1) == [], 30)
        assert sorted(p.name for p in tmp_path.iterdir()) == ["add.trace.json"]
    finally:
        await worker.close()


@pytest.mark.hostile
async def test_a_cancelled_check_leaves_no_scratch_folder(tmp_path, monkeypatch):
    """Cancelled while its kernel runs, a job is killed before it can clean up: the worker removes its private
    temporary folder (its TMPDIR) for it (10 cancelled saves used to leave 1.7 GB in /tmp)."""
    scratch = tmp_path / "tmp"
    scratch.mkdir()
    monkeypatch.setenv("TMPDIR", str(scratch))
    worker = CheckWorker()
    try:
        task, tree = await _running_job(worker, _spin_kernel(tmp_path))
        assert any(p.name.startswith("akgen-job-") for p in scratch.iterdir())
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task
        await _until(lambda: all(_gone(p) for p in tree), 5)
        await _until(lambda: not any(scratch.iterdir()), 10)
    finally:
        await worker.close()


@pytest.mark.hostile
async def test_checks_beyond_the_bound_wait_their_turn(tmp_path, monkeypatch):
    """Three spinning checks at once with AKGEN_CHECK_JOBS=2: two jobs run, the third waits (and is cancelled
    while it waits, without ever starting)."""
    monkeypatch.setenv("AKGEN_CHECK_JOBS", "2")
    kernel = _spin_kernel(tmp_path)
    worker = CheckWorker()
    try:
        tasks = [asyncio.ensure_future(worker.check(str(kernel), SETTINGS, 120.0)) for _ in range(3)]
        await _until(lambda: len(worker.job_pids()) == 2, 60)
        await asyncio.sleep(2.0)
        assert len(worker.job_pids()) == 2
        for t in tasks:
            t.cancel()
        for t in tasks:
            with pytest.raises(asyncio.CancelledError):
                await t
        await _until(lambda: descendants(worker.pid or -1) == [], 10)
    finally:
        await worker.close()
