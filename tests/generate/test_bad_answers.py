"""Bad model behaviour through the loop with real parts: nonsense (no kernel), an answer that never stops (cut at
max_tokens), one past the time limit, the OpenAI backend against `python -m llama_cpp.server` with two requests in
flight, and a server that dies mid-stream (the attempt ends with the reason; nothing is evaluated)."""

from __future__ import annotations

import asyncio
import json
import shutil
from pathlib import Path
from typing import Any

from conftest import llama_server_process  # tests/conftest.py

from akgen_lsp.bench.executor import SerialExecutor
from akgen_lsp.bench.runner import default_suite
from akgen_lsp.config import load_settings
from akgen_lsp.generate.bench import GenerateOptions, generation, loop_config
from akgen_lsp.model.backends.base import Backend
from akgen_lsp.model.backends.llama_cpp import LlamaCppBackend
from akgen_lsp.model.backends.openai import OpenAIBackend
from akgen_lsp.model.tiny import literal_grammar

from .conftest import CORRECT, N_CTX, WRONG, Forced, answer


async def _run(forced: Forced, out: Path, backend: Backend, *, progress: Any = None, suite: Path | None = None,
               **cfg: Any) -> dict[str, Any]:
    await backend.load()
    settings = load_settings(forced.root)
    samples = int(cfg.pop("samples", 1))
    config = loop_config(settings, backend, None, **cfg)
    opts = GenerateOptions(tasks=["AbsMath"], out=out, model="forced", samples=samples)
    if suite is not None:
        opts.suite = suite
    try:
        return await generation(opts, config, backend, settings, executor=SerialExecutor(), progress=progress)
    finally:
        await backend.close()


def _lines(out: Path) -> list[dict[str, Any]]:
    return [json.loads(x) for x in (out / "results.jsonl").read_text().splitlines()]


def test_nonsense_gets_the_layout_again_and_is_never_evaluated(forced: Forced, tmp_path: Path) -> None:
    says = "I am sorry, I cannot write Ascend C kernels."
    b = LlamaCppBackend(str(forced.gguf), n_ctx=N_CTX, n_threads=1)
    summary = asyncio.run(_run(forced, tmp_path, b, rounds=2, max_tokens=200,
                               grammar=lambda _r, _a: literal_grammar(says)))
    lines = _lines(tmp_path)
    assert [ln["status"] for ln in lines] == ["no_code", "no_code"] and all(ln["eval_s"] == 0 for ln in lines)
    assert "holds no kernel I could read" in lines[0]["feedback"] and "<kernel_impl>" in lines[0]["feedback"]
    assert summary["attempts"][0]["passed_at"] is None and summary["best"] == []


def test_a_model_that_loops_gets_the_earlier_outcome_without_another_run(forced: Forced, tmp_path: Path) -> None:
    """Rounds 0 and 1 answer the same wrong kernel (with other words around it), round 2 the correct one: round 1
    is not run again (no simulator time, its note names round 0), its outcome is round 0's, and the feedback says
    the kernel is the same one; the attempt still passes at round 2."""
    answers = [answer(WRONG, "Negate each element."), answer(WRONG, "Here it is again, negated."), answer(CORRECT)]
    b = LlamaCppBackend(str(forced.gguf), n_ctx=N_CTX, n_threads=1)
    summary = asyncio.run(_run(forced, tmp_path, b, rounds=3, max_tokens=1800,
                               grammar=lambda r, _a: literal_grammar(answers[min(r, 2)])))
    first, again, last = _lines(tmp_path)
    assert first["status"] == again["status"] == "wrong_answer" and last["status"] == "pass"
    assert first["eval_s"] > 0 and again["eval_s"] == 0 and last["eval_s"] > 0
    assert "the same files as round 0: not run again" in again["note"]
    assert again["feedback"].startswith("Your answer is the kernel of round 0 again, so it was not run again")
    assert not first["feedback"].startswith("Your answer is the kernel")
    assert summary["attempts"][0]["passed_at"] == 2


def test_an_answer_that_never_stops_is_cut_and_one_too_slow_is_timed_out(forced: Forced, tmp_path: Path) -> None:
    b = LlamaCppBackend(str(forced.gguf), n_ctx=N_CTX, n_threads=1)
    asyncio.run(_run(forced, tmp_path / "cut", b, rounds=1, max_tokens=48))  # no grammar: random text, no end
    (cut,) = _lines(tmp_path / "cut")
    assert cut["finish"] == "length" and cut["tokens"] == 48 and "cut at max_tokens (48)" in cut["note"]
    assert "(the answer was cut at the token limit)" in cut["problem"]
    b = LlamaCppBackend(str(forced.gguf), n_ctx=N_CTX, n_threads=1)
    asyncio.run(_run(forced, tmp_path / "slow", b, rounds=1, max_tokens=8000, timeout_s=0.5))
    (slow,) = _lines(tmp_path / "slow")
    assert slow["finish"] == "timeout" and "cut at the time limit (0.5 s)" in slow["note"]
    assert slow["model_s"] < 5


def test_a_task_without_a_reference_answer_is_generated_all_the_same(forced: Forced, tmp_path: Path) -> None:
    """The checkout ships only question/ and validation/ (NPUKernelBench's public layout for some tasks): the loop
    never reads answer/, so the task is generated and checked against its validation as usual."""
    task = tmp_path / "suite" / "level1" / "Math" / "AbsMath"
    shutil.copytree(default_suite() / "tasks" / "level1" / "Math" / "AbsMath", task,
                    ignore=shutil.ignore_patterns("answer"))
    b = LlamaCppBackend(str(forced.gguf), n_ctx=N_CTX, n_threads=1)
    summary = asyncio.run(_run(forced, tmp_path / "out", b, suite=tmp_path / "suite", rounds=1, max_tokens=1800,
                               grammar=lambda _r, _a: literal_grammar(answer(CORRECT))))
    assert not (task / "answer").exists()
    assert summary["attempts"][0]["passed_at"] == 0 and summary["skipped"] == []


def test_the_openai_backend_with_two_requests_in_flight(forced: Forced, tmp_path: Path) -> None:
    events: list[str] = []
    # llama-cpp-python's server cuts a running completion short when the next request arrives, unless told not to
    with llama_server_process(forced.gguf, tmp_path / "server.log", n_ctx=N_CTX,
                              extra=("--interrupt_requests", "False")) as server:
        b = OpenAIBackend(server.base_url, model="forced", timeout_s=300.0)
        summary = asyncio.run(_run(forced, tmp_path / "out", b, rounds=1, max_tokens=1800, concurrency=2,
                                   samples=2, progress=events.append,
                                   grammar=lambda _r, _a: literal_grammar(answer(CORRECT))))
    lines = _lines(tmp_path / "out")
    assert sorted((ln["sample"], ln["status"]) for ln in lines) == [(0, "pass"), (1, "pass")]
    asked = [i for i, e in enumerate(events) if "asking the model" in e]
    first_result = next(i for i, e in enumerate(events) if "round 0:" in e)
    assert len(asked) == 2 and max(asked) < first_result  # both requests went out before either round was over
    assert summary["pass_at_k"][0]["correct"]["1"] == 1.0


def test_a_server_that_dies_mid_stream_ends_the_attempt_with_the_reason(forced: Forced, tmp_path: Path) -> None:
    with llama_server_process(forced.gguf, tmp_path / "server.log", n_ctx=N_CTX) as server:
        loop_holder: dict[str, Any] = {}

        def on_progress(message: str) -> None:
            if "asking the model" in message:  # the request is out: kill the server a moment later
                loop_holder["loop"].call_later(1.0, server.proc.kill)

        async def go() -> dict[str, Any]:
            loop_holder["loop"] = asyncio.get_running_loop()
            b = OpenAIBackend(server.base_url, model="forced", timeout_s=30.0)
            return await _run(forced, tmp_path / "out", b, rounds=2, max_tokens=20000, progress=on_progress)

        summary = asyncio.run(go())
    (a,) = summary["attempts"]
    assert a["stopped"] and a["stopped"].startswith("the model failed:") and a["passed_at"] is None
    assert summary["stopped"] == [a["stopped"]]
    # the round that broke off is not stored: a rerun asks it again (the server may be back)
    assert not (tmp_path / "out" / "results.jsonl").is_file() or _lines(tmp_path / "out") == []
