"""Tasks that the checkout ships without a reference answer: skipped with the reason, counted apart."""

from __future__ import annotations

import shutil
from pathlib import Path

from akgen_lsp.bench.candidates import answer_candidates, dir_candidates
from akgen_lsp.bench.pipeline import NO_ANSWER, NO_ANSWER_REASON, RunSettings, evaluate
from akgen_lsp.bench.report import render_html
from akgen_lsp.bench.summary import compact, summarise
from akgen_lsp.bench.tasks import Task, load_task


def _question_only(tmp_path: Path, add_task: Task) -> Task:
    dst = tmp_path / "tasks" / "level1" / "Math" / "AddMath"
    shutil.copytree(add_task.root, dst)
    shutil.rmtree(dst / "answer")
    return load_task(dst)


def test_no_answer_is_skipped_and_counted_apart(tmp_path: Path, add_task: Task) -> None:
    task = _question_only(tmp_path, add_task)
    cands = answer_candidates([task])
    assert len(cands) == 1 and cands[0].origin == NO_ANSWER
    rec = evaluate(task, cands[0], RunSettings(mode="dynamic"))
    assert rec["status"] == "skipped" and rec["error_class"] == NO_ANSWER and not rec["parsed"]
    assert NO_ANSWER_REASON in rec["findings"][0]["message"] and rec["findings"][0]["severity"] == "warning"
    passed = {"task": "level1/Math/SubMath", "sample": 0, "level": 1, "status": "pass", "parsed": True,
              "compiled": True, "ran": True, "correct": True, "passed_cases": 2, "cases": 2, "score": 100.0,
              "error_class": None}
    s = summarise([rec, passed])
    assert s["levels"]["1"] == {"tasks": 1, "compiled": 1, "passed": 1, "no_answer": 1}
    assert [d["task"] for d in s["no_answer"]] == [task.id] and s["no_answer"][0]["reason"] == NO_ANSWER_REASON
    assert s["score"] == 100.0 and s["stage_rates"]["parse"] == 1.0 and "parse" not in s["error_classes"]
    assert [t["task"] for t in s["tasks"]] == ["level1/Math/SubMath"]
    assert compact(s)["no_answer"] == [task.id]
    page = render_html(s)
    assert "no reference answer" in page and task.id in page


def test_missing_candidate_in_a_folder_stays_a_parse_failure(tmp_path: Path, add_task: Task) -> None:
    task = _question_only(tmp_path, add_task)
    (tmp_path / "empty").mkdir()
    assert dir_candidates(tmp_path / "empty", [task]) == []  # no sample at all: no candidate, the summary says so
    gen = tmp_path / "gen" / "AddMath" / "0" / "op_kernel"
    gen.mkdir(parents=True)  # a sample folder without its kernel file
    (gen.parent / "note.txt").write_text("the model produced nothing\n")
    cands = dir_candidates(tmp_path / "gen", [task])
    assert len(cands) == 1 and cands[0].origin != NO_ANSWER
    rec = evaluate(task, cands[0], RunSettings(mode="static", case_ids=(1,)))
    assert rec["status"] == "parse_error" and rec["error_class"] == "syntax"
