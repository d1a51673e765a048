"""What the command line prints from a file, a program or a model reaches the terminal with its control characters
escaped (akgen_lsp/cli/output.py): an erase-line code cannot hide a line, OSC 52 cannot write the clipboard, a
carriage return cannot overwrite what was printed (docs/security.md)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from trust_helpers import user_config

pytestmark = pytest.mark.hostile

REPO = Path(__file__).resolve().parents[2]
AKGEN = [sys.executable, "-m", "akgen_lsp"]
BAD = ("\x1b", "\x07", "\x9b", "\r")
ATTACK = "\x1b[2K\x1b[1A\x1b]52;c;ZWNobyBwd25lZA==\x07\rOK\u202e"


def run(args: list[str], cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    return subprocess.run([*AKGEN, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)


def clean(text: str) -> bool:
    return not any(c in text for c in BAD) and "\\x1b" in text


def test_a_source_line_with_escape_codes_is_printed_escaped(tmp_path: Path) -> None:
    src = (REPO / "samples" / "broken" / "akg101_unknown_api.cpp").read_text("utf-8").splitlines()
    line = next(i for i, t in enumerate(src) if "expect: AKG101" in t)
    src[line] += f" /* {ATTACK} */"
    (tmp_path / "k.cpp").write_text("\n".join(src) + "\n", encoding="utf-8")
    res = run(["check", str(tmp_path / "k.cpp")])
    assert "AKG101" in res.stdout and clean(res.stdout), repr(res.stdout)


def test_a_file_name_with_escape_codes_is_printed_escaped(tmp_path: Path) -> None:
    shutil.copy(REPO / "samples" / "broken" / "akg101_unknown_api.cpp", tmp_path / f"k{ATTACK}.cpp")
    res = run(["check", str(tmp_path)])
    assert "AKG101" in res.stdout and clean(res.stdout), repr(res.stdout)


def test_a_settings_notice_quoting_a_hostile_value_is_escaped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    user_config(tmp_path, monkeypatch)  # nothing trusted
    (tmp_path / ".git").mkdir()
    (tmp_path / "akgen.toml").write_text('[toolchain]\ncxx = "tools/\\u001b]52;c;eA==\\u0007g++"\n')
    res = run(["info", "--json"], cwd=tmp_path)
    assert "ignored toolchain.cxx" in res.stderr and clean(res.stderr), repr(res.stderr)


def test_json_output_stays_json(tmp_path: Path) -> None:
    import json

    shutil.copy(REPO / "samples" / "broken" / "akg101_unknown_api.cpp", tmp_path / f"k{ATTACK}.cpp")
    res = run(["check", str(tmp_path), "--format", "json"])
    rows = json.loads(res.stdout)
    assert rows and ATTACK in rows[0]["path"]  # JSON escapes them itself (\u001b): the value is exact
