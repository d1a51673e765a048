"""Performance rounds and the experience memory with real inference (forced by grammars): a correct but slow kernel,
then a faster one that is kept, then a slower one that is not; the kept improvement and the verified repair of a
three-round run go to the store of repairs, and a later attempt's prompts retrieve them."""

from __future__ import annotations

import asyncio
import json
import re
from pathlib import Path

import pytest

from akgen_lsp.bench.executor import SerialExecutor
from akgen_lsp.config import load_settings
from akgen_lsp.errors.store import RepairStore
from akgen_lsp.generate.attempt import Attempt
from akgen_lsp.generate.bench import GenerateOptions, generation, loop_config
from akgen_lsp.model.backends.llama_cpp import LlamaCppBackend
from akgen_lsp.model.tiny import literal_grammar

from .conftest import CORRECT, N_CTX, NO_COMPILE, ONE_CORE, WRONG, Forced, answer


def run(forced: Forced, out: Path, store: Path, plan: list[str], **cfg_over: object) -> dict:  # type: ignore[type-arg]
    async def go() -> dict:  # type: ignore[type-arg]
        b = LlamaCppBackend(str(forced.gguf), n_ctx=N_CTX, n_threads=1)
        await b.load()
        settings = load_settings(forced.root)

        def grammar(r: int, _a: Attempt) -> str:
            return literal_grammar(answer(plan[min(r, len(plan) - 1)]))

        cfg = loop_config(settings, b, None, max_tokens=1800, grammar=grammar, **cfg_over)
        opts = GenerateOptions(tasks=["AbsMath"], out=out, model="forced", memory=store)
        return await generation(opts, cfg, b, settings, executor=SerialExecutor())

    return asyncio.run(go())


@pytest.fixture(scope="module")
def perf_run(forced: Forced, tmp_path_factory: pytest.TempPathFactory) -> tuple[dict, Path]:  # type: ignore[type-arg]
    folder = tmp_path_factory.mktemp("perf")
    store = folder / "repairs.sqlite"
    # round 2: one core again, in tiles of 256 (slower, and not round 0's kernel, which would not be run again)
    slower = ONE_CORE.replace("constexpr int32_t TILE = 1024;", "constexpr int32_t TILE = 256;")
    summary = run(forced, folder / "out", store, [ONE_CORE, CORRECT, slower], rounds=1, perf_rounds=2)
    return summary, store


def test_a_faster_kernel_that_passes_is_kept_and_a_slower_one_is_not(perf_run) -> None:  # type: ignore[no-untyped-def]
    summary, _store = perf_run
    (a,) = summary["attempts"]
    assert a["passed_at"] == 0 and a["rounds"] == 3
    first, second = a["history"][0], a["history"][1]
    assert first.startswith("generate: compiles, 1/1 cases pass, est. ")
    assert second.startswith("perf: compiles, 1/1 cases pass, est. ")
    # the all-core kernel's estimate is well under the one-core kernel's (the arch profile's tables set the digits:
    # one core reads at its own measured HBM rate, [cost.dma] core_hbm_read_gbps, so its kernel is ~28 us, was 7)
    assert float(second.split("est. ")[1].split()[0]) < float(first.split("est. ")[1].split()[0]) / 4
    (best,) = summary["best"]
    assert best["round"] == 1 and Path(best["path"]).read_text() == CORRECT.rstrip() + "\n"


def test_the_perf_prompt_has_the_estimate_the_bound_and_the_kept_improvement(perf_run, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    summary, store = perf_run
    out = Path(summary["best"][0]["path"]).parents[5]
    lines = [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]
    first, second, third = (ln["feedback"] for ln in lines)
    # the estimate's digits come from the arch profile's tables: the feedback is checked for the estimate, not them
    assert re.search(r"estimated time on Ascend910B2 is \d", first) and "roofline baseline" in first
    assert "bound by" in first and "pipe utilisation:" in first and "Every case must still pass" in first
    assert re.search(r"A change that helped a kernel bound the same way \(estimate \d", second)  # the memory
    assert "Your last version was not kept: it is not faster" in third
    rows = RepairStore(store).similar("performance: bound by HBM", k=5, error_class="performance")
    assert any(r.provenance == "generate" and r.after.strip() == CORRECT.strip() for r in rows)


def test_a_verified_repair_is_remembered_and_retrieved_by_a_later_attempt(forced: Forced, tmp_path: Path) -> None:
    store = tmp_path / "repairs.sqlite"
    run(forced, tmp_path / "first", store, [NO_COMPILE, WRONG, CORRECT], rounds=3)
    remembered = RepairStore(store)
    assert remembered.count() >= 1  # round 0 -> 1 removed the build error (and got further): a verified repair
    second = run(forced, tmp_path / "second", store, [NO_COMPILE, CORRECT], rounds=2)
    lines = [json.loads(x) for x in (tmp_path / "second" / "results.jsonl").read_text().splitlines()]
    assert "### Similar errors already fixed" in lines[0]["feedback"]
    assert "Absolute" in lines[0]["feedback"].split("### Similar errors already fixed")[1]
    assert second["memory_added"] >= 0 and second["attempts"][0]["passed_at"] == 1
