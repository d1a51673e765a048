"""CompletionService end to end: the pipeline over scripted and real backends, fallbacks and cancellation."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import pytest

from akgen_lsp.ascendc.catalog import Catalog
from akgen_lsp.config import Settings, defaults
from akgen_lsp.model.backends.base import Backend, BackendError, Generation, GenParams, GenStats, Prompt
from akgen_lsp.model.registry import load_registry
from akgen_lsp.model.service import CompletionService

KERNEL = (Path(__file__).with_name("data") / "kernel_add.cpp").read_text(encoding="utf-8")
KERNEL_BLANK_LINE = 14  # 0-based: the indented blank line in Compute()

TYPING_LINE = KERNEL.replace("        \n    }", "        Ad\n    }")


class Scripted(Backend):
    """A backend that streams given chunks (with a delay each) and records what it was asked and when it stopped."""

    name = "scripted"

    def __init__(self, chunks: Sequence[str], delay_s: float = 0.0, fail: Exception | None = None) -> None:
        super().__init__("scripted")
        self.chunks = list(chunks)
        self.delay_s = delay_s
        self.fail = fail
        self.prompts: list[Prompt] = []
        self.params: list[GenParams] = []
        self.produced = 0
        self.closed = 0

    def stream(self, prompt: Prompt, params: GenParams) -> Generation:
        self.prompts.append(prompt)
        self.params.append(params)
        stats = GenStats()

        async def gen() -> AsyncIterator[str]:
            try:
                if self.fail is not None:
                    raise self.fail
                for c in self.chunks:
                    if self.delay_s:
                        await asyncio.sleep(self.delay_s)
                    self.produced += 1
                    stats.mark_token()
                    yield c
            finally:
                self.closed += 1

        return Generation(gen(), stats)


def settings(**over: Any) -> Settings:
    base = {"completion.debounce_ms": 0, "model.name": "akgen-tiny"}
    base.update(over)
    return defaults().with_overrides(base, "test")


def service(backend: Backend | None, catalog: Catalog, **over: Any) -> CompletionService:
    return CompletionService(settings(**over), catalog=catalog, backend=backend, registry=load_registry())


async def test_model_answer_goes_through_stops_and_filters(small_catalog: Catalog) -> None:
    b = Scripted(["        pipe.", "Init();\n", "        x = 1;\n", "    }\n", "never"])
    svc = service(b, small_catalog)
    r = await svc.complete(KERNEL, "add.cpp", KERNEL_BLANK_LINE, 8)
    assert r is not None and r.source == "model"
    assert r.text == "pipe.Init();\n        x = 1;"  # indentation fixed, cut at the block's closing brace
    assert (r.start_line, r.start_character, r.end_line, r.end_character) == (KERNEL_BLANK_LINE, 8, KERNEL_BLANK_LINE, 8)
    assert b.produced == 4 and b.closed == 1  # the stream was closed as soon as the stop rule fired
    prompt = b.prompts[0].text
    assert prompt.startswith("<|fim_prefix|>// Path: add.cpp\n") and prompt.endswith("<|fim_middle|>")
    assert "AscendC::TQue::DeQue" in prompt  # retrieved context for identifiers near the cursor
    for stage in ("split", "cache", "debounce", "mode", "prompt", "first_token", "generate", "filter", "total"):
        assert stage in r.timings


async def test_typing_along_a_suggestion_costs_no_model_call(small_catalog: Catalog) -> None:
    b = Scripted(["foo(a, b);"])
    svc = service(b, small_catalog)
    text = KERNEL
    r = await svc.complete(text, "add.cpp", KERNEL_BLANK_LINE, 8)
    assert r is not None and r.text == "foo(a, b);"
    for i in range(1, 6):
        typed = text.replace("        \n    }", "        " + "foo(a, b);"[:i] + "\n    }")
        r2 = await svc.complete(typed, "add.cpp", KERNEL_BLANK_LINE, 8 + i)
        assert r2 is not None and r2.source == "cache" and r2.text == "foo(a, b);"[i:]
    assert len(b.prompts) == 1
    assert svc.stats.cache_hits == 5


async def test_single_line_mode_asks_the_backend_to_stop_at_a_newline(small_catalog: Catalog) -> None:
    b = Scripted(["(src0);", "\n", "more"])
    svc = service(b, small_catalog)
    line = KERNEL.split("\n")[13]
    r = await svc.complete(KERNEL, "add.cpp", 13, len(line))
    assert "\n" in b.params[0].stop
    assert r is not None and r.text == "(src0);"


async def test_no_suggestion_in_the_middle_of_a_word(small_catalog: Catalog) -> None:
    b = Scripted(["x"])
    svc = service(b, small_catalog)
    assert await svc.complete(KERNEL, "add.cpp", 13, 30) is None
    assert b.prompts == []


async def test_new_request_cancels_the_previous_one_of_the_document(small_catalog: Catalog) -> None:
    b = Scripted(["a"] * 200, delay_s=0.01)
    svc = service(b, small_catalog)
    first = asyncio.create_task(svc.complete(KERNEL, "add.cpp", KERNEL_BLANK_LINE, 8))
    await asyncio.sleep(0.05)
    quick = Scripted(["b = 1;"])
    svc._backend = quick
    second = await svc.complete(KERNEL.replace("        \n", "        \n\n"), "add.cpp", KERNEL_BLANK_LINE, 8)
    with pytest.raises(asyncio.CancelledError):
        await first
    assert b.closed == 1 and b.produced < 200
    assert second is not None and second.text == "b = 1;"
    assert svc.stats.cancelled == 1


async def test_cancelling_the_request_task_stops_generation(small_catalog: Catalog) -> None:
    b = Scripted(["a"] * 500, delay_s=0.005)
    svc = service(b, small_catalog)
    task = asyncio.create_task(svc.complete(KERNEL, "add.cpp", KERNEL_BLANK_LINE, 8))
    await asyncio.sleep(0.05)
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    produced = b.produced
    await asyncio.sleep(0.05)
    assert b.closed == 1 and b.produced == produced < 500


async def test_no_model_configured_answers_from_the_catalog(small_catalog: Catalog) -> None:
    svc = CompletionService(settings(), catalog=small_catalog)  # model.backend = none
    r = await svc.complete(TYPING_LINE, "add.cpp", KERNEL_BLANK_LINE, 10)
    assert r is not None and r.source == "catalog" and r.text == "d(dst, src0, src1, count)"


async def test_missing_model_falls_back_and_logs_once(small_catalog: Catalog, tmp_path: Path,
                                                      caplog: pytest.LogCaptureFixture) -> None:
    svc = CompletionService(
        settings(**{"model.backend": "llama_cpp", "model.path": str(tmp_path / "x.gguf")}), catalog=small_catalog
    )
    with caplog.at_level(logging.WARNING, logger="akgen.model"):
        for _ in range(3):
            r = await svc.complete(TYPING_LINE, "add.cpp", KERNEL_BLANK_LINE, 10)
            assert r is not None and r.source == "catalog"
    messages = [rec.getMessage() for rec in caplog.records]
    assert len(messages) == 1 and "model file not found" in messages[0] and "akgen.model.path" in messages[0]
    assert svc.last_error and "x.gguf" in svc.last_error


async def test_corrupt_model_falls_back(small_catalog: Catalog, tmp_path: Path) -> None:
    bad = tmp_path / "broken.gguf"
    bad.write_bytes(b"GGUF" + b"\0" * 64)
    svc = CompletionService(settings(**{"model.backend": "llama_cpp", "model.path": str(bad)}), catalog=small_catalog)
    r = await svc.complete(TYPING_LINE, "add.cpp", KERNEL_BLANK_LINE, 10)
    assert r is not None and r.source == "catalog"
    assert "could not load" in (svc.last_error or "")


async def test_server_down_falls_back_then_retries_later(small_catalog: Catalog) -> None:
    svc = CompletionService(
        settings(**{"model.backend": "openai", "model.endpoint": "http://127.0.0.1:9/v1", "model.name": "m"}),
        catalog=small_catalog,
    )
    r = await svc.complete(TYPING_LINE, "add.cpp", KERNEL_BLANK_LINE, 10)
    assert r is not None and r.source == "catalog"
    assert "cannot reach the model server" in (svc.last_error or "")
    await svc.close()
    # a server that goes down mid-session: the catalog answers, then the model again once the retry time is over
    b = Scripted(["pipe.Init();"], fail=BackendError("cannot reach the model server", "unavailable", transient=True))
    svc2 = service(b, small_catalog)
    r1 = await svc2.complete(KERNEL, "add.cpp", KERNEL_BLANK_LINE, 8)
    assert r1 is None or r1.source == "catalog"
    assert svc2.last_error
    b.fail = None
    r2 = await svc2.complete(KERNEL, "add.cpp", KERNEL_BLANK_LINE, 8)
    assert r2 is None or r2.source == "catalog"  # still waiting to retry
    assert len(b.prompts) == 1
    svc2._retry_at = 0.0  # the retry time is over
    r3 = await svc2.complete(KERNEL, "add.cpp", KERNEL_BLANK_LINE, 8)
    assert r3 is not None and r3.source == "model" and r3.text == "pipe.Init();"


async def test_a_library_failure_mid_generation_falls_back(small_catalog: Catalog) -> None:
    b = Scripted([], fail=RuntimeError("llama_decode returned -1"))
    svc = service(b, small_catalog)
    r = await svc.complete(TYPING_LINE, "add.cpp", KERNEL_BLANK_LINE, 10)
    assert r is not None and r.source == "catalog"
    assert "failed while generating" in (svc.last_error or "")


async def test_a_bug_in_a_stage_returns_nothing_instead_of_raising(small_catalog: Catalog,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    import akgen_lsp.model.service as service_mod

    def broken(*args: object) -> str:
        raise IndexError("oops")

    monkeypatch.setattr(service_mod, "decide_mode", broken)
    svc = service(Scripted(["x"]), small_catalog)
    assert await svc.complete(KERNEL, "add.cpp", KERNEL_BLANK_LINE, 8) is None
    assert svc.stats.errors == 1


async def test_timeout_falls_back_to_the_catalog(small_catalog: Catalog) -> None:
    b = Scripted(["a"] * 100, delay_s=0.05)
    svc = service(b, small_catalog, **{"model.timeout_s": 0.2})
    r = await svc.complete(TYPING_LINE, "add.cpp", KERNEL_BLANK_LINE, 10)
    assert r is not None and r.source == "catalog"
    assert svc.stats.timeouts == 1 and b.closed == 1
    assert "akgen.model.timeout_s" in (svc.last_error or "")


async def test_chat_answer_without_code_falls_back(small_catalog: Catalog) -> None:
    b = Scripted(["I am not sure what you would like me to write here."])
    svc = service(b, small_catalog, **{"model.name": "KernelGen-LM-4B"})
    r = await svc.complete(TYPING_LINE, "add.cpp", KERNEL_BLANK_LINE, 10)
    assert r is not None and r.source == "catalog"
    assert "<|im_start|>assistant" in b.prompts[0].text  # the chat prompt was used
    good = Scripted(["d(xLocal, xLocal, xLocal, 256);\n", "```"])
    svc2 = service(good, small_catalog, **{"model.name": "KernelGen-LM-4B"})
    r2 = await svc2.complete(TYPING_LINE, "add.cpp", KERNEL_BLANK_LINE, 10)
    assert r2 is not None and r2.source == "model" and r2.text == "d(xLocal, xLocal, xLocal, 256);"


async def test_disabled_completion_returns_nothing(small_catalog: Catalog) -> None:
    svc = service(Scripted(["x"]), small_catalog, **{"completion.enable": False})
    assert await svc.complete(KERNEL, "add.cpp", KERNEL_BLANK_LINE, 8) is None


async def test_real_tiny_gguf_end_to_end(tiny_gguf: Path, small_catalog: Catalog,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AKGEN_MODEL_PATH", str(tiny_gguf))
    monkeypatch.setenv("AKGEN_MODEL_BACKEND", "llama_cpp")
    monkeypatch.setenv("AKGEN_COMPLETION_DEBOUNCE_MS", "0")
    from akgen_lsp.config import load_settings

    s = load_settings(env=dict(__import__("os").environ))
    svc = CompletionService(s, catalog=small_catalog)
    assert svc.spec.name == "akgen-tiny"
    results = [await svc.complete(KERNEL, "add.cpp", KERNEL_BLANK_LINE, 8) for _ in range(2)]
    assert svc.stats.model_calls == 1  # the second is a cache hit (or both empty after filtering)
    for r in results:
        if r is not None:
            assert r.source in ("model", "cache") and r.start_line == KERNEL_BLANK_LINE
            assert "\n}" not in r.text
    first = results[0]
    if first is not None and len(first.text) > 1:
        typed = KERNEL.replace("        \n    }", "        " + first.text[0] + "\n    }")
        r3 = await svc.complete(typed, "add.cpp", KERNEL_BLANK_LINE, 9)
        assert r3 is not None and r3.source == "cache" and r3.text == first.text[1:]
        assert svc.stats.model_calls == 1
    await svc.close()


async def test_warm_loads_the_model_and_status_reports_it(tiny_gguf: Path, small_catalog: Catalog) -> None:
    svc = CompletionService(settings(**{"model.backend": "llama_cpp", "model.path": str(tiny_gguf)}),
                            catalog=small_catalog)
    assert svc.status()["loaded"] is False
    await svc.warm()
    st = svc.status()
    assert st["loaded"] is True and st["model"] == "akgen-tiny" and st["error"] is None
    await svc.close()


async def test_relative_model_path_is_found_from_the_config_file(tiny_gguf: Path, tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch,
                                                                   small_catalog: Catalog) -> None:
    from akgen_lsp.config import load_settings

    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "x.gguf").write_bytes(tiny_gguf.read_bytes())
    (tmp_path / "akgen.toml").write_text('[model]\nbackend = "llama_cpp"\npath = "models/x.gguf"\n')
    monkeypatch.chdir(tmp_path.parent)  # the server's working directory is elsewhere
    svc = CompletionService(load_settings(tmp_path, env={}), catalog=small_catalog)
    assert svc.settings["model.path"] == str(tmp_path / "models" / "x.gguf")
    assert await svc.backend() is not None
    await svc.close()
