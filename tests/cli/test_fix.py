"""`akgen fix`: the save check, the verified deterministic fixes, then the verified model repair, from a shell."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from akgen_lsp.cli import app
from akgen_lsp.errors.store import RepairStore
from akgen_lsp.model.tiny import literal_grammar, write_tiny_gguf

WS = Path(__file__).resolve().parents[1] / "repair" / "fixtures" / "ws"
ORIGINAL = (WS / "abs.cpp").read_text(encoding="utf-8")
UNTYPED = ORIGINAL.replace("inQueueX.AllocTensor<half>()", "inQueueX.AllocTensor()")
ABSOLUTE = ORIGINAL.replace("Abs(yLocal, xIn, TILE_LENGTH);", "AscendC::Absolute(yLocal, xIn, TILE_LENGTH);")


@pytest.fixture
def ws(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    dst = tmp_path / "ws"
    shutil.copytree(WS, dst)
    monkeypatch.setenv("AKGEN_FIX_STORE", str(tmp_path / "repairs.sqlite"))
    return dst


def test_a_deterministic_fix_is_printed_then_applied(ws: Path) -> None:
    kernel = ws / "abs.cpp"
    kernel.write_text(UNTYPED)
    runner = CliRunner()
    shown = runner.invoke(app, ["fix", str(kernel)])
    assert shown.exit_code == 1, shown.output  # the file itself still fails: nothing was written
    assert "fixed: Write AllocTensor<half>() (inQueueX's element type) — verified: compiles, 1/1 cases pass" in \
        shown.output
    assert "-            LocalTensor<half> xLocal = inQueueX.AllocTensor();" in shown.output
    assert "run again with --apply" in shown.output and kernel.read_text() == UNTYPED
    applied = runner.invoke(app, ["fix", str(kernel), "--apply", "--json"])
    assert applied.exit_code == 0, applied.output
    result = json.loads(applied.stdout)
    assert result["applied"] and result["passes"] and result["before"]["status"] == "compile_error"
    assert [f["fixer"] for f in result["fixes"]] == ["template argument"] and result["stored"] == 1
    assert kernel.read_text() == ORIGINAL
    store = RepairStore(ws.parent / "repairs.sqlite")
    store.export(ws.parent / "repairs.jsonl")
    (row,) = [json.loads(line) for line in (ws.parent / "repairs.jsonl").read_text().splitlines()]
    assert row["provenance"] == "cli" and row["model"] == "deterministic" and row["after"] == ORIGINAL
    again = runner.invoke(app, ["fix", str(kernel)])
    assert again.exit_code == 0 and "passes (compiles, 1/1 cases pass" in again.output and "nothing to fix" in \
        again.output


def test_the_model_repairs_what_no_certain_fix_does(ws: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    tiny = write_tiny_gguf(tmp_path / "repair-model.gguf", n_ctx=16384)
    answer = f"Use Abs.\n\n```cpp\n{ORIGINAL.rstrip()}\n```\n"
    monkeypatch.setenv("AKGEN_FIX_GRAMMAR", literal_grammar(answer))
    monkeypatch.setenv("AKGEN_MODEL_N_CTX", "16384")
    kernel = ws / "abs.cpp"
    kernel.write_text(ABSOLUTE)
    out = CliRunner().invoke(app, ["fix", str(kernel), "--model", str(tiny), "--samples", "1", "--apply", "--json"])
    assert out.exit_code == 0, out.output
    result = json.loads(out.stdout)
    assert result["fixes"] == [] and result["model"]["model"] == "KernelGen-LM"
    assert [c["verified"] for c in result["model"]["candidates"]] == [True]
    assert "a repair verified on the simulator (compiles, 1/1 cases pass" in result["model"]["message"]
    assert kernel.read_text() == ORIGINAL


def test_a_file_without_a_task_is_a_usage_error(tmp_path: Path) -> None:
    lonely = tmp_path / "lonely.cpp"
    lonely.write_text(ORIGINAL)
    out = CliRunner().invoke(app, ["fix", str(lonely)])
    assert out.exit_code == 2 and "has no task" in out.output and "--task" in out.output
    missing = CliRunner().invoke(app, ["fix", str(tmp_path / "nope.cpp")])
    assert missing.exit_code == 2 and "no such file" in missing.output
