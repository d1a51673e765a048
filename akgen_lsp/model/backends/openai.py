"""Any OpenAI-compatible server (vLLM, llama.cpp's server, TGI, SGLang) over httpx async streaming.

`/v1/completions` takes the prompt text as built (FIM tokens or a rendered chat template); `/v1/chat/completions`
takes the prompt's messages and lets the server apply the model's template (and, with vLLM's
``--reasoning-parser deepseek_r1``, split the reasoning off into ``reasoning_content``, which is ignored here).
Closing the generation closes the HTTP stream, which is how vLLM and llama.cpp learn to stop generating. Connection
errors and 5xx answers are retried with exponential backoff before the first token; nothing is retried after it.
"""

from __future__ import annotations

import asyncio
import json
import os
import time
from collections.abc import AsyncIterator
from typing import Any

import httpx

from akgen_lsp.model.backends.base import (
    Backend,
    BackendError,
    Generation,
    GenParams,
    GenStats,
    Prompt,
    StopScanner,
)


class OpenAIBackend(Backend):
    name = "openai"

    def __init__(
        self,
        endpoint: str,
        model: str = "",
        *,
        api_key_env: str = "OPENAI_API_KEY",
        timeout_s: float = 30.0,
        connect_timeout_s: float = 3.0,
        retries: int = 2,
        backoff_s: float = 0.2,
        chat: bool | None = None,
        transport: httpx.AsyncBaseTransport | None = None,
    ) -> None:
        super().__init__(model)
        self.endpoint = endpoint.rstrip("/")
        self.api_key_env = api_key_env
        self.timeout_s = timeout_s
        self.retries = retries
        self.backoff_s = backoff_s
        self.chat = chat  # None: chat endpoint for chat prompts, completions for the rest
        headers = {"Accept": "text/event-stream"}
        key = os.environ.get(api_key_env, "") if api_key_env else ""
        if key:
            headers["Authorization"] = f"Bearer {key}"
        self._client = httpx.AsyncClient(
            base_url=self.endpoint,
            headers=headers,
            timeout=httpx.Timeout(timeout_s, connect=connect_timeout_s),
            transport=transport,
        )

    def _url_hint(self) -> str:
        return (
            f"check that the server at {self.endpoint} is running (e.g. `vllm serve MODEL` or "
            "`python -m llama_cpp.server --model FILE`) and that akgen.model.endpoint ends in /v1"
        )

    async def load(self) -> None:
        """Ask the server for its models; pick the first when no model name is configured."""
        if not self.endpoint:
            raise BackendError(
                "no server configured; set akgen.model.endpoint to the server's base URL, e.g. http://127.0.0.1:8000/v1",
                "config",
            )
        t0 = time.perf_counter()
        try:
            resp = await self._request_with_retries("GET", "/models", None)
            data = resp.json()
        except BackendError as exc:
            if self.model and "(404" in str(exc):  # a server without /models: the configured name will do
                self.load_ms = (time.perf_counter() - t0) * 1000.0
                return
            raise
        except (ValueError, httpx.HTTPError) as exc:
            raise BackendError(
                f"{self.endpoint}/models did not answer with JSON ({exc}); {self._url_hint()}", "http"
            ) from None
        ids = [str(m.get("id")) for m in data.get("data", []) if isinstance(m, dict)]
        if not self.model:
            if not ids:
                raise BackendError(
                    f"the server at {self.endpoint} serves no model; set akgen.model.name", "config"
                )
            self.model = ids[0]
        self.load_ms = (time.perf_counter() - t0) * 1000.0

    async def _request_with_retries(
        self, method: str, path: str, body: dict[str, Any] | None
    ) -> httpx.Response:
        delay = self.backoff_s
        for attempt in range(self.retries + 1):
            try:
                resp = await self._client.request(method, path, json=body)
                if resp.status_code >= 500 and attempt < self.retries:
                    await asyncio.sleep(delay)
                    delay *= 2
                    continue
                _raise_for_status(resp, self.endpoint + path)
                return resp
            except (httpx.ConnectError, httpx.ConnectTimeout, httpx.RemoteProtocolError) as exc:
                if attempt >= self.retries:
                    raise self._unreachable(exc) from None
                await asyncio.sleep(delay)
                delay *= 2
            except httpx.TimeoutException:
                raise self._timeout_error() from None
        raise AssertionError("unreachable")  # pragma: no cover

    def _unreachable(self, exc: Exception) -> BackendError:
        return BackendError(
            f"cannot reach the model server at {self.endpoint} ({type(exc).__name__}); {self._url_hint()}",
            "unavailable",
            transient=True,
        )

    def _timeout_error(self) -> BackendError:
        return BackendError(
            f"the model server at {self.endpoint} did not answer within {self.timeout_s:g} s; "
            "raise akgen.model.timeout_s or use a smaller model",
            "timeout",
            transient=True,
        )

    def uses_messages(self, prompt: Prompt) -> bool:
        return prompt.is_chat if self.chat is None else self.chat

    def stream(self, prompt: Prompt, params: GenParams) -> Generation:
        stats = GenStats()
        use_chat = self.uses_messages(prompt)
        body: dict[str, Any] = {
            "model": self.model,
            "max_tokens": params.max_tokens,
            "temperature": params.temperature,
            "top_p": params.top_p,
            "stream": True,
        }
        if params.stop:
            body["stop"] = list(params.stop)[
                :4
            ]  # the OpenAI API takes at most four; the rest are cut client-side
        if params.seed is not None:
            body["seed"] = params.seed
        if params.grammar:
            body["grammar"] = params.grammar  # llama.cpp's server reads it; vLLM takes guided_grammar
            body["guided_grammar"] = params.grammar
        if use_chat:
            messages = list(prompt.messages) or [{"role": "user", "content": prompt.text}]
            body["messages"] = messages
            if prompt.kind == "chat" and not prompt.think:
                # Qwen3 on vLLM / SGLang: answer without a reasoning block (other servers ignore the field)
                body["chat_template_kwargs"] = {"enable_thinking": False}
            path = "/chat/completions"
        else:
            body["prompt"] = prompt.text
            path = "/completions"
        return Generation(self._chunks(path, body, params, stats, use_chat), stats)

    async def _chunks(
        self, path: str, body: dict[str, Any], params: GenParams, stats: GenStats, chat: bool
    ) -> AsyncIterator[str]:
        delay = self.backoff_s
        scanner = StopScanner(params.stop)
        for attempt in range(self.retries + 1):
            streamed = False
            try:
                async with self._client.stream("POST", path, json=body) as resp:
                    if resp.status_code >= 500 and attempt < self.retries:
                        await resp.aread()
                        await asyncio.sleep(delay)
                        delay *= 2
                        continue
                    if resp.status_code >= 400:
                        await resp.aread()
                        _raise_for_status(resp, self.endpoint + path)
                    text_bytes = 0
                    async for line in _bounded_lines(resp):
                        if not line.startswith("data:"):
                            continue
                        payload = line[5:].strip()
                        if payload == "[DONE]":
                            break
                        try:
                            event = json.loads(payload)
                        except ValueError:
                            continue
                        if "error" in event:
                            raise BackendError(
                                f"the model server reported an error: {event['error']}; check the server's log",
                                "http",
                            )
                        for choice in event.get("choices", ()):
                            piece = (choice.get("delta") or {}).get("content") if chat else choice.get("text")
                            if piece or (piece is not None and not choice.get("finish_reason")):
                                # one event per token (an empty text is a held-back byte; a final empty one is not)
                                streamed = True
                                stats.mark_token()
                            if piece:
                                text_bytes += len(piece)
                                if stats.tokens > params.max_tokens + 1 or text_bytes > _max_text(params):
                                    # a server that ignores max_tokens is cut here (docs/security.md)
                                    stats.finish("length")
                                    return
                                out = scanner.feed(piece)
                                if out:
                                    yield out
                                if scanner.stopped:
                                    stats.finish_reason = "stop"
                                    return
                            if choice.get("finish_reason"):
                                stats.finish_reason = str(choice["finish_reason"])
                        usage = event.get("usage")
                        if isinstance(usage, dict) and usage.get("prompt_tokens") is not None:
                            stats.prompt_tokens = int(usage["prompt_tokens"])
                tail = scanner.flush()
                if tail:
                    yield tail
                stats.finish(stats.finish_reason or "stop")
                return
            except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
                if attempt >= self.retries:
                    raise self._unreachable(exc) from None
                await asyncio.sleep(delay)
                delay *= 2
            except httpx.RemoteProtocolError as exc:
                if streamed or attempt >= self.retries:
                    raise BackendError(
                        f"the model server at {self.endpoint} closed the stream ({exc}); check the server's log",
                        "unavailable",
                        transient=True,
                    ) from None
                await asyncio.sleep(delay)
                delay *= 2
            except httpx.TimeoutException:
                raise self._timeout_error() from None

    async def close(self) -> None:
        await self._client.aclose()

    def describe(self) -> dict[str, Any]:
        out = super().describe()
        out["endpoint"] = self.endpoint
        return out


MAX_LINE_BYTES = 1 << 20  # one server-sent event line
MAX_TEXT_BYTES = 8 << 20  # one answer


def _max_text(params: GenParams) -> int:
    """The most characters an answer of `params.max_tokens` tokens may hold (64 per token, a bound no tokenizer
    reaches), and never more than MAX_TEXT_BYTES."""
    return min(MAX_TEXT_BYTES, 64 * max(1, params.max_tokens))


async def _bounded_lines(resp: Any) -> AsyncIterator[str]:
    """The response's lines, none longer than MAX_LINE_BYTES: a server that sends one endless line gets a
    BackendError, not the tool's memory."""
    buf = ""
    async for chunk in resp.aiter_text():
        buf += chunk
        while True:
            cut = buf.find("\n")
            if cut < 0:
                break
            line, buf = buf[:cut].rstrip("\r"), buf[cut + 1 :]
            yield line
        if len(buf) > MAX_LINE_BYTES:
            raise BackendError(
                f"the model server sent a line of more than {MAX_LINE_BYTES} bytes; check the server", "http"
            )
    if buf:
        yield buf.rstrip("\r")


def _raise_for_status(resp: httpx.Response, url: str) -> None:
    if resp.status_code < 400:
        return
    detail = resp.text[:300].strip()
    if resp.status_code in (401, 403):
        raise BackendError(
            f"{url} refused the request ({resp.status_code}); put the API key in the environment variable named by "
            "akgen.model.api_key_env",
            "http",
        )
    if resp.status_code == 404:
        raise BackendError(
            f"{url} does not exist (404: {detail}); akgen.model.endpoint must be the server's base URL ending in /v1, "
            "and akgen.model.name one of its models",
            "http",
        )
    raise BackendError(
        f"{url} answered {resp.status_code}: {detail}; check the server's log",
        "http",
        transient=resp.status_code >= 500,
    )
