"""`akgen generate` through three real rounds: llama.cpp inference of the tiny GGUF, forced by per-round grammars to
write a kernel that does not compile, then one with wrong numbers, then the correct one; each evaluated by the bench
pipeline on the simulator, each failure's diagnostic report fed back as the next round's prompt."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest
from typer.testing import CliRunner

from akgen_lsp.cli import app

from .conftest import CORRECT, Forced

SCHEMAS = Path(__file__).resolve().parents[2] / "akgen_lsp" / "errors" / "schemas"


def run_generate(forced: Forced, out: Path, *extra: str) -> tuple[int, dict[str, Any], str]:
    args = ["generate", "--task", "AbsMath", "--model", str(forced.gguf), "--rounds", "3", "--out", str(out),
            "--no-memory", "--max-tokens", "1800", "--json"]
    for g in forced.grammars:
        args += ["--grammar", str(g)]
    here = os.getcwd()
    os.chdir(forced.root)
    try:
        res = CliRunner().invoke(app, [*args, *extra])
    finally:
        os.chdir(here)
    try:
        summary = json.loads(res.stdout)
    except json.JSONDecodeError:
        summary = {}
    return res.exit_code, summary, res.output


@pytest.fixture(scope="module")
def three_rounds(forced: Forced, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, Any]]]:
    out = tmp_path_factory.mktemp("gen") / "out"
    code, summary, output = run_generate(forced, out)
    assert code == 0, output
    yield out, summary


def lines(out: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]


def test_three_real_rounds_end_with_the_correct_kernel(three_rounds: tuple[Path, dict[str, Any]]) -> None:
    out, summary = three_rounds
    rounds = lines(out)
    assert [(r["round"], r["kind"], r["status"]) for r in rounds] == [
        (0, "generate", "compile_error"), (1, "repair", "wrong_answer"), (2, "repair", "pass")]
    assert [r["compiled"] for r in rounds] == [False, True, True] and rounds[2]["kept"]
    assert all(r["tokens"] > 300 and r["finish"] == "stop" for r in rounds)  # real generation, token by token
    # the best kernel in the answer layout, the one of the last round
    (best,) = summary["best"]
    assert best["round"] == 2 and Path(best["path"]).read_text() == CORRECT.rstrip() + "\n"
    assert Path(best["path"]).relative_to(out / "kernels") == Path("AbsMath/fixed_case_0/0/op_kernel/abs_math.cpp")
    assert summary["attempts"][0]["passed_at"] == 2


def test_each_failure_becomes_the_next_prompt_as_its_diagnostic_report(three_rounds: tuple[Path, dict[str, Any]]
                                                                       ) -> None:
    out, _summary = three_rounds
    r0, r1, _r2 = lines(out)
    assert "does not compile" in r0["feedback"] and "'Absolute' is not a member of 'AscendC'" in r0["feedback"]
    assert "## hallucinated_api" in r0["feedback"] or "## api_mismatch" in r0["feedback"]
    assert "### The file\n```cpp\n" in r0["feedback"] and "AscendC::Absolute(y, x, TILE);" in r0["feedback"]
    assert "BENCH-PRECISION" in r1["feedback"] and "expected" in r1["feedback"]
    assert "Muls(y, x, (half)-1.0, TILE);" in r1["feedback"] and "/tmp/" not in r1["feedback"].split("###")[0]
    assert "<kernel_impl>" in r1["feedback"]  # the answer layout again


def test_the_conversation_is_bounded_to_the_context_and_the_round_says_so(
        three_rounds: tuple[Path, dict[str, Any]]) -> None:
    out, summary = three_rounds
    r0, _r1, r2 = lines(out)
    assert r0["note"] == "" and r2["prompt_tokens"] <= 12288 - 1800
    assert "summarised in one line each to fit the context" in r2["note"], r2["note"]
    assert r2["note"] in summary["notes"]


def test_pass_at_k_after_each_round(three_rounds: tuple[Path, dict[str, Any]]) -> None:
    _out, summary = three_rounds
    rows = {(r["level"], r["round"]): r for r in summary["pass_at_k"]}
    # one instance, one sample: compiled from round 1, correct from round 2 (pass@10 with n=1 is pass@1)
    expect = {0: (0.0, 0.0), 1: (1.0, 0.0), 2: (1.0, 1.0)}
    for level in (1, "all"):
        for r, (comp, corr) in expect.items():
            row = rows[(level, r)]
            assert (row["compile"]["1"], row["correct"]["1"], row["correct"]["10"]) == (comp, corr, corr)
            assert row["instances"] == 1 and row["samples"] == 1
    assert summary["error_classes_per_round"]["0"] in ({"hallucinated_api": 1}, {"api_mismatch": 1})
    assert summary["error_classes_per_round"]["1"] == {"precision": 1} and summary["error_classes_per_round"]["2"] == {}
    assert summary["score"] == 100.0 and summary["fast_p"]["0.0"] == 1.0
    (task,) = summary["tasks"]
    assert task["rounds"] == 3 and task["tokens"] > 900 and task["wall_s"] > 0


def test_training_data_in_the_errors_formats(three_rounds: tuple[Path, dict[str, Any]]) -> None:
    out, _summary = three_rounds
    sft = [json.loads(x) for x in (out / "training/sft/repair.jsonl").read_text().splitlines()]
    dpo = [json.loads(x) for x in (out / "training/dpo/generate.jsonl").read_text().splitlines()]
    (sample,) = sft
    jsonschema.validate(sample, json.loads((SCHEMAS / "sft.schema.json").read_text()))
    assert sample["meta"]["injected_class"] == "precision" and "Muls(y, x, (half)-1.0, TILE);" in sample["messages"][1]["content"]
    assert CORRECT.rstrip() in sample["messages"][2]["content"]
    schema = json.loads((SCHEMAS / "dpo.schema.json").read_text())
    for pair in dpo:
        jsonschema.validate(pair, schema)
    assert sorted((p["meta"]["chosen_rank"], p["meta"]["rejected_rank"]) for p in dpo) == [
        ("correct", "does_not_compile"), ("correct", "wrong_numbers"), ("wrong_numbers", "does_not_compile")]


def test_a_rerun_resumes_from_the_stored_rounds(forced: Forced, three_rounds: tuple[Path, dict[str, Any]]) -> None:
    out, first = three_rounds
    code, again, output = run_generate(forced, out)
    assert code == 0, output
    assert again["resumed_rounds"] == 3 and len(lines(out)) == 3  # no round asked or run again
    assert again["pass_at_k"] == first["pass_at_k"]


@pytest.mark.hostile
def test_a_planted_results_file_is_not_believed(forced: Forced, three_rounds: tuple[Path, dict[str, Any]],
                                                tmp_path: Path) -> None:
    """A results.jsonl written by someone else (here: the real run's lines with round 0 claiming a pass for the answer
    that did not compile, and the seals stripped) resumes nothing: every round is asked and run again, and the
    summary counts only what this run verified."""
    out, first = three_rounds
    planted = tmp_path / "out"
    planted.mkdir()
    rows = lines(out)
    rows[0].update(status="pass", compiled=True, correct=True, kept=True)
    rows[0].pop("seal")
    rows[1]["answer"] = rows[2]["answer"]  # a sealed verdict moved onto another answer
    (planted / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows[:2]))
    code, again, output = run_generate(forced, planted)
    assert code == 0, output
    assert again["resumed_rounds"] == 0
    assert again["pass_at_k"] == first["pass_at_k"]
