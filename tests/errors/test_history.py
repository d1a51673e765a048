"""Repairs from history: a failing sample and a later passing sample of the same task in a real bench run."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import jsonschema
import pytest

from akgen_lsp.bench.executor import SerialExecutor
from akgen_lsp.bench.runner import RunOptions, run_bench
from akgen_lsp.errors.dataset import build_dataset
from akgen_lsp.errors.history import HistoryError, history_records

SUITE = Path(__file__).resolve().parents[2] / "akgen_lsp" / "bench" / "suite" / "tasks"
ANSWER = SUITE / "level1" / "Math" / "AddMath" / "answer" / "0"
SCHEMAS = Path(__file__).resolve().parents[2] / "akgen_lsp" / "errors" / "schemas"


def test_a_later_passing_sample_is_the_fix(tmp_path: Path) -> None:
    cands = tmp_path / "samples"
    for s in (0, 1):
        shutil.copytree(ANSWER, cands / "AddMath" / str(s))
    broken = cands / "AddMath" / "0" / "op_kernel" / "add_math.cpp"
    broken.write_text(broken.read_text().replace("inQ0.EnQue(a0);", "inQ0.EnQueue(a0);"))
    run = tmp_path / "run"
    run_bench(RunOptions(suite=SUITE, tasks=("AddMath",), candidates=str(cands), max_cases=1, out=run),
              SerialExecutor())
    out = tmp_path / "data"
    (rec,) = history_records(run, out)
    assert rec["kept"] and rec["status"] == "compile_error" and rec["classified_as"] == "hallucinated_api"
    assert rec["source"] == "history:level1/Math/AddMath#1" and "inQ0.EnQueue(a0);" in rec["diff"]
    report = build_dataset([rec], out, {"from_runs": [str(run)]})
    assert report.samples == 1
    (line,) = (out / "sft" / "train.jsonl").read_text().splitlines()
    sample = json.loads(line)
    jsonschema.validate(sample, json.loads((SCHEMAS / "sft.schema.json").read_text()))
    assert "inQ0.EnQue(a0);" in sample["messages"][2]["content"] and "EnQueue" in sample["messages"][1]["content"]


def test_a_folder_that_is_not_a_run_is_refused(tmp_path: Path) -> None:
    with pytest.raises(HistoryError, match="not a bench run folder"):
        history_records(tmp_path, tmp_path / "out")
