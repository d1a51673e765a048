"""The editor's deterministic fixes as the repair benchmark's `deterministic` fixer, on a real (small) corpus of
synthesized mutants: what it offers passes the benchmark's own verification."""

from __future__ import annotations

from pathlib import Path

import pytest

from akgen_lsp.bench.executor import SerialExecutor
from akgen_lsp.errors.dataset import build_dataset
from akgen_lsp.errors.repair_bench import run_repair_bench
from akgen_lsp.errors.synthesis import SynthOptions, run_synthesis
from akgen_lsp.repair.bench_fixer import VerifiedFixer

SUITE = Path(__file__).resolve().parents[2] / "akgen_lsp" / "bench" / "suite" / "tasks"


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("corpus")
    opts = SynthOptions(sources=[SUITE], out=out, per_kernel=2, tasks=("AddMath",), max_cases=1,
                        operators=["invented_api", "deque_wrong_queue", "drop_sync"])
    run = run_synthesis(opts, SerialExecutor())
    build_dataset(run.records, out, {})
    return out


def test_the_fixes_restore_what_they_can_and_offer_nothing_that_fails(corpus: Path) -> None:
    res = run_repair_bench(corpus, ["deterministic"], samples=1, split="all", executor=SerialExecutor(),
                           max_cases=1, fixer_objects={"deterministic": VerifiedFixer(max_cases=1)})
    rows = res["fixers"]["deterministic"]
    assert rows["hallucinated_api"]["top1"] == 1.0  # an invented name: the catalog's real one
    assert rows["memory"]["repaired"] >= 1  # the DeQue from the queue nothing fills
    assert rows["all"]["not_verified"] == 0 and rows["all"]["offered_unverified"] == 0
