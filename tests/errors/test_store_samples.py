"""`akgen errors synthesize --from-store`: the repairs users accepted become SFT samples that validate."""

from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
from typer.testing import CliRunner

from akgen_lsp.cli import app
from akgen_lsp.errors.store import RepairStore
from akgen_lsp.logs.signature import signature

REPO = Path(__file__).resolve().parents[2]
SCHEMA = json.loads((REPO / "akgen_lsp" / "errors" / "schemas" / "sft.schema.json").read_text())
ORIGINAL = (REPO / "tests" / "repair" / "fixtures" / "ws" / "abs.cpp").read_text()
BROKEN = ORIGINAL.replace("Abs(yLocal, xIn, TILE_LENGTH);", "AscendC::Absolute(yLocal, xIn, TILE_LENGTH);")
MESSAGE = "'Absolute' is not a member of 'AscendC'"


def test_accepted_repairs_are_exported_as_sft_samples(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    store = RepairStore(tmp_path / "repairs.sqlite")
    store.add(signature(MESSAGE), BROKEN, ORIGINAL, error_class="hallucinated_api", message=MESSAGE,
              task="AbsHalf", model="KernelGen-LM", provenance="editor", path="abs.cpp")
    store.add(signature(MESSAGE), BROKEN + "\n", ORIGINAL, error_class="hallucinated_api", message=MESSAGE,
              task="AbsHalf", model="synthesized", provenance="synthesized", path="abs.cpp")
    monkeypatch.setenv("AKGEN_FIX_STORE", str(tmp_path / "repairs.sqlite"))
    out = tmp_path / "data"
    res = CliRunner().invoke(app, ["errors", "synthesize", "--from-store", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "1 SFT samples from the store of repairs" in res.output
    (line,) = (out / "sft" / "store.jsonl").read_text().splitlines()
    sample = json.loads(line)
    jsonschema.validate(sample, SCHEMA)
    assert sample["meta"]["operator"] == "accepted:editor" and sample["meta"]["model"] == "KernelGen-LM"
    user, answer = sample["messages"][1]["content"], sample["messages"][2]["content"]
    assert "Absolute" in user and "AscendC::Absolute(yLocal" in user  # the report and the broken file
    assert answer.split("```cpp\n", 1)[1].rsplit("\n```", 1)[0].strip() == ORIGINAL.strip()


def test_without_a_store_it_says_how_to_get_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AKGEN_FIX_STORE", str(tmp_path / "none.sqlite"))
    res = CliRunner().invoke(app, ["errors", "synthesize", "--from-store", "--out", str(tmp_path / "o")])
    assert res.exit_code == 2 and "akgen fix --apply" in res.output
