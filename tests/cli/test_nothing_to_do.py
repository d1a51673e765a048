"""A command that finds nothing to do says so, naming what it looked for, and exits non-zero (it wrote nothing
and said nothing before: `akgen errors synthesize --from <one task folder>`)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

from akgen_lsp.bench.runner import default_suite
from akgen_lsp.bench.tasks import discover_tasks
from akgen_lsp.errors.synthesis import SynthOptions, source_kernels

AKGEN = [sys.executable, "-c", "from akgen_lsp.cli import main; main()"]
ABS = default_suite() / "tasks" / "level1" / "Math" / "AbsMath"


def _run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*AKGEN, *args], capture_output=True, text=True, timeout=120, cwd=cwd, check=False)


def test_a_task_level_or_category_folder_is_a_source_of_tasks(tmp_path: Path) -> None:
    assert [t.name for t in discover_tasks(ABS)] == ["AbsMath"]
    assert "AbsMath" in [t.name for t in discover_tasks(ABS.parent)]
    assert "AbsMath" in [t.name for t in discover_tasks(ABS.parent.parent)]
    kernels = source_kernels(SynthOptions(sources=[ABS], out=tmp_path / "out"))
    assert kernels and {k.task.name for k in kernels} == {"AbsMath"}


def test_synthesize_from_a_folder_without_answers_says_so(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    out = _run("errors", "synthesize", "--from", str(tmp_path / "empty"), "--out", str(tmp_path / "out"),
               cwd=tmp_path)
    assert out.returncode == 1
    assert "nothing to mutate: no reference answer in" in out.stderr and "answer/<N>/op_kernel" in out.stderr
    task = tmp_path / "NoAnswer"
    shutil.copytree(ABS / "validation", task / "validation")
    out = _run("errors", "synthesize", "--from", str(task), "--out", str(tmp_path / "out"), cwd=tmp_path)
    assert out.returncode == 1 and "nothing to mutate" in out.stderr, out.stderr


def test_bench_run_and_list_with_no_task_say_where_they_looked(tmp_path: Path) -> None:
    (tmp_path / "suite").mkdir()
    out = _run("bench", "run", "--suite", str(tmp_path / "suite"), "--out", str(tmp_path / "run"), cwd=tmp_path)
    assert out.returncode != 0 and f"no task in {tmp_path / 'suite'}" in out.stderr, out.stderr
    assert "tasks/level*/<Category>/<Op>" in out.stderr and not (tmp_path / "run" / "summary.json").exists()
    out = _run("bench", "run", "--task", "NoSuchTask", "--out", str(tmp_path / "run"), cwd=tmp_path)
    assert out.returncode != 0 and "no task (named NoSuchTask)" in out.stderr, out.stderr
    out = _run("bench", "list", "--suite", str(tmp_path / "suite"), cwd=tmp_path)
    assert out.returncode == 1 and "no task in" in out.stderr
