from __future__ import annotations

import asyncio
import json
import socket
import time
from typing import Any

import httpx
import pytest

from akgen_lsp.model.backends.base import BackendError, GenParams, Prompt
from akgen_lsp.model.backends.openai import OpenAIBackend

Server = Any  # tests/model/conftest.py: Server(base_url, log, proc)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


FIM = Prompt("<|fim_prefix|>int main() {\n    int x = <|fim_suffix|>;\n}<|fim_middle|>")
CHAT = Prompt("", messages=({"role": "user", "content": "write x"},), kind="chat")


async def test_completions_stream_from_a_real_server(llama_server: Server) -> None:
    b = OpenAIBackend(llama_server.base_url)
    try:
        await b.load()
        assert b.model  # picked from /v1/models
        gen = b.stream(FIM, GenParams(max_tokens=10, temperature=0.0))
        chunks = [c async for c in gen]
        assert gen.stats.tokens == 10
        assert gen.stats.finish_reason == "length"
        assert chunks
    finally:
        await b.close()


async def test_chat_completions_stream_from_a_real_server(llama_server: Server) -> None:
    b = OpenAIBackend(llama_server.base_url)
    try:
        await b.load()
        gen = b.stream(CHAT, GenParams(max_tokens=8, temperature=0.0))
        await gen.text()
        assert gen.stats.tokens == 8
    finally:
        await b.close()


async def test_stop_is_honoured_by_the_server(llama_server: Server) -> None:
    b = OpenAIBackend(llama_server.base_url)
    try:
        await b.load()
        full = await b.stream(FIM, GenParams(max_tokens=30, temperature=0.0)).text()
        candidates = [i for i in range(4, len(full) - 2) if full[i : i + 2].isprintable() and "\ufffd" not in full[i : i + 2]]
        assert candidates, full
        stop = full[candidates[0] : candidates[0] + 2]
        gen = b.stream(FIM, GenParams(max_tokens=30, temperature=0.0, stop=(stop,)))
        text = await gen.text()
        assert text == full[: full.find(stop)]
        assert gen.stats.tokens < 30
    finally:
        await b.close()


async def test_closing_the_stream_stops_the_server(llama_server: Server) -> None:
    b = OpenAIBackend(llama_server.base_url)
    try:
        await b.load()
        before = llama_server.log_text().count("disconnected")
        gen = b.stream(FIM, GenParams(max_tokens=900, temperature=0.9))
        n = 0
        async for _ in gen:
            n += 1
            if n == 3:
                break
        await gen.aclose()
        deadline = time.monotonic() + 10
        while llama_server.log_text().count("disconnected") <= before and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        assert llama_server.log_text().count("disconnected") > before, "the server never saw the stream close"
        # and it serves the next request
        again = b.stream(FIM, GenParams(max_tokens=4, temperature=0.0))
        await again.text()
        assert again.stats.tokens == 4
    finally:
        await b.close()


async def test_server_down_is_a_transient_clear_error() -> None:
    b = OpenAIBackend(f"http://127.0.0.1:{free_port()}/v1", "m", retries=1, backoff_s=0.01)
    try:
        with pytest.raises(BackendError) as err:
            await b.load()
        assert err.value.kind == "unavailable" and err.value.transient
        assert "akgen.model.endpoint" in str(err.value)
        with pytest.raises(BackendError) as err2:
            await b.stream(FIM, GenParams(max_tokens=4)).text()
        assert err2.value.kind == "unavailable"
    finally:
        await b.close()


async def test_a_server_that_never_answers_times_out() -> None:
    async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await asyncio.sleep(30)

    server = await asyncio.start_server(silent, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    b = OpenAIBackend(f"http://127.0.0.1:{port}/v1", "m", timeout_s=0.3)
    try:
        t0 = time.monotonic()
        with pytest.raises(BackendError) as err:
            await b.stream(FIM, GenParams(max_tokens=4)).text()
        assert err.value.kind == "timeout"
        assert "akgen.model.timeout_s" in str(err.value)
        assert time.monotonic() - t0 < 10
    finally:
        await b.close()
        server.close()


def _sse(*events: dict[str, object]) -> bytes:
    return b"".join(b"data: " + json.dumps(e).encode() + b"\n\n" for e in events) + b"data: [DONE]\n\n"


async def test_5xx_is_retried_with_backoff_then_succeeds() -> None:
    calls = []

    def handler(request: httpx.Request) -> httpx.Response:
        calls.append(request.url.path)
        if len(calls) < 3:
            return httpx.Response(503, text="busy")
        body = json.loads(request.content)
        assert body["stream"] is True and body["max_tokens"] == 4
        return httpx.Response(200, content=_sse({"choices": [{"text": "ab"}]}, {"choices": [{"text": "c"}]}))

    b = OpenAIBackend("http://model.test/v1", "m", retries=2, backoff_s=0.001, transport=httpx.MockTransport(handler))
    try:
        gen = b.stream(FIM, GenParams(max_tokens=4))
        assert await gen.text() == "abc"
        assert gen.stats.tokens == 2
        assert calls == ["/v1/completions"] * 3
    finally:
        await b.close()


async def test_persistent_5xx_and_4xx_are_clear_errors() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(500 if request.url.path.endswith("completions") else 404, text="boom")

    b = OpenAIBackend("http://model.test/v1", "m", retries=1, backoff_s=0.001, transport=httpx.MockTransport(handler))
    try:
        with pytest.raises(BackendError) as err:
            await b.stream(FIM, GenParams(max_tokens=4)).text()
        assert "500" in str(err.value) and err.value.transient
        await b.load()  # a server without /models: the configured model name is used as it is
        unnamed = OpenAIBackend("http://model.test/v1", retries=0, transport=httpx.MockTransport(handler))
        with pytest.raises(BackendError) as err2:
            await unnamed.load()
        assert "404" in str(err2.value) and "/v1" in str(err2.value)
        await unnamed.close()
    finally:
        await b.close()


async def test_api_key_comes_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[str | None] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request.headers.get("authorization"))
        return httpx.Response(200, json={"data": [{"id": "served-model"}]})

    monkeypatch.setenv("AKGEN_TEST_KEY", "sk-123")
    b = OpenAIBackend("http://model.test/v1", api_key_env="AKGEN_TEST_KEY", transport=httpx.MockTransport(handler))
    try:
        await b.load()
        assert seen == ["Bearer sk-123"]
        assert b.model == "served-model"
    finally:
        await b.close()


async def test_chat_request_turns_thinking_off_and_reads_deltas() -> None:
    bodies = []

    def handler(request: httpx.Request) -> httpx.Response:
        bodies.append(json.loads(request.content))
        return httpx.Response(200, content=_sse(
            {"choices": [{"delta": {"role": "assistant"}}]},
            {"choices": [{"delta": {"reasoning_content": "hmm"}}]},
            {"choices": [{"delta": {"content": "x = 1;"}, "finish_reason": "stop"}]},
        ))

    b = OpenAIBackend("http://model.test/v1", "m", transport=httpx.MockTransport(handler))
    try:
        gen = b.stream(CHAT, GenParams(max_tokens=4))
        assert await gen.text() == "x = 1;"
        assert bodies[0]["chat_template_kwargs"] == {"enable_thinking": False}
        assert bodies[0]["messages"][0]["content"] == "write x"
        assert gen.stats.finish_reason == "stop"
    finally:
        await b.close()


def _endless(piece: str, newline: bool = True):  # type: ignore[no-untyped-def]
    """A server that ignores max_tokens: it streams `piece` events (or one line without end) until the client goes."""

    async def body():  # type: ignore[no-untyped-def]
        for _ in range(10**7):
            if newline:
                yield b"data: " + json.dumps({"choices": [{"text": piece}]}).encode() + b"\n\n"
            else:
                yield piece.encode()

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=body(), headers={"content-type": "text/event-stream"})

    return handler


@pytest.mark.hostile
@pytest.mark.parametrize("piece", ["x", "y" * 100_000], ids=["tokens", "huge-tokens"])
async def test_a_server_that_ignores_max_tokens_is_cut(piece: str) -> None:
    b = OpenAIBackend("http://model.test/v1", "m", transport=httpx.MockTransport(_endless(piece)), chat=False)
    try:
        gen = b.stream(FIM, GenParams(max_tokens=32))
        text = await gen.text()
        assert len(text) <= 64 * 32 and gen.stats.finish_reason == "length"
    finally:
        await b.close()


@pytest.mark.hostile
async def test_a_server_that_sends_one_endless_line_is_an_error() -> None:
    b = OpenAIBackend("http://model.test/v1", "m", retries=0, chat=False,
                      transport=httpx.MockTransport(_endless("z" * 65536, newline=False)))
    try:
        gen = b.stream(FIM, GenParams(max_tokens=32))
        with pytest.raises(BackendError, match="line of more than"):
            await gen.text()
    finally:
        await b.close()
