from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from akgen_lsp.cli import app

KERNEL = (Path(__file__).with_name("data") / "kernel_add.cpp").read_text(encoding="utf-8")
KERNEL_BLANK_LINE = 14  # 0-based: the indented blank line in Compute()

runner = CliRunner()


def test_model_list_json_names_the_checkpoints(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "KernelGen-LM-4B-Q4_K_M.gguf").write_bytes(b"GGUF" + b"\0" * 100)
    res = runner.invoke(app, ["model", "list", "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    names = [m["name"] for m in data["models"]]
    assert "KernelGen-LM-32B-RL" in names and "KernelGen-LM-MoE-30B" in names
    assert data["local"][0]["spec"] == "KernelGen-LM-4B" and data["local"][0]["kind"] == "gguf"
    text = runner.invoke(app, ["model", "list"])
    assert text.exit_code == 0 and "KernelGen-LM-14B" in text.output


def test_model_check_prints_the_figures(tiny_gguf: Path) -> None:
    res = runner.invoke(app, ["model", "check", "--backend", "llama_cpp", "--model", str(tiny_gguf), "--json",
                              "--tokens", "8"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output.strip().splitlines()[-1])
    assert set(data) >= {"ok", "backend", "model", "load_ms", "first_token_ms", "tokens_per_s"}
    assert data["ok"] is True and data["backend"] == "llama_cpp" and data["tokens"] == 8
    assert data["load_ms"] >= 0 and data["first_token_ms"] > 0 and data["tokens_per_s"] > 0


def test_model_check_reports_a_clear_error(tmp_path: Path) -> None:
    res = runner.invoke(app, ["model", "check", "--backend", "llama_cpp", "--model", str(tmp_path / "x.gguf"),
                              "--json"])
    assert res.exit_code == 1
    data = json.loads(res.output.strip().splitlines()[-1])
    assert data["ok"] is False and "model file not found" in data["error"]
    res2 = runner.invoke(app, ["model", "check", "--endpoint", "http://127.0.0.1:9/v1", "--json"])
    assert res2.exit_code == 1 and "cannot reach" in json.loads(res2.output.strip().splitlines()[-1])["error"]


def test_model_check_against_the_server(llama_server: object) -> None:
    res = runner.invoke(app, ["model", "check", "--backend", "openai", "--endpoint", llama_server.base_url,  # type: ignore[attr-defined]
                              "--json", "--tokens", "4"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output.strip().splitlines()[-1])
    assert data["ok"] and data["backend"] == "openai" and data["tokens"] == 4


def test_complete_runs_the_pipeline(tiny_gguf: Path, tmp_path: Path) -> None:
    src = tmp_path / "add.cpp"
    src.write_text(KERNEL, encoding="utf-8")
    args = ["complete", str(src), "--line", str(KERNEL_BLANK_LINE + 1), "--column", "9", "--backend", "llama_cpp",
            "--model", str(tiny_gguf)]
    res = runner.invoke(app, [*args, "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output.strip().splitlines()[-1])
    assert data["model"] == "akgen-tiny" and data["error"] is None
    if data["ok"]:  # a random model's answer may be filtered away entirely
        assert data["source"] == "model" and data["range"]["start"] == {"line": KERNEL_BLANK_LINE + 1, "column": 9}
        assert {"mode", "prompt", "generate", "total"} <= set(data["timings_ms"])
    res2 = runner.invoke(app, args)
    assert res2.exit_code == 0 and ("# stages (ms):" in res2.output or "no completion" in res2.output)


def test_complete_on_an_unreadable_file_is_a_clear_error(tmp_path: Path) -> None:
    res = runner.invoke(app, ["complete", str(tmp_path / "none.cpp"), "--line", "1", "--column", "1"])
    assert res.exit_code == 2 and "cannot read" in res.output
