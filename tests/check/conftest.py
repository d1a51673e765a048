from __future__ import annotations

import pytest

from akgen_lsp.bench.runner import default_suite
from akgen_lsp.bench.tasks import Task, discover_tasks


@pytest.fixture(scope="session")
def add_task() -> Task:
    return discover_tasks(default_suite(), names=["AddMath"])[0]
