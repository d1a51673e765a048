"""The repair benchmark: the deterministic fixer, a registered fixer, and the model fixer through llama.cpp with the
tiny GGUF, its answers constrained by a GBNF grammar (real inference; the grammar decides what it can say)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

from akgen_lsp.bench.executor import SerialExecutor
from akgen_lsp.config import defaults
from akgen_lsp.errors.dataset import build_dataset
from akgen_lsp.errors.fixers import BrokenKernel, CandidateEdit, ModelFixer, register_fixer
from akgen_lsp.errors.repair_bench import CorpusError, load_corpus, run_repair_bench
from akgen_lsp.errors.store import unified_diff
from akgen_lsp.errors.synthesis import SynthOptions, run_synthesis
from akgen_lsp.findings import Finding
from akgen_lsp.model.tiny import write_tiny_gguf

SUITE = Path(__file__).resolve().parents[2] / "akgen_lsp" / "bench" / "suite" / "tasks"
ORIGINAL = (SUITE / "level1/Math/AddMath/answer/0/op_kernel/add_math.cpp").read_text()


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("corpus")
    opts = SynthOptions(sources=[SUITE], out=out, per_kernel=2, tasks=("AddMath",), max_cases=1,
                        operators=["invented_api", "drop_enque"])
    run = run_synthesis(opts, SerialExecutor())
    build_dataset(run.records, out, {})
    return out


def _literal(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t") + '"'


def test_the_corpus_and_its_split(corpus: Path) -> None:
    broken = load_corpus(corpus, "all")
    assert {b.error_class for b in broken} == {"hallucinated_api", "memory"}
    with pytest.raises(CorpusError, match="no sample in the 'test' split"):
        load_corpus(corpus, "test")  # one task: it is all training data
    with pytest.raises(CorpusError, match=r"has no manifest\.json"):
        load_corpus(corpus / "mutants", "all")


def test_deterministic_and_registered_fixers(corpus: Path) -> None:
    class Original:
        name = "oracle"

        def candidates(self, broken: BrokenKernel, findings: Sequence[Finding], settings: object,
                       k: int) -> list[CandidateEdit]:
            return [CandidateEdit(broken.text, "no change", self.name), CandidateEdit(ORIGINAL, "the answer", self.name)]

    register_fixer("oracle", Original)
    res = run_repair_bench(corpus, ["deterministic", "oracle"], samples=2, split="all", executor=SerialExecutor(),
                           max_cases=1)
    det = res["fixers"]["deterministic"]
    assert det["hallucinated_api"]["top1"] == 1.0 and det["hallucinated_api"]["verified"] >= 1
    assert det["memory"]["no_candidate"] == 1 and det["memory"]["repaired"] == 0  # nothing to offer for a dropped EnQue
    oracle = res["fixers"]["oracle"]["all"]
    assert oracle == {**oracle, "broken": 2, "top1": 0.0, "repaired": 2, "proposed": 4, "verified": 2,
                      "not_verified": 2, "offered_unverified": 0}
    assert oracle["pass@2"] == 1.0
    assert (corpus / "repair-bench" / "repair_results.jsonl").is_file()


def test_model_fixer_with_the_tiny_gguf_and_a_grammar(corpus: Path, tmp_path: Path) -> None:
    """The tiny model's answer is constrained to the repair's diff: real llama.cpp inference, a grammar deciding
    what it can say, and the harness applying, compiling and running what came out."""
    gguf = write_tiny_gguf(tmp_path / "tiny.gguf", n_ctx=4096)
    settings = defaults().with_overrides({"model.backend": "llama_cpp", "model.path": str(gguf), "model.n_ctx": 2048,
                                          "model.temperature": 0.0, "model.timeout_s": 60.0}, "test")

    def repair_diff(broken: BrokenKernel) -> str:
        diff = unified_diff(broken.text, ORIGINAL, broken.path)
        return f'root ::= "```diff\\n" {_literal(diff)} "```"'

    right = ModelFixer(grammar=repair_diff, max_tokens=900)
    res = run_repair_bench(corpus, ["model"], samples=1, split="all", settings=settings, executor=SerialExecutor(),
                           max_cases=1, fixer_objects={"model": right})
    row = res["fixers"]["model"]["all"]
    assert row["top1"] == 1.0 and row["verified"] == 2, row
    wrong = ModelFixer(grammar='root ::= "```cpp\\nint main() { return 0; }\\n```"', max_tokens=64)
    res = run_repair_bench(corpus, ["model"], samples=1, split="all", settings=settings, executor=SerialExecutor(),
                           max_cases=1, fixer_objects={"model": wrong}, out=tmp_path / "wrong")
    row = res["fixers"]["model"]["all"]
    assert row["verified"] == 0 and row["not_verified"] == 2 and row["offered_unverified"] == 0


ROUTE_REGISTRY = '''
[[model]]
name = "small"
match = ["small*.gguf"]
params = "1.5B"
ms_per_token = 10.0
first_token_ms = 50.0

[[model]]
name = "large"
match = ["large*.gguf"]
params = "32B"
ms_per_token = 200.0
first_token_ms = 400.0
'''


@pytest.mark.parametrize(("repair_ms", "picked"), [(20000.0, "small"), (300000.0, "large")])
def test_akgen_errors_bench_fixer_model_goes_to_the_model_routing_picks(corpus: Path, tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch,
                                                                       repair_ms: float, picked: str) -> None:
    """Two configured models (two real GGUFs): a 1024-token repair takes 10.3 s on the small one and 205 s on the
    large one, so a 20 s budget routes the repairs to the small model and a 300 s one to the large model, which
    answers them (real inference, the grammar deciding the answer: a file that compiles and does not repair)."""
    from typer.testing import CliRunner

    from akgen_lsp.cli import app

    models = tmp_path / "models"
    models.mkdir()
    (models / "registry.toml").write_text(ROUTE_REGISTRY, encoding="utf-8")
    for name in ("small-q4.gguf", "large-q4.gguf"):
        write_tiny_gguf(models / name, n_ctx=4096)
    (tmp_path / "akgen.toml").write_text(
        '[model]\nbackend = "llama_cpp"\npath = "models/small-q4.gguf"\nn_ctx = 2048\ntemperature = 0.0\n'
        f'[model.route]\nmodels = ["small", "large"]\nrepair_ms = {repair_ms}\n', encoding="utf-8")
    grammar = tmp_path / "answer.gbnf"
    grammar.write_text('root ::= "```cpp\\nint main() { return 0; }\\n```"', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    res = CliRunner().invoke(app, ["errors", "bench", "--corpus", str(corpus), "--fixer", "model", "--split", "all",
                                   "--max-cases", "1", "--jobs", "1", "--grammar", str(grammar),
                                   "--out", str(tmp_path / "bench"), "--json"])
    assert res.exit_code == 0, res.output
    assert f"akgen: repair: routing: {picked} (" in res.stderr
    result = json.loads(res.stdout)
    assert result["model"]["name"] == picked
    assert result["model"]["path"] == str((models / f"{picked}-q4.gguf").resolve())
    row = result["fixers"]["model"]["all"]
    assert row["proposed"] == 2 and row["verified"] == 0 and row["offered_unverified"] == 0, row


def test_the_model_is_loaded_once_for_every_broken_kernel_of_a_run(corpus: Path, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """`akgen errors bench --fixer model` on every broken kernel of the corpus, two samples each, through the real
    llama.cpp and the tiny GGUF: llama.cpp builds the model once, the fixer loads its backend once (not once per
    kernel) and closes it when the run ends; every answer is still the model's (four candidates proposed)."""
    import llama_cpp
    from typer.testing import CliRunner

    from akgen_lsp.cli import app
    from akgen_lsp.model.backends.llama_cpp import LlamaCppBackend

    gguf = write_tiny_gguf(tmp_path / "once.gguf", n_ctx=4096)  # a file no earlier test loaded in this process
    built: list[str] = []
    calls: dict[str, int] = {"load": 0, "close": 0}
    real_init, real_load, real_close = llama_cpp.Llama.__init__, LlamaCppBackend.load, LlamaCppBackend.close

    def init(self: Any, *args: Any, **kwargs: Any) -> None:
        built.append(str(kwargs.get("model_path")))
        real_init(self, *args, **kwargs)

    async def load(self: LlamaCppBackend) -> None:
        calls["load"] += 1
        await real_load(self)

    async def close(self: LlamaCppBackend) -> None:
        calls["close"] += 1
        await real_close(self)

    monkeypatch.setattr(llama_cpp.Llama, "__init__", init)
    monkeypatch.setattr(LlamaCppBackend, "load", load)
    monkeypatch.setattr(LlamaCppBackend, "close", close)
    (tmp_path / "akgen.toml").write_text(f'[model]\nbackend = "llama_cpp"\npath = "{gguf}"\nn_ctx = 2048\n'
                                         'temperature = 0.0\n', encoding="utf-8")
    grammar = tmp_path / "answer.gbnf"
    grammar.write_text('root ::= "```cpp\\nint main() { return 0; }\\n```"', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    res = CliRunner().invoke(app, ["errors", "bench", "--corpus", str(corpus), "--fixer", "model", "--split", "all",
                                   "--samples", "2", "--max-cases", "1", "--jobs", "1", "--grammar", str(grammar),
                                   "--out", str(tmp_path / "bench"), "--json"])
    assert res.exit_code == 0, res.output
    row = json.loads(res.stdout)["fixers"]["model"]["all"]
    assert row["broken"] == 2 and row["proposed"] == 4, row
    assert [p for p in built if p == str(gguf)] == [str(gguf)], built
    assert calls == {"load": 1, "close": 1}, calls
