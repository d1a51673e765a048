"""The bench with model candidates: several instances and samples in rounds against one backend (real llama.cpp
inference, each (case, sample, round) forced by its grammar), pass@k after each round checked against values
computed by hand (the local process pool evaluating), the same rounds evaluated by the Ray executor in Ray's local mode
with the same metrics, and a run interrupted after its first round resumed by `akgen bench run --candidates model`."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from akgen_lsp.bench.executor import Executor, LocalPoolExecutor, SerialExecutor
from akgen_lsp.bench.ray_executor import RayExecutor
from akgen_lsp.cli import app
from akgen_lsp.config import load_settings
from akgen_lsp.generate.attempt import Attempt, LoopConfig
from akgen_lsp.generate.bench import GenerateOptions, generation, loop_config
from akgen_lsp.generate.summary import summarise_rounds
from akgen_lsp.model.backends.llama_cpp import LlamaCppBackend
from akgen_lsp.model.tiny import literal_grammar

from .conftest import CORRECT, N_CTX, Forced, answer, write_grammars

HEAD = 'extern "C" __global__ __aicore__ void abs_math(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)'
SHORT = {
    "broken": answer(f'#include "kernel_operator.h"\n{HEAD}\n{{\n    AscendC::Absolute(x, y);\n}}'),  # no such API
    "empty": answer(f'#include "kernel_operator.h"\n{HEAD}\n{{\n}}'),  # compiles, writes nothing: wrong numbers
}
# (case, sample) -> the answer of each round; case 0 is [48, 128, 64] float16, case 8 the same shape in float32
PLAN = {
    (0, 0): ["ok"], (0, 1): ["broken", "ok"], (0, 2): ["broken", "empty", "empty"],
    (8, 0): ["empty", "ok"], (8, 1): ["broken", "broken", "broken"], (8, 2): ["ok"],
}


def planned(r: int, a: Attempt) -> str:
    what = PLAN[(a.case_id or 0, a.sample)][r]
    if what == "ok":
        return literal_grammar(answer(CORRECT if a.case_id == 0 else CORRECT.replace("half", "float")))
    return literal_grammar(SHORT[what])


def backend(forced: Forced) -> LlamaCppBackend:
    return LlamaCppBackend(str(forced.gguf), n_ctx=N_CTX, n_threads=1)


async def _generate(forced: Forced, out: Path, cfg: LoopConfig, **kw: Any) -> dict[str, Any]:
    b = backend(forced)
    await b.load()
    settings = load_settings(forced.root)
    on_line = kw.pop("on_line", None)
    executor: Executor = kw.pop("executor", None) or SerialExecutor()
    opts = GenerateOptions(tasks=["AbsMath"], out=out, model="forced", **kw)
    return await generation(opts, cfg, b, settings, executor=executor, on_line=on_line)


@pytest.fixture(scope="module")
def planned_run(forced: Forced, tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Path, dict[str, Any]]]:
    out = tmp_path_factory.mktemp("bench-model") / "out"
    b = backend(forced)
    cfg = loop_config(load_settings(forced.root), b, None, rounds=3, max_tokens=1800, concurrency=2,
                      grammar=planned)
    summary = asyncio.run(_generate(forced, out, cfg, cases=[0, 8], samples=3, executor=LocalPoolExecutor(2)))
    yield out, summary


def test_every_instance_and_sample_runs_its_planned_rounds(planned_run: tuple[Path, dict[str, Any]]) -> None:
    out, summary = planned_run
    lines = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]
    got: dict[tuple[int, int], list[str]] = {}
    for ln in sorted(lines, key=lambda x: (x["case"], x["sample"], x["round"])):
        got.setdefault((ln["case"], ln["sample"]), []).append(ln["status"])
    ok = {"ok": "pass", "broken": "compile_error"}
    for key, plan in PLAN.items():
        assert [s if s != "no_work" else "wrong_answer" for s in got[key]] == \
            [ok.get(p, "wrong_answer") for p in plan], key
    assert summary["instances"] == 2 and summary["samples"] == 6 and summary["rounds_run"] == 12


def test_pass_at_k_after_each_round_matches_the_hand_computed_values(planned_run: tuple[Path, dict[str, Any]]) -> None:
    out, summary = planned_run
    lines = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]
    table = summarise_rounds(lines, {"rounds": 3}, ks=(1, 2, 10))["pass_at_k"]
    rows = {(r["level"], r["round"]): r for r in table}
    # case 0: compiled by round 0/1/2: 1, 3, 3 of 3; correct: 1, 2, 2.  case 8: compiled 2, 2, 2; correct 1, 2, 2.
    # pass@1 = c/n; pass@2 = 1 - C(n-c, 2)/C(n, 2) (c=1: 2/3, c>=2: 1); pass@10 with n=3 is pass@3 (c>=1: 1)
    expect = {0: {"compile": (1 / 2, (2 / 3 + 1) / 2, 1.0), "correct": (1 / 3, 2 / 3, 1.0)},
              1: {"compile": (5 / 6, 1.0, 1.0), "correct": (2 / 3, 1.0, 1.0)},
              2: {"compile": (5 / 6, 1.0, 1.0), "correct": (2 / 3, 1.0, 1.0)}}
    for level in (1, "all"):
        for r, want in expect.items():
            for what, (p1, p2, p10) in want.items():
                got = rows[(level, r)][what]
                assert (got["1"], got["2"], got["10"]) == pytest.approx((p1, p2, p10), abs=1e-4), (level, r, what)
    assert summary["pass_at_k"][0]["correct"]["1"] == pytest.approx(1 / 3, abs=1e-4)
    per_round = summary["error_classes_per_round"]
    assert sum(per_round["0"].values()) == 4 and per_round["0"].get("precision") == 1  # 3 broken, 1 empty
    assert sum(per_round["2"].values()) == 2  # case 0 sample 2 (empty), case 8 sample 1 (broken)
    (task,) = summary["tasks"]
    assert task["rounds"] == 12 and task["tokens"] > 0 and task["score"] == pytest.approx(100 * 4 / 6, abs=0.01)


def _view(lines: list[dict[str, Any]]) -> list[tuple[Any, ...]]:
    keys = ("status", "compiled", "correct", "passed_cases", "cases", "error_class", "estimate_us", "kept")
    return sorted((ln["case"], ln["sample"], ln["round"], *(ln[k] for k in keys)) for ln in lines)


@pytest.mark.filterwarnings("ignore:.*local mode:DeprecationWarning")
def test_on_ray_the_rounds_and_metrics_are_the_local_pools(forced: Forced, planned_run: tuple[Path, dict[str, Any]],
                                                           tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Case 0's three samples again (6 rounds in 2 batches of 3 and 2 answers: sample 2's round 2 answers the kernel
    of its round 1 again, which is not run again), each round's batch run as Ray tasks, on one Ray started once for
    the run (ray.init counted) and shut down when the run's executor is closed."""
    import ray

    out, _summary = planned_run
    b = backend(forced)
    cfg = loop_config(load_settings(forced.root), b, None, rounds=3, max_tokens=1800, concurrency=2,
                      grammar=planned)
    ray_out = tmp_path / "ray"
    inits: list[dict[str, Any]] = []
    real_init = ray.init

    def counted_init(**kwargs: Any) -> Any:
        inits.append(kwargs)
        return real_init(**kwargs)

    monkeypatch.setattr(ray, "init", counted_init)
    batches: list[int] = []
    with RayExecutor(local_mode=True, num_cpus=1) as executor:
        real_run = executor._run
        monkeypatch.setattr(executor, "_run", lambda r, jobs, on: (batches.append(len(jobs)), real_run(r, jobs, on)))
        summary = asyncio.run(_generate(forced, ray_out, cfg, cases=[0], samples=3, executor=executor))
        assert ray.is_initialized()  # kept between the batches
    assert batches == [3, 2] and len(inits) == 1, (batches, inits)
    assert not ray.is_initialized()  # the executor's close shut down the Ray it started
    on_ray = [json.loads(x) for x in (ray_out / "results.jsonl").read_text().splitlines()]
    pooled = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines() if json.loads(x)["case"] == 0]
    assert len(on_ray) == 6 and _view(on_ray) == _view(pooled)
    ray_sum, pool_sum = summarise_rounds(on_ray, {"rounds": 3}), summarise_rounds(pooled, {"rounds": 3})
    for key in ("pass_at_k", "error_classes_per_round", "fast_p", "score"):
        assert ray_sum[key] == pool_sum[key], key
    assert summary["rounds_run"] == 6 and sum(summary["error_classes_per_round"]["0"].values()) == 2


def test_an_interrupted_run_resumes_where_it_stopped(forced: Forced, tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "out"
    b = backend(forced)
    cfg = loop_config(load_settings(forced.root), b, None, rounds=3, max_tokens=1800)
    grammars = write_grammars(tmp_path, [SHORT["broken"], SHORT["empty"], answer(CORRECT)])
    cfg = replace(cfg, grammar=lambda r, _a: grammars[min(r, 2)].read_text())

    def interrupt(_line: dict[str, Any]) -> None:
        raise KeyboardInterrupt  # the user's Ctrl-C once the first round is stored

    with pytest.raises(KeyboardInterrupt):
        asyncio.run(_generate(forced, out, cfg, on_line=interrupt))
    first = (out / "results.jsonl").read_text().splitlines()
    assert len(first) == 1 and json.loads(first[0])["status"] == "compile_error"
    args = ["bench", "run", "--candidates", "model", "--task", "AbsMath", "--model", str(forced.gguf), "--rounds", "3",
            "--max-cases", "1", "--out", str(out), "--no-memory", "--executor", "serial", "--json"]
    for g in grammars:
        args += ["--grammar", str(g)]
    monkeypatch.setenv("AKGEN_GENERATE_MAX_TOKENS", "1800")  # the default (8192) leaves too little of the context
    monkeypatch.chdir(forced.root)
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 0, res.output
    summary = json.loads(res.stdout)
    lines = (out / "results.jsonl").read_text().splitlines()
    assert lines[0] == first[0] and len(lines) == 3, res.output[-3000:]  # round 0 as it was, rounds 1 and 2 now
    assert summary["resumed_rounds"] == 1
    assert [json.loads(x)["status"] for x in lines][2] == "pass"
    assert "'Absolute' is not a member" in json.loads(lines[0])["feedback"]
    report = CliRunner().invoke(app, ["bench", "report", str(out), "--json"])  # rebuilt from results.jsonl alone
    assert report.exit_code == 0, report.output
    assert json.loads(report.stdout)["pass_at_k"] == summary["pass_at_k"]
