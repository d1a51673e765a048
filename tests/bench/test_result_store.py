"""results.jsonl: appended and flushed per record; with ``fsync_each=False`` (a generation run's rounds) one handle
stays open and a record survives the writing process being killed (SIGKILL) before any fsync, `close` fsyncs once,
and a line cut short by an interruption is closed by the next writer."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

from akgen_lsp.bench.executor import ResultStore

REPO = Path(__file__).resolve().parents[2]


def test_records_survive_a_killed_writer_without_an_fsync(tmp_path: Path) -> None:
    path = tmp_path / "results.jsonl"
    code = textwrap.dedent(f"""
        import sys, time
        sys.path.insert(0, {str(REPO)!r})
        from akgen_lsp.bench.executor import ResultStore
        store = ResultStore({str(path)!r}, fsync_each=False)
        for i in range(3):
            store.append({{"task": "t", "sample": i, "answer": "x" * 5000}})
        print("written", flush=True)
        time.sleep(60)
    """)
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "written"
        os.kill(proc.pid, signal.SIGKILL)  # no close, no fsync, no interpreter shutdown
    finally:
        proc.wait(30)
    assert proc.returncode == -signal.SIGKILL
    assert [r["sample"] for r in ResultStore(path).load()] == [0, 1, 2]


def test_one_handle_one_fsync_at_close_and_a_cut_line_is_closed(tmp_path: Path) -> None:
    path = tmp_path / "results.jsonl"
    path.write_text('{"task": "a", "sample": 0}\n{"task": "cut', encoding="utf-8")
    store = ResultStore(path, fsync_each=False)
    store.append({"task": "b", "sample": 1})
    store.append({"task": "c", "sample": 2})
    assert [r["task"] for r in store.load()] == ["a", "b", "c"]  # flushed: readable while the handle is open
    assert len(store.write_s) == 2 and store.sync_s == 0.0
    store.close()
    assert store.sync_s > 0.0
    store.close()  # closing twice is nothing
    store.append({"task": "d", "sample": 3})  # appending again opens it again
    store.close()
    assert [r["task"] for r in ResultStore(path).load()] == ["a", "b", "c", "d"]
    durable = ResultStore(path)  # the default: every record fsynced, no handle kept
    durable.append({"task": "e", "sample": 4})
    assert durable.sync_s == 0.0 and [r["task"] for r in durable.load()][-1] == "e"
