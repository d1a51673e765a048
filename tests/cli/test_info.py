"""`akgen info`: the environment report the editors' health checks show."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

AKGEN = [sys.executable, "-c", "from akgen_lsp.cli import main; main()", "info"]


def test_info_reports_each_piece_with_a_sentence(tmp_path: Path) -> None:
    out = subprocess.run([*AKGEN, "--json", str(tmp_path)], capture_output=True, text=True, timeout=60)
    report = json.loads(out.stdout)
    assert set(report) == {"server", "toolchain", "compiler", "sandbox", "model"}
    assert report["server"]["what"].startswith("akgen-lsp ")
    assert report["model"] == {"ok": True, "what": "none", "detail": report["model"]["detail"]}
    assert out.returncode == (0 if all(e["ok"] for e in report.values()) else 1)


def test_a_missing_model_file_is_named_with_what_to_do(tmp_path: Path) -> None:
    (tmp_path / "akgen.toml").write_text('[model]\nbackend = "llama_cpp"\npath = "nowhere.gguf"\n', encoding="utf-8")
    out = subprocess.run([*AKGEN, str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 1
    assert "model file not found: nowhere.gguf" in out.stdout and "akgen model list" in out.stdout
