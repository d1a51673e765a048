from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from akgen_lsp.model.backends.base import BackendError, GenParams, Prompt
from akgen_lsp.model.backends.llama_cpp import LlamaCppBackend

pytest.importorskip("llama_cpp", reason="llama-cpp-python is not installed")

PROMPT = Prompt("<|fim_prefix|>int main() {\n    int x = <|fim_suffix|>;\n}<|fim_middle|>")


async def loaded(path: Path) -> LlamaCppBackend:
    b = LlamaCppBackend(str(path), n_ctx=512)
    await b.load()
    return b


async def test_streams_one_chunk_per_token_and_honours_max_tokens(tiny_gguf: Path) -> None:
    b = await loaded(tiny_gguf)
    gen = b.stream(PROMPT, GenParams(max_tokens=12, temperature=0.0))
    chunks = [c async for c in gen]
    assert gen.stats.tokens == 12
    assert gen.stats.finish_reason == "length"
    assert 1 <= len(chunks) <= 12
    assert gen.stats.first_token_ms is not None and gen.stats.first_token_ms <= gen.stats.total_ms
    assert gen.stats.prompt_tokens and gen.stats.prompt_tokens > 5


async def test_stop_string_ends_generation_and_is_not_emitted(tiny_gguf: Path) -> None:
    b = await loaded(tiny_gguf)
    full = await b.stream(PROMPT, GenParams(max_tokens=40, temperature=0.0)).text()
    printable = [i for i in range(5, len(full) - 2) if full[i : i + 2].isprintable() and "\ufffd" not in full[i : i + 2]]
    assert printable, f"the tiny model wrote nothing usable as a stop: {full!r}"
    i = printable[0]
    stop = full[i : i + 2]
    gen = b.stream(PROMPT, GenParams(max_tokens=40, temperature=0.0, stop=(stop,)))
    text = await gen.text()
    assert text == full[: full.find(stop)]
    assert gen.stats.finish_reason == "stop"
    assert gen.stats.tokens < 40


async def test_cancel_mid_stream_stops_the_worker_within_a_few_tokens(tiny_gguf: Path) -> None:
    b = await loaded(tiny_gguf)
    gen = b.stream(PROMPT, GenParams(max_tokens=480, temperature=0.8))
    seen = 0
    async for _ in gen:
        seen += 1
        if seen == 3:
            break
    at_close = gen.stats.tokens
    await gen.aclose()
    await asyncio.sleep(0.3)  # the worker had every chance to go on
    assert gen.stats.tokens <= at_close + 2
    assert gen.stats.tokens < 480
    assert gen.stats.finish_reason == "cancelled"
    # the shared model is free again: a new generation runs to its end
    again = b.stream(PROMPT, GenParams(max_tokens=5, temperature=0.0))
    await again.text()
    assert again.stats.tokens == 5


async def test_cancelling_the_consumer_task_stops_the_worker(tiny_gguf: Path) -> None:
    b = await loaded(tiny_gguf)
    gen = b.stream(PROMPT, GenParams(max_tokens=480, temperature=0.8))
    started = asyncio.Event()

    async def consume() -> None:
        async with gen:  # the contract: a consumer closes what it iterates (the service does it in `finally`)
            async for _ in gen:
                started.set()
                await asyncio.sleep(0.01)

    task = asyncio.create_task(consume())
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    at_cancel = gen.stats.tokens
    await asyncio.sleep(0.3)
    assert gen.stats.tokens <= at_cancel + 2
    assert gen.stats.tokens < 480


async def test_second_request_reuses_the_prompt_cache(tiny_gguf: Path) -> None:
    b = await loaded(tiny_gguf)
    await b.stream(PROMPT, GenParams(max_tokens=3, temperature=0.0)).text()
    longer = Prompt(PROMPT.text + "x")
    gen = b.stream(longer, GenParams(max_tokens=3, temperature=0.0))
    await gen.text()
    assert gen.stats.reused_prompt_tokens is not None
    assert gen.stats.reused_prompt_tokens >= (gen.stats.prompt_tokens or 0) - 3


async def test_model_is_loaded_once_and_shared(tiny_gguf: Path) -> None:
    a = await loaded(tiny_gguf)
    b = await loaded(tiny_gguf)
    assert a._shared is b._shared


async def test_missing_file_is_a_clear_error(tmp_path: Path) -> None:
    b = LlamaCppBackend(str(tmp_path / "nope.gguf"))
    with pytest.raises(BackendError) as err:
        await b.load()
    assert err.value.kind == "missing"
    assert "akgen.model.path" in str(err.value)


async def test_corrupt_file_is_a_clear_error(tmp_path: Path, tiny_gguf: Path) -> None:
    bad = tmp_path / "bad.gguf"
    bad.write_bytes(b"not a model at all" * 10)
    with pytest.raises(BackendError) as err:
        await LlamaCppBackend(str(bad)).load()
    assert err.value.kind == "corrupt"
    truncated = tmp_path / "truncated.gguf"
    truncated.write_bytes(tiny_gguf.read_bytes()[:5000])
    with pytest.raises(BackendError) as err2:
        await LlamaCppBackend(str(truncated)).load()
    assert err2.value.kind == "corrupt"
    assert "convert" in str(err2.value)


async def test_a_prompt_longer_than_the_context_keeps_its_end(tiny_gguf: Path) -> None:
    b = LlamaCppBackend(str(tiny_gguf), n_ctx=256)
    await b.load()
    long = Prompt("<|fim_prefix|>" + "int a = 1;\n" * 200 + "<|fim_suffix|>}\n<|fim_middle|>")
    gen = b.stream(long, GenParams(max_tokens=16, temperature=0.0))
    await gen.text()
    assert gen.stats.tokens == 16
    assert gen.stats.prompt_tokens == 256 - 16


async def test_missing_library_is_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "llama_cpp", None)  # import llama_cpp -> ImportError
    with pytest.raises(BackendError) as err:
        await LlamaCppBackend(str(tmp_path / "other.gguf"), n_ctx=128).load()
    assert err.value.kind == "dependency" and "pip install" in str(err.value)


async def test_a_grammar_forces_the_text(tiny_gguf: Path) -> None:
    b = await loaded(tiny_gguf)
    grammar = 'root ::= "DataCopy(zGm[0], zLocal, 64);"'
    text = await b.stream(PROMPT, GenParams(max_tokens=40, temperature=0.0, grammar=grammar)).text()
    assert text == "DataCopy(zGm[0], zLocal, 64);"


async def test_a_broken_grammar_is_a_clear_error(tiny_gguf: Path) -> None:
    b = await loaded(tiny_gguf)
    with pytest.raises(BackendError, match=r"model\.grammar"):
        await b.stream(PROMPT, GenParams(max_tokens=4, grammar="root ::= (")).text()
