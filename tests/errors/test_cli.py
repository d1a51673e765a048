"""`akgen errors mine | classify | report` through the real command line."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from akgen_lsp.cli import app
from tests.errors.conftest import KERNELS, LOGS

runner = CliRunner()


def test_mine_classify_report(tmp_path: Path, isolated_cache: Path) -> None:
    out = tmp_path / "blocks.jsonl"
    res = runner.invoke(app, ["errors", "mine", str(LOGS / "gcc_add_errors.log"), str(LOGS / "link.log"),
                              "--out", str(out)])
    assert res.exit_code == 0, res.output
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    assert len(rows) == 8 and all(r["error_class"] and r["signature"] and r["raw"] for r in rows)
    html = tmp_path / "d.html"
    res = runner.invoke(app, ["errors", "classify", str(out), "--json", "--html", str(html)])
    assert res.exit_code == 0, res.output
    dist = json.loads(res.stdout)
    assert dist["blocks"] == 8 and html.read_text().startswith("<!doctype html>")
    res = runner.invoke(app, ["errors", "report", str(out), "--source", str(KERNELS.parent), "--index", "1"])
    assert res.exit_code == 0, res.output
    assert "## hallucinated_api" in res.stdout and "AscendC::Softmax(zLocal, xLocal, TILE_LENGTH);" in res.stdout
    res = runner.invoke(app, ["errors", "report", str(out), "--json", "--index", "0"])
    assert json.loads(res.stdout.splitlines()[0])["error_class"] == "hallucinated_api"


def test_bad_input_is_a_sentence_and_loses_nothing(tmp_path: Path) -> None:
    junk = tmp_path / "junk.log"
    junk.write_text("hello\n")
    out = tmp_path / "b.jsonl"
    res = runner.invoke(app, ["errors", "mine", str(junk), str(LOGS / "link.log"), "--out", str(out)])
    assert res.exit_code == 2 and "could not recognise this log" in res.output and "use --format" in res.output
    assert len(out.read_text().splitlines()) == 2  # the good log's blocks are written all the same
    res = runner.invoke(app, ["errors", "mine", str(junk), "--format", "word"])
    assert res.exit_code == 2 and "--format must be one of" in res.output
    res = runner.invoke(app, ["errors", "classify", str(junk)])
    assert res.exit_code == 2 and "not a JSON line of error blocks" in res.output


def test_classify_evaluate_prints_the_confusion_matrix(tmp_path: Path) -> None:
    out = tmp_path / "b.jsonl"
    runner.invoke(app, ["errors", "mine", str(LOGS / "clang_stub.log"), "--out", str(out)])
    rows = [json.loads(x) for x in out.read_text().splitlines()]
    for r in rows:
        r["label"] = "scope" if "tileLen" in r["message"] else r["error_class"]
    rows[0]["label"] = "syntax"  # one wrong on purpose
    out.write_text("".join(json.dumps(r) + "\n" for r in rows))
    res = runner.invoke(app, ["errors", "classify", str(out), "--evaluate"])
    assert res.exit_code == 0 and "accuracy 0.8000 (4/5 labelled blocks)" in res.stdout
    res = runner.invoke(app, ["errors", "classify", str(out), "--evaluate", "--json"])
    ev = json.loads(res.stdout)["evaluation"]
    assert ev["matrix"]["syntax"] == {"dtype": 1} and ev["per_class"]["syntax"]["recall"] == 0.0


def test_synthesize_from_the_cli(tmp_path: Path) -> None:
    suite = Path(__file__).resolve().parents[2] / "akgen_lsp" / "bench" / "suite" / "tasks"
    out = tmp_path / "data"
    args = ["errors", "synthesize", "--from", str(suite), "--task", "AddMath", "--operators", "device_stl",
            "--per-kernel", "1", "--max-cases", "1", "--executor", "serial", "--out", str(out), "--json"]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    counts = json.loads(res.stdout)
    assert counts["planned"] == 1 and counts["kept"] == 1 and counts["samples"] == 1
    assert (out / "manifest.json").is_file() and (out / "mutants.jsonl").is_file()
    assert json.loads(runner.invoke(app, args).stdout)["resumed"] == 1  # a rerun resumes
    bad = runner.invoke(app, [*args[:6], "--operators", "typo_api", "--out", str(out)])
    assert bad.exit_code == 2 and "unknown operator 'typo_api'" in bad.output
    bad = runner.invoke(app, ["errors", "synthesize", "--from", str(tmp_path / "nope"), "--out", str(out)])
    assert bad.exit_code == 2 and "is not a folder of tasks" in bad.output
