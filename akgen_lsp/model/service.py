"""`CompletionService`: the completion pipeline (complete.py) over the configured backend, for the language server
and `akgen complete`.

    service = CompletionService(settings)
    result = await service.complete(text, path, line, character)   # 0-based, code points; None: nothing to offer
    await service.close()

`complete` runs as an asyncio task the caller may cancel at any time: cancellation reaches the backend, whose worker
stops within a token or whose HTTP stream is closed. A request for a document also cancels the previous request for
the same document. When no model is configured, or the model cannot be loaded, or it fails (server down, timeout, an
answer without code), the answer comes from the catalog; each problem is logged once, with what to do about it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from akgen_lsp.ascendc.catalog import Catalog
from akgen_lsp.config import Settings
from akgen_lsp.model.backends import make_backend
from akgen_lsp.model.backends.base import Backend, BackendError, GenParams, Prompt
from akgen_lsp.model.complete import (
    CompletionCache,
    Cursor,
    Debouncer,
    InlineResult,
    StopRules,
    catalog_completions,
    decide_mode,
    replace_range,
    split_at,
)
from akgen_lsp.model.filters import FilterContext, post_filter
from akgen_lsp.model.prompts import (
    align_to_cursor,
    completion_prompt,
    extract_code,
    fit_context,
    retrieve_context,
)
from akgen_lsp.model.registry import ModelSpec, Registry
from akgen_lsp.model.route import route_request

log = logging.getLogger("akgen.model")

CHARS_PER_TOKEN = 3.0  # a conservative average for C++ with BPE vocabularies of Qwen's size
RETRY_AFTER_S = 15.0  # after a transient failure (server down, timeout), the catalog answers for this long
CONTEXT_CHARS = 768  # retrieved catalog context (Tabby's figure)

__all__ = ["CompletionService", "InlineResult", "ServiceStats"]


@dataclass
class ServiceStats:
    requests: int = 0
    cache_hits: int = 0
    model_calls: int = 0
    catalog_answers: int = 0
    cancelled: int = 0
    timeouts: int = 0
    errors: int = 0
    empty: int = 0
    latencies_ms: list[float] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        lat = sorted(self.latencies_ms)

        def pct(p: float) -> float | None:
            return round(lat[min(len(lat) - 1, int(p * len(lat)))], 2) if lat else None

        return {
            "requests": self.requests,
            "cache_hits": self.cache_hits,
            "model_calls": self.model_calls,
            "catalog_answers": self.catalog_answers,
            "cancelled": self.cancelled,
            "timeouts": self.timeouts,
            "errors": self.errors,
            "empty": self.empty,
            "p50_ms": pct(0.5),
            "p95_ms": pct(0.95),
            "p99_ms": pct(0.99),
        }


class CompletionService:
    def __init__(
        self,
        settings: Settings,
        *,
        catalog: Catalog | None = None,
        registry: Registry | None = None,
        backend: Backend | None = None,
        workspace: Path | None = None,
    ) -> None:
        # the inline-completion kind of model routing (model/route.py): the model its budgets allow
        routed, found, self.route_note = route_request(settings, "completion", workspace)
        self.settings = resolve_model_path(routed, workspace)
        settings = self.settings
        self._catalog = catalog
        self.registry = registry if registry is not None else found
        if self.route_note:
            log.info("inline completion: %s", self.route_note)
        self.spec: ModelSpec = self.registry.for_model(settings["model.name"], settings["model.path"])
        budget = settings["completion.prompt_chars"]
        share = settings["completion.prefix_share"]
        self.cache = CompletionCache(
            settings["completion.cache_size"],
            settings["completion.cache_ttl_s"],
            prefix_chars=max(1, int(budget * share)),
            suffix_chars=max(1, budget - int(budget * share)),
        )
        self.debouncer = Debouncer(settings["completion.debounce_ms"])
        self.stats = ServiceStats()
        self._backend = backend
        self._backend_made = backend is not None
        self._load_lock = asyncio.Lock()
        self._loaded = False
        self._failed: BackendError | None = None
        self._retry_at = 0.0
        self._inflight: dict[str, asyncio.Task[Any]] = {}
        self._logged: set[str] = set()
        self._pending_fill: tuple[str, str, str] | None = None

    # ------------------------------------------------------------------------------------------- parts

    @property
    def catalog(self) -> Catalog:
        if self._catalog is None:
            try:
                from akgen_lsp.ascendc.catalog import load_catalog

                self._catalog = load_catalog()
            except Exception as exc:  # a broken data file must not break completion
                self._log_once(
                    "catalog",
                    f"the API catalog could not be loaded ({exc}); completions from the catalog "
                    "are off until the data files are fixed (run `akgen` checks on the catalog)",
                )
                self._catalog = Catalog(())
        return self._catalog

    def _log_once(self, key: str, message: str) -> None:
        if key not in self._logged:
            self._logged.add(key)
            log.warning(message)

    @property
    def last_error(self) -> str | None:
        return str(self._failed) if self._failed else None

    async def backend(self) -> Backend | None:
        """The loaded backend, or None while it is off, failed, or waiting to retry after a transient failure."""
        if self._failed is not None:
            if not self._failed.transient or time.monotonic() < self._retry_at:
                return None
            self._failed = None
        if self._loaded:
            return self._backend
        async with self._load_lock:
            if self._loaded:
                return self._backend
            try:
                if not self._backend_made:
                    self._backend_made = True
                    self._backend = make_backend(
                        self.settings, self.spec.context if self.spec.known else None
                    )
                if self._backend is not None:
                    await self._backend.load()
                self._loaded = True
                return self._backend
            except BackendError as exc:
                self._fail(exc)
                return None

    def _recovered(self) -> None:
        """The model answered: a later outage is logged again."""
        stale = {k for k in self._logged if k.startswith("backend:")}
        if stale:
            self._logged -= stale
            log.info("model backend %s is answering again", self.settings["model.backend"])

    def _fail(self, exc: BackendError) -> None:
        self._failed = exc
        self.stats.errors += 1
        if exc.transient:
            self._retry_at = time.monotonic() + RETRY_AFTER_S
        else:
            self._loaded = False
        more = "; completions come from the API catalog meanwhile"
        self._log_once(f"backend:{exc.kind}", f"model backend {self.settings['model.backend']}: {exc}{more}")

    # ------------------------------------------------------------------------------------------- pipeline

    def _fill_cache(self) -> None:
        pending, self._pending_fill = self._pending_fill, None
        if pending is not None:
            self.cache.put(*pending)

    async def complete(self, text: str, path: str, line: int, character: int) -> InlineResult | None:
        t0 = time.perf_counter()
        timings: dict[str, float] = {}
        task = asyncio.current_task()
        previous = self._inflight.get(path)
        if previous is not None and previous is not task and not previous.done():
            previous.cancel()
        if task is not None:
            self._inflight[path] = task
        self.stats.requests += 1
        try:
            try:
                result = await self._complete(text, path, line, character, t0, timings)
            except Exception as exc:  # a bug must not reach the editor as an error popup
                log.debug("completion pipeline failed", exc_info=True)
                self._log_once(
                    f"internal:{type(exc).__name__}",
                    f"the completion pipeline failed ({type(exc).__name__}: "
                    f"{exc}); no suggestion this time. Please report it with the file and position.",
                )
                self.stats.errors += 1
                result = None
            if result is not None:
                timings["total"] = (time.perf_counter() - t0) * 1000.0
                self.stats.latencies_ms.append(timings["total"])
                del self.stats.latencies_ms[:-1000]
            else:
                self.stats.empty += 1
            return result
        except asyncio.CancelledError:
            self.stats.cancelled += 1
            raise
        finally:
            if task is not None and self._inflight.get(path) is task:
                del self._inflight[path]

    async def _complete(
        self, text: str, path: str, line: int, character: int, t0: float, timings: dict[str, float]
    ) -> InlineResult | None:
        if not self.settings["completion.enable"]:
            return None
        mark = time.perf_counter()

        def lap(stage: str) -> None:
            nonlocal mark
            now = time.perf_counter()
            timings[stage] = round((now - mark) * 1000.0, 3)
            mark = now

        self._fill_cache()
        cursor = split_at(text, line, character)
        lap("split")
        cached = self.cache.get(cursor.prefix, cursor.suffix)
        lap("cache")
        if cached is not None:
            self.stats.cache_hits += 1
            return self._result(cached, cursor, "cache", timings)

        self.debouncer.observe_request(path)
        delay = self.debouncer.delay_ms(path)
        if delay > 0:
            await asyncio.sleep(delay / 1000.0)
        lap("debounce")

        mode = decide_mode(text, cursor, path)
        lap("mode")
        if mode == "none":
            return None

        backend = await self.backend()
        lap("load")
        if backend is None:
            return self._from_catalog(cursor, timings, lap)

        try:
            answer = await self._generate(backend, text, path, cursor, mode, timings, lap)
        except BackendError as exc:
            if exc.kind == "timeout":
                self.stats.timeouts += 1
            if exc.transient or exc.kind == "no_code":
                self.stats.errors += 1
                if exc.transient:
                    self._fail(exc)
                else:
                    self._log_once(f"answer:{exc.kind}", f"model {self.spec.name}: {exc}")
            else:
                self._fail(exc)
            return self._from_catalog(cursor, timings, lap)
        self._recovered()
        if answer is None:
            return None
        # the typed-ahead entries are written right after the answer is returned (or by the next request, first)
        self._pending_fill = (cursor.prefix, cursor.suffix, answer)
        asyncio.get_running_loop().call_soon(self._fill_cache)
        return self._result(answer, cursor, "model", timings)

    async def _generate(
        self,
        backend: Backend,
        text: str,
        path: str,
        cursor: Cursor,
        mode: str,
        timings: dict[str, float],
        lap: Any,
    ) -> str | None:
        s = self.settings
        max_tokens = s["model.max_tokens"]
        n_ctx = (
            min(self.spec.context, s["model.n_ctx"])
            if s["model.backend"] == "llama_cpp"
            else self.spec.context
        )
        ctx_budget = CONTEXT_CHARS if len(self.catalog) else 0
        budget = min(s["completion.prompt_chars"], int((n_ctx - max_tokens) * CHARS_PER_TOKEN) - ctx_budget)
        prefix, suffix = fit_context(cursor.prefix, cursor.suffix, budget, s["completion.prefix_share"])
        context = retrieve_context(self.catalog, text, cursor.offset, ctx_budget) if ctx_budget else ""
        cp = completion_prompt(
            self.spec,
            prefix,
            suffix,
            path=Path(path).name if path else "",
            context=context,
            single_line=mode == "single",
        )
        rules = StopRules(mode, cursor.suffix, cursor.line_prefix)
        as_messages = backend.uses_messages(cp.prompt)
        chat = cp.prompt.kind == "chat"
        stops = tuple(x for x in cp.stop if not (as_messages and x == "```"))
        if not chat:
            stops = (*stops, *rules.stop_strings())
        params = GenParams(
            max_tokens=max_tokens,
            temperature=s["model.temperature"],
            top_p=s["model.top_p"],
            stop=tuple(dict.fromkeys(stops)),
            timeout_s=s["model.timeout_s"],
            grammar=s["model.grammar"] or None,
        )
        lap("prompt")
        self.stats.model_calls += 1
        gen = backend.stream(cp.prompt, params)
        out = ""

        async def consume() -> None:
            nonlocal out
            first = True
            async for chunk in gen:
                if first:
                    lap("first_token")
                    first = False
                out += chunk
                if not as_messages:
                    cut = rules.feed(chunk)
                    if cut is not None:
                        out = out[:cut]
                        return

        try:
            if sys.version_info >= (3, 11):
                async with asyncio.timeout(s["model.timeout_s"]):
                    await consume()
            else:  # pragma: no cover - Python 3.10
                await asyncio.wait_for(consume(), s["model.timeout_s"])
        except (asyncio.TimeoutError, TimeoutError):
            raise BackendError(
                f"no answer within akgen.model.timeout_s = {s['model.timeout_s']:g} s; raise it, lower "
                "akgen.model.max_tokens, or use a smaller or quantised model",
                "timeout",
                transient=True,
            ) from None
        except BackendError:
            raise
        except Exception as exc:  # the library failed mid-generation (llama_decode, CUDA out of memory, ...)
            raise BackendError(
                f"the model failed while generating ({type(exc).__name__}: {exc}); check akgen.model.n_ctx and "
                "the memory available, or run `akgen model check`",
                "error",
                transient=True,
            ) from None
        finally:
            await gen.aclose()
        self.debouncer.observe_latency(gen.stats.total_ms)
        timings["tokens"] = float(gen.stats.tokens)
        lap("generate")
        if chat:
            code = extract_code(out, prefilled=not as_messages)
            if code is None:
                if not out.strip():
                    return None
                raise BackendError(
                    "the model answered without code; check that akgen.model.name names a chat model from "
                    "`akgen model list` or use a FIM model for completion",
                    "no_code",
                )
            code = align_to_cursor(code, cursor.line_prefix)
            if as_messages:
                cut = rules.check(code)
                if cut is not None:
                    code = code[:cut]
            out = code
        result = post_filter(out, FilterContext(cursor.prefix, cursor.suffix, mode))
        lap("filter")
        return result

    def _from_catalog(self, cursor: Cursor, timings: dict[str, float], lap: Any) -> InlineResult | None:
        found = catalog_completions(self.catalog, cursor, self.settings["cann.version"])
        lap("catalog")
        if found is None:
            return None
        text, snippet = found
        self.stats.catalog_answers += 1
        result = self._result(text, cursor, "catalog", timings)
        if snippet != text:
            result.snippet = snippet  # same start: the range replace_range gave the text holds for it too
        return result

    @staticmethod
    def _result(text: str, cursor: Cursor, source: str, timings: dict[str, float]) -> InlineResult:
        sl, sc, el, ec = replace_range(text, cursor)
        return InlineResult(text, sl, sc, el, ec, source, timings)

    # ------------------------------------------------------------------------------------------- other requests

    async def generate(
        self,
        prompt: Prompt,
        *,
        max_tokens: int = 2048,
        timeout_s: float | None = None,
        stop: tuple[str, ...] = (),
    ) -> str:
        """The model's whole answer to `prompt` (repairs, kernel generation). Raises `BackendError` with an
        actionable message when no model is configured or it fails; cancelling the caller stops the generation."""
        backend = await self.backend()
        if backend is None:
            raise self._failed or BackendError(
                "no model is configured; set akgen.model.backend and akgen.model.path (or model.endpoint), "
                "see models/README.md",
                "config",
            )
        s = self.settings
        params = GenParams(
            max_tokens=max_tokens,
            temperature=s["model.temperature"],
            top_p=s["model.top_p"],
            stop=tuple(dict.fromkeys((*self.spec.stop, *stop))),
            timeout_s=timeout_s or s["model.timeout_s"],
        )
        gen = backend.stream(prompt, params)
        try:
            return await asyncio.wait_for(gen.text(), params.timeout_s)
        except asyncio.TimeoutError:
            raise BackendError(
                f"no answer within {params.timeout_s:g} s; raise the time limit or use a smaller model",
                "timeout",
                transient=True,
            ) from None
        finally:
            await gen.aclose()

    async def warm(self) -> None:
        """Load the catalog and the model now (the server calls this at start so the first request is fast)."""
        _ = self.catalog
        await self.backend()

    def status(self) -> dict[str, Any]:
        """What the service runs on and how it is doing (for logs and a status command)."""
        return {
            "backend": self.settings["model.backend"],
            "model": self.spec.name,
            "route": self.route_note,
            "format": self.spec.format,
            "loaded": self._loaded and self._backend is not None,
            "error": self.last_error,
            "cache_entries": len(self.cache),
            **self.stats.as_dict(),
        }

    async def close(self) -> None:
        for task in list(self._inflight.values()):
            task.cancel()
        for task in list(self._inflight.values()):
            with contextlib.suppress(BaseException):
                await task
        self._inflight.clear()
        if self._backend is not None:
            await self._backend.close()


def resolve_model_path(settings: Settings, workspace: Path | None) -> Settings:
    """A relative ``model.path`` is tried from the working directory, then from the folder of the akgen.toml that
    set it, then from the workspace; the first that exists wins (else it stays as written, for the error message)."""
    raw = settings["model.path"]
    if not raw or Path(raw).is_absolute() or Path(raw).exists():
        return settings
    bases: list[Path] = []
    origin = settings.origin("model.path")
    if origin.endswith(".toml"):
        bases.append(Path(origin).parent)
    if workspace is not None:
        bases.append(workspace)
    for base in bases:
        candidate = base / raw
        if candidate.exists():
            return settings.with_overrides({"model.path": str(candidate)}, origin)
    return settings
