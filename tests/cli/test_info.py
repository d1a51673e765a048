"""`akgen info`: the environment report the editors' health checks show."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

AKGEN = [sys.executable, "-c", "from akgen_lsp.cli import main; main()", "info"]


def _without(*modules: str) -> list[str]:
    """`akgen info` in a Python where `modules` do not import (find_spec says None), as on the plain install."""
    hide = "; ".join(f"sys.modules[{m!r}] = None" for m in modules)
    return [sys.executable, "-c", f"import sys; {hide}; from akgen_lsp.cli import main; main()", "info"]


def test_info_reports_each_piece_with_a_sentence(tmp_path: Path) -> None:
    out = subprocess.run([*AKGEN, "--json", str(tmp_path)], capture_output=True, text=True, timeout=60)
    report = json.loads(out.stdout)
    assert set(report) == {"server", "target", "toolchain", "compiler", "sandbox", "references", "model"}
    assert report["server"]["what"].startswith("akgen-lsp ")
    assert report["model"] == {"ok": True, "what": "none", "detail": report["model"]["detail"]}
    assert out.returncode == (0 if all(e["ok"] for e in report.values()) else 1)


def test_a_missing_model_file_is_named_with_what_to_do(tmp_path: Path) -> None:
    pytest.importorskip("llama_cpp")  # without it, the backend's install command is the line (the test below)
    (tmp_path / "akgen.toml").write_text('[model]\nbackend = "llama_cpp"\npath = "nowhere.gguf"\n', encoding="utf-8")
    out = subprocess.run([*AKGEN, str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 1
    assert "model file not found: nowhere.gguf" in out.stdout and "akgen model list" in out.stdout


def test_target_names_the_cann_version_and_where_it_comes_from(tmp_path: Path) -> None:
    (tmp_path / "version.cmake").write_text('set_cann_package(ops_demo VERSION "9.1.0")\n', encoding="utf-8")
    kernel = tmp_path / "op_kernel" / "arch35" / "demo.h"
    kernel.parent.mkdir(parents=True)
    kernel.write_text('#include "kernel_operator.h"\n', encoding="utf-8")
    out = subprocess.run([*AKGEN, "--json", str(kernel)], capture_output=True, text=True, timeout=60)
    target = json.loads(out.stdout)["target"]
    assert target["what"] == "CANN 9.1.0, Ascend950PR"
    assert "version.cmake (set_cann_package)" in target["detail"] and "arch35" in target["detail"]
    assert "ops-repo" in target["detail"]


def test_references_run_with_numpy_and_a_task_that_needs_torch_is_named(tmp_path: Path) -> None:
    samples = Path(__file__).resolve().parents[2] / "samples"
    out = subprocess.run([*_without("torch"), "--json", str(samples)], capture_output=True, text=True, timeout=60)
    report = json.loads(out.stdout)
    assert report["references"]["ok"] and "no task here needs it" in report["references"]["detail"]
    (tmp_path / "akgen.toml").write_text(
        '[[task]]\nname = "Spectrum"\nfile = "k.cpp"\nreference = "torch.fft.rfft(x).abs()"\n'
        'inputs = [{ name = "x", shape = [64], dtype = "float32" }]\noutputs = [{ name = "y" }]\n', encoding="utf-8")
    out = subprocess.run([*_without("torch"), str(tmp_path)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 1
    line = next(ln for ln in out.stdout.splitlines() if "references" in ln)
    assert line.startswith("NOT") and "task Spectrum (torch.fft)" in line and "about 190 MB" in line, line


def test_a_configured_backend_that_is_not_installed_says_how_to_install_it(tmp_path: Path) -> None:
    (tmp_path / "akgen.toml").write_text('[model]\nbackend = "llama_cpp"\npath = "m.gguf"\n', encoding="utf-8")
    (tmp_path / "m.gguf").write_bytes(b"GGUF")
    out = subprocess.run([*_without("llama_cpp"), str(tmp_path)], capture_output=True, text=True, timeout=60)
    line = next(ln for ln in out.stdout.splitlines() if " model " in ln)
    assert out.returncode == 1 and line.startswith("NOT")
    assert "llama-cpp-python" in line and "-m pip install 'llama-cpp-python==" in line, line
