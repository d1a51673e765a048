"""Resumption, candidates from folders, summary and report, the CLI (no compiles: stub executors)."""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from akgen_lsp.bench.candidates import dir_candidates
from akgen_lsp.bench.executor import Job, ResultStore
from akgen_lsp.bench.report import render_html
from akgen_lsp.bench.runner import RunOptions, run_bench
from akgen_lsp.bench.summary import compact, summarise
from akgen_lsp.bench.tasks import discover_tasks
from akgen_lsp.cli import app


def _record(job: Job, status: str = "pass") -> dict[str, Any]:
    ok = status == "pass"
    return {"task": job.candidate.task_id, "sample": job.candidate.sample, "mode": job.settings.mode,
            "level": int(job.candidate.task_id[5]), "status": status, "parsed": True, "compiled": True, "ran": True,
            "correct": ok, "passed_cases": 4 if ok else 1, "cases": 4, "score": 100.0 if ok else 25.0,
            "error_class": None if ok else "precision", "speedup": 0.5 if ok else None, "estimate_us": 1.0,
            "findings": [] if ok else [{"severity": "error", "message": "wrong", "path": "/x/k.cpp", "line": 3}],
            "timings": {"total": 1.0, "compile": 0.5, "run": 0.4, "harness": 0.1}}


class Recording:
    def __init__(self, stop_after: int | None = None) -> None:
        self.ran: list[str] = []
        self.stop_after = stop_after

    def run(self, jobs: Sequence[Job], on_result: Callable[[Job, dict[str, Any]], None]) -> None:
        for job in jobs:
            if self.stop_after is not None and len(self.ran) >= self.stop_after:
                raise KeyboardInterrupt
            self.ran.append(job.key)
            on_result(job, _record(job))


def test_interrupted_run_resumes_where_it_stopped(tmp_path: Path, suite: Path) -> None:
    opts = RunOptions(suite=suite, level=1, tasks=("AddMath", "SubMath", "MulMath"), out=tmp_path / "out")
    first = Recording(stop_after=2)
    with pytest.raises(KeyboardInterrupt):
        run_bench(opts, executor=first)
    store = ResultStore(tmp_path / "out" / "results.jsonl")
    assert len(store.load()) == 2
    # a line cut short by the interruption is ignored, and that candidate runs again
    with store.path.open("a") as fh:
        fh.write('{"task": "level1/Math/SubMath", "sam')
    second = Recording()
    summary = run_bench(opts, executor=second)
    assert len(second.ran) == 1 and second.ran[0].startswith("level1/Math/SubMath")
    assert summary["levels"]["1"] == {"tasks": 3, "compiled": 3, "passed": 3}
    assert summary["resumed"] == 2
    assert (tmp_path / "out" / "report.html").is_file()
    third = Recording()
    run_bench(opts, executor=third)
    assert third.ran == []


def test_summary_and_compact_shape(suite: Path) -> None:
    tasks = discover_tasks(suite, names=["AddMath", "GeluTanh"])
    jobs = [Job(str(t.root), c, s) for t, c, s in []]
    assert jobs == []
    from akgen_lsp.bench.candidates import answer_candidates
    from akgen_lsp.bench.pipeline import RunSettings

    cands = answer_candidates(tasks)
    recs = [_record(Job(str(tasks[0].root), cands[0], RunSettings())),
            _record(Job(str(tasks[1].root), cands[1], RunSettings()), status="wrong_answer")]
    s = summarise(recs)
    assert s["levels"] == {"1": {"tasks": 1, "compiled": 1, "passed": 1}, "2": {"tasks": 1, "compiled": 1,
                                                                                "passed": 0}}
    # 0.2 * 100 + 0.3 * 25 over weights 0.5
    assert s["score"] == pytest.approx((0.2 * 100 + 0.3 * 25) / 0.5)
    assert s["pass_at_k"]["correct"]["1"] == 0.5 and s["error_classes"] == {"precision": 1}
    c = compact(s)
    assert set(c["tasks"][0]) == {"task", "level", "status", "compiled", "passed_cases", "cases", "error_class",
                                  "estimate_us", "speedup"}
    page = render_html(s)
    assert "<svg" in page and "k.cpp:3: wrong" in page and "http" not in page.replace("http://www.w3.org", "")


def test_dir_candidates_layouts(tmp_path: Path, suite: Path) -> None:
    tasks = discover_tasks(suite, names=["AddMath", "AbsMath", "SubMath"])
    gen = tmp_path / "gen"
    (gen / "lvl1" / "Math" / "AddMath" / "sample0" / "src" / "op_kernel").mkdir(parents=True)
    (gen / "lvl1" / "Math" / "AddMath" / "sample0" / "src" / "op_kernel" / "add_math.cpp").write_text("// k\n")
    (gen / "abs_math").mkdir()
    (gen / "abs_math" / "1.txt").write_text("```cpp\nint k;\n```")
    (gen / "abs_math" / "0.md").write_text("<kernel_impl>int k;</kernel_impl>")
    log = gen / "SubMath" / "fixed_case_0" / "sample2" / "log"
    log.mkdir(parents=True)
    (log / "x_rag_simple_code_gen_prompt.json").write_text(json.dumps({"prompt": "p", "out": "```cpp\nint q;\n```"}))
    cands = dir_candidates(gen, tasks)
    got = {(c.task_id.rsplit("/", 1)[-1], c.sample): c for c in cands}
    assert set(got) == {("AddMath", 0), ("AbsMath", 0), ("AbsMath", 1), ("SubMath", 2)}
    assert got[("AddMath", 0)].kernel is not None and got[("AbsMath", 1)].text.startswith("```")
    assert "int q;" in (got[("SubMath", 2)].text or "")
    assert len(dir_candidates(gen, tasks, samples=1)) == 3


def test_cli_list_and_errors(tmp_path: Path) -> None:
    runner = CliRunner()
    res = runner.invoke(app, ["bench", "list", "--json"])
    assert res.exit_code == 0
    rows = json.loads(res.stdout)
    assert len(rows) >= 24 and {r["level"] for r in rows} == {1, 2, 3}
    res = runner.invoke(app, ["bench", "list", "--suite", str(tmp_path / "none")])
    assert res.exit_code == 2 and "no such folder" in res.output
    res = runner.invoke(app, ["bench", "run", "--mode", "fast"])
    assert res.exit_code == 2
    res = runner.invoke(app, ["bench", "report", str(tmp_path)])
    assert res.exit_code == 2 and "no results.jsonl" in res.output


def test_pool_stops_a_candidate_past_its_time_limit(tmp_path: Path, suite: Path) -> None:
    import shutil
    import time

    from akgen_lsp.bench.executor import LocalPoolExecutor
    from akgen_lsp.bench.pipeline import Candidate, RunSettings
    from akgen_lsp.bench.tasks import load_task

    src = discover_tasks(suite, names=["AddMath"])[0].root
    dst = tmp_path / "tasks" / "level1" / "Math" / "AddMath"
    shutil.copytree(src, dst)
    prep = dst / "validation" / "prepare_inputs.py"
    prep.write_text("import time\n\n\ndef get_inputs(param, device=None):\n    time.sleep(60)\n")
    task = load_task(dst)
    job = Job(str(dst), Candidate(task.id, 0, task.answers[0].kernel, task.answers[0].host.parent),
              RunSettings(case_ids=(1,)), timeout_s=1.0)
    got: list[dict[str, Any]] = []
    t0 = time.monotonic()
    LocalPoolExecutor(1).run([job], lambda j, r: got.append(r))
    assert time.monotonic() - t0 < 20
    assert got[0]["status"] == "timeout" and got[0]["findings"][0]["code"] == "BENCH-TIMEOUT"


def test_task_code_that_dies_does_not_stop_the_run(tmp_path: Path, suite: Path) -> None:
    """A task's prepare_inputs that exits the process: it runs in the box (bench/ref_box.py), so the box dies, not
    the worker; the task is a harness error that says so, and the other task of the run passes."""
    import shutil

    from akgen_lsp.bench.executor import LocalPoolExecutor
    from akgen_lsp.bench.pipeline import Candidate, RunSettings
    from akgen_lsp.bench.tasks import load_task

    src = discover_tasks(suite, names=["AddMath"])[0].root
    jobs = []
    for name, body in (("Dies", "import os\n\n\ndef get_inputs(param, device=None):\n    os._exit(3)\n"),
                       ("Fine", None)):
        dst = tmp_path / "tasks" / "level1" / "Math" / name
        shutil.copytree(src, dst)
        if body:
            (dst / "validation" / "prepare_inputs.py").write_text(body)
        task = load_task(dst)
        jobs.append(Job(str(dst), Candidate(task.id, 0, task.answers[0].kernel, task.answers[0].host.parent),
                        RunSettings(case_ids=(1,)), timeout_s=120))
    got: dict[str, dict[str, Any]] = {}
    LocalPoolExecutor(2).run(jobs, lambda j, r: got.__setitem__(j.candidate.task_id, r))
    assert got["level1/Math/Dies"]["status"] == "harness_error"
    assert "failed in the sandbox (exit status 3)" in got["level1/Math/Dies"]["findings"][0]["message"]
    assert got["level1/Math/Fine"]["status"] == "pass"


def test_the_toolchain_choice_reaches_the_jobs_and_the_summary(tmp_path: Path, suite: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ASCEND_HOME_PATH", raising=False)
    seen: list[str] = []

    class Spy(Recording):
        def run(self, jobs: Sequence[Job], on_result: Callable[[Job, dict[str, Any]], None]) -> None:
            seen.extend(j.settings.toolchain for j in jobs)
            super().run(jobs, on_result)

    auto = run_bench(RunOptions(suite=suite, level=1, tasks=("AddMath",), out=tmp_path / "a"), executor=Spy())
    assert auto["toolchain"] == "sim" and seen == ["auto"]  # auto without a CANN install: sim
    cann = run_bench(RunOptions(suite=suite, level=1, tasks=("AddMath",), out=tmp_path / "c", toolchain="cann"),
                     executor=Spy())
    assert cann["toolchain"] == "cann" and seen[-1] == "cann"
    res = CliRunner().invoke(app, ["bench", "run", "--toolchain", "gpu", "--out", str(tmp_path / "x")])
    assert res.exit_code == 2 and "--toolchain must be auto, sim or cann" in res.output
