from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from akgen_lsp.bench.runner import default_suite
from akgen_lsp.bench.tasks import Task, discover_tasks, load_task


@pytest.fixture(scope="session")
def suite() -> Path:
    return default_suite()


@pytest.fixture(scope="session")
def add_task(suite: Path) -> Task:
    return discover_tasks(suite, names=["AddMath"])[0]


@pytest.fixture
def task_copy(tmp_path: Path, add_task: Task):
    """A private copy of the AddMath task whose answer a test may break."""

    def make(name: str = "AddMath") -> Task:
        src = discover_tasks(default_suite(), names=[name])[0].root
        dst = tmp_path / "tasks" / src.parent.parent.name / src.parent.name / src.name
        shutil.copytree(src, dst)
        return load_task(dst)

    return make
