"""The one streaming interface every model backend implements.

A backend turns a `Prompt` into a `Generation`: an async iterator of text chunks (one per decoded token where the
library allows) that can be closed at any time. Closing it, or cancelling the task that iterates it, stops the work
where it runs: a worker thread sees its cancel flag between two tokens; an HTTP stream is closed so the server stops
generating. `Generation.stats` counts tokens and times the stages.

Backends know nothing about editors, caches or post-filters; the completion pipeline (`akgen_lsp.model.complete`)
sits above them.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any


class BackendError(RuntimeError):
    """A model that cannot answer; the message says what to do next.

    `kind` is a short stable tag (``missing``, ``corrupt``, ``unavailable``, ``timeout``, ``http``, ``dependency``,
    ``config``, ``no_code``) that callers use to log each problem once.
    `transient` errors (a server down, a timeout) may go away by themselves; the others need the user.
    """

    def __init__(self, message: str, kind: str = "error", transient: bool = False) -> None:
        super().__init__(message)
        self.kind = kind
        self.transient = transient


@dataclass(frozen=True)
class Prompt:
    """What a backend is asked to continue.

    `text` is the whole prompt as the model sees it (FIM tokens or a rendered chat template included). `messages` is
    the same request as chat messages, for servers that apply the template themselves (OpenAI chat endpoint).
    """

    text: str
    messages: tuple[dict[str, str], ...] = ()
    kind: str = "fim"  # fim | chat | raw
    think: bool = False  # chat: the model may reason before answering

    @property
    def is_chat(self) -> bool:
        return bool(self.messages)


@dataclass(frozen=True)
class GenParams:
    max_tokens: int = 64
    temperature: float = 0.2
    top_p: float = 0.95
    stop: tuple[str, ...] = ()
    seed: int | None = None
    timeout_s: float = 30.0
    grammar: str | None = (
        None  # a GBNF grammar the answer must follow (llama.cpp; sent to OpenAI-compatible servers)
    )


@dataclass
class GenStats:
    """Counts and times of one generation (milliseconds from the call)."""

    tokens: int = 0
    prompt_tokens: int | None = None
    reused_prompt_tokens: int | None = None
    first_token_ms: float | None = None
    total_ms: float = 0.0
    finish_reason: str = ""  # stop | length | cancelled | error
    started: float = field(default_factory=time.perf_counter, repr=False)

    def mark_token(self, n: int = 1) -> None:
        if self.first_token_ms is None:
            self.first_token_ms = (time.perf_counter() - self.started) * 1000.0
        self.tokens += n

    def finish(self, reason: str) -> None:
        if not self.finish_reason:
            self.finish_reason = reason
        self.total_ms = (time.perf_counter() - self.started) * 1000.0

    @property
    def tokens_per_s(self) -> float | None:
        if self.tokens < 2 or self.first_token_ms is None or self.total_ms <= self.first_token_ms:
            return None
        return (self.tokens - 1) / ((self.total_ms - self.first_token_ms) / 1000.0)


class Generation:
    """An async iterator of text chunks with `stats`; `aclose()` (or cancelling the consumer) stops it."""

    def __init__(
        self, chunks: AsyncIterator[str], stats: GenStats, on_close: Callable[[], None] | None = None
    ) -> None:
        self._chunks = chunks
        self.stats = stats
        self._on_close = on_close
        self._closed = False

    def __aiter__(self) -> Generation:
        return self

    async def __anext__(self) -> str:
        try:
            return await self._chunks.__anext__()
        except BaseException:
            await self.aclose()
            raise

    async def aclose(self) -> None:
        if self._closed:
            return
        self._closed = True
        if self._on_close is not None:
            self._on_close()
        aclose = getattr(self._chunks, "aclose", None)
        if aclose is not None:
            with contextlib.suppress(Exception):
                await aclose()
        self.stats.finish("cancelled")

    def __del__(self) -> None:
        # a consumer that forgot to close: at least stop the worker
        if not self._closed and self._on_close is not None:
            self._on_close()

    async def __aenter__(self) -> Generation:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    async def text(self) -> str:
        """Drain the generation (for commands and tests)."""
        return "".join([c async for c in self])


class Backend:
    """Base class of the adaptors. Subclasses implement `load` and `stream`."""

    name = "base"

    def __init__(self, model: str) -> None:
        self.model = model
        self.load_ms: float | None = None

    async def load(self) -> None:
        """Load the model or check the server; raises `BackendError` with an actionable message."""

    def stream(self, prompt: Prompt, params: GenParams) -> Generation:
        raise NotImplementedError

    def count_tokens(self, text: str) -> int | None:
        """The number of tokens `text` is for this model, where the backend holds its tokenizer (None: unknown,
        the caller estimates)."""
        return None

    def uses_messages(self, prompt: Prompt) -> bool:
        """True when `prompt` goes out as chat messages (the server applies the template, no pre-filled answer)."""
        return False

    async def close(self) -> None:
        """Release what the backend holds (HTTP clients; shared models stay loaded for the process)."""

    def describe(self) -> dict[str, Any]:
        return {"backend": self.name, "model": self.model}


# ------------------------------------------------------------------------------------- worker-thread streaming

_DONE = object()


class CancelFlag:
    """Set from the event loop, read by the worker between tokens."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def set(self) -> None:
        self._event.set()

    def __bool__(self) -> bool:
        return self._event.is_set()


def thread_generation(
    produce: Callable[[CancelFlag, GenStats], Iterator[str]],
    stats: GenStats,
    lock: threading.Lock | None = None,
    name: str = "akgen-model",
) -> Generation:
    """Run the blocking iterator `produce(cancel, stats)` in a daemon thread and stream its chunks to the event loop.

    The worker checks `cancel` between chunks (each chunk is one token for the local backends) and stops within one
    token of `aclose()`. `lock` serialises generations on a shared model: a new request waits for the previous worker,
    which has been told to stop, to let go.
    """
    loop = asyncio.get_running_loop()
    queue: asyncio.Queue[Any] = asyncio.Queue()
    cancel = CancelFlag()

    def put(item: Any) -> None:
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody listens any more
            loop.call_soon_threadsafe(queue.put_nowait, item)

    def work() -> None:
        acquired = False
        try:
            if lock is not None:
                while not lock.acquire(timeout=0.05):
                    if cancel:
                        return
                acquired = True
            if cancel:
                return
            it = produce(cancel, stats)
            try:
                for chunk in it:
                    if cancel:
                        break
                    put(chunk)
            finally:
                close = getattr(it, "close", None)
                if close is not None:
                    close()
        except BaseException as exc:  # delivered to the consumer, which raises it
            put(exc)
        finally:
            if acquired and lock is not None:
                lock.release()
            put(_DONE)

    thread = threading.Thread(target=work, name=name, daemon=True)

    async def chunks() -> AsyncIterator[str]:
        thread.start()
        while True:
            item = await queue.get()
            if item is _DONE:
                stats.finish("cancelled" if cancel else (stats.finish_reason or "stop"))
                return
            if isinstance(item, BaseException):
                stats.finish("error")
                raise item
            yield item

    return Generation(chunks(), stats, on_close=cancel.set)


class StopScanner:
    """Cut a token stream at the first stop string, holding back a tail that may be the start of one.

    `feed(piece)` returns the text that is safe to emit; `stopped` becomes true when a stop string was seen (the stop
    itself is never emitted); `flush()` returns what was held back once the stream ends without a stop.
    """

    def __init__(self, stops: Sequence[str]) -> None:
        self.stops = tuple(s for s in stops if s)
        self.pending = ""
        self.stopped = False

    def feed(self, piece: str) -> str:
        if self.stopped:
            return ""
        self.pending += piece
        cut = first_stop(self.pending, self.stops)
        if cut is not None:
            out, self.pending, self.stopped = self.pending[:cut], "", True
            return out
        hold = 0
        for s in self.stops:
            for n in range(min(len(s) - 1, len(self.pending)), hold, -1):
                if self.pending.endswith(s[:n]):
                    hold = n
                    break
        out = self.pending[: len(self.pending) - hold]
        self.pending = self.pending[len(self.pending) - hold :]
        return out

    def flush(self) -> str:
        out, self.pending = ("" if self.stopped else self.pending), ""
        return out


def first_stop(text: str, stops: Sequence[str]) -> int | None:
    """Index of the earliest stop string in `text`, or None."""
    best: int | None = None
    for s in stops:
        if not s:
            continue
        i = text.find(s)
        if i >= 0 and (best is None or i < best):
            best = i
    return best
