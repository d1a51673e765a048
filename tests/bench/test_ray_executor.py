"""The Ray executor in Ray's local mode: the same jobs and records as the local pool."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from akgen_lsp.bench import ray_executor
from akgen_lsp.bench.candidates import answer_candidates
from akgen_lsp.bench.executor import Job
from akgen_lsp.bench.pipeline import Candidate, RunSettings
from akgen_lsp.bench.ray_executor import RayExecutor, RayUnavailable
from akgen_lsp.bench.tasks import Task


@pytest.mark.filterwarnings("ignore:.*local mode:DeprecationWarning")
def test_jobs_run_on_ray_local_mode(add_task: Task, tmp_path: Path) -> None:
    good = answer_candidates([add_task])[0]
    broken_dir = tmp_path / "op_kernel"
    broken_dir.mkdir()
    assert good.kernel is not None
    text = good.kernel.read_text().replace("Add(fz, f[0], f[1], calc);", "AscendC::Addd(fz, f[0], f[1], calc);")
    (broken_dir / good.kernel.name).write_text(text)
    bad = Candidate(add_task.id, 7, broken_dir / good.kernel.name, good.host_dir, origin="mutant")
    settings = RunSettings(max_cases=1)
    jobs = [Job(str(add_task.root), good, settings), Job(str(add_task.root), bad, settings)]
    got: dict[str, dict[str, object]] = {}
    with RayExecutor(local_mode=True, num_cpus=1) as executor:
        executor.run(jobs, lambda job, rec: got.__setitem__(job.key, rec))
    assert got[jobs[0].key]["status"] == "pass"
    rec = got[jobs[1].key]
    assert rec["status"] == "compile_error" and rec["error_class"] == "hallucinated_api"


def test_without_ray_the_error_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(name: str) -> object:
        raise ImportError(name)

    monkeypatch.setattr(importlib, "import_module", missing)
    with pytest.raises(RayUnavailable, match=r"pip install 'akgen-lsp\[ray\]'.*--executor local"):
        ray_executor._ray()
