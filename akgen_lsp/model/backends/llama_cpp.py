"""GGUF models through llama-cpp-python, in a worker thread that stops between two tokens when cancelled.

One `Llama` per (file, n_ctx, n_gpu_layers, n_threads) is loaded once per process and shared by every backend object
that asks for it; generations on it are serialised by a lock. llama-cpp-python keeps the KV cache of the previous
prompt and re-evaluates only the tokens after the longest common prefix, so consecutive completions in one document
(same prefix, a few characters more) cost little prompt evaluation; `GenStats.reused_prompt_tokens` reports it.
"""

from __future__ import annotations

import asyncio
import atexit
import codecs
import contextlib
import os
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from akgen_lsp.model.backends.base import (
    Backend,
    BackendError,
    CancelFlag,
    Generation,
    GenParams,
    GenStats,
    Prompt,
    StopScanner,
)
from akgen_lsp.model.backends.base import thread_generation as _thread_generation


@dataclass(frozen=True)
class _Key:
    path: str
    n_ctx: int
    n_gpu_layers: int
    n_threads: int


@dataclass
class _Shared:
    llm: Any
    lock: threading.Lock
    load_ms: float


_MODELS: dict[_Key, _Shared] = {}
_MODELS_LOCK = threading.Lock()


def _load_shared(key: _Key) -> _Shared:
    with _MODELS_LOCK:
        shared = _MODELS.get(key)
        if shared is not None:
            return shared
        try:
            from llama_cpp import Llama
        except ImportError:
            from akgen_lsp.model.backends.needs import backend_missing

            raise BackendError(
                backend_missing("llama_cpp") or "llama-cpp-python does not import here",
                "dependency",
            ) from None
        path = Path(key.path)
        if not path.is_file():
            raise BackendError(
                f"model file not found: {key.path}; set akgen.model.path (or AKGEN_MODEL_PATH) to a .gguf file, "
                "see `akgen model list` and models/README.md",
                "missing",
            )
        with path.open("rb") as fh:
            magic = fh.read(4)
        if magic != b"GGUF":
            raise BackendError(
                f"{key.path} is not a GGUF file (it does not start with the GGUF magic); convert the checkpoint with "
                "llama.cpp's convert_hf_to_gguf.py (models/README.md) or point akgen.model.path at a .gguf file",
                "corrupt",
            )
        t0 = time.perf_counter()
        kwargs: dict[str, Any] = {
            "model_path": str(path),
            "n_ctx": key.n_ctx,
            "n_gpu_layers": key.n_gpu_layers,
            "verbose": False,
        }
        # llama-cpp-python's default evaluates prompts on every core, which on a busy laptop (an editor, a compiler)
        # is many times slower than fewer threads: use one count for both, half the cores unless configured.
        threads = key.n_threads if key.n_threads > 0 else max(1, (os.cpu_count() or 2) // 2)
        kwargs["n_threads"] = threads
        kwargs["n_threads_batch"] = threads
        try:
            llm = Llama(**kwargs)
        except (ValueError, RuntimeError, OSError) as exc:
            raise BackendError(
                f"llama.cpp could not load {key.path} ({exc}); the file is damaged or from an incompatible converter: "
                "download or convert it again (models/README.md)",
                "corrupt",
            ) from None
        shared = _Shared(llm, threading.Lock(), (time.perf_counter() - t0) * 1000.0)
        _MODELS[key] = shared
        return shared


def unload_all() -> None:
    """Free every shared model now (llama.cpp's own finaliser fails when it runs during interpreter shutdown)."""
    with _MODELS_LOCK:
        models = list(_MODELS.values())
        _MODELS.clear()
    for shared in models:
        if not shared.lock.acquire(timeout=1.0):  # a worker still generating: leave it to the process exit
            continue
        try:
            with contextlib.suppress(Exception):
                shared.llm.close()
        finally:
            shared.lock.release()


atexit.register(unload_all)


class LlamaCppBackend(Backend):
    name = "llama_cpp"

    def __init__(self, model: str, *, n_ctx: int = 4096, n_threads: int = 0, n_gpu_layers: int = 0) -> None:
        super().__init__(model)
        self.key = _Key(os.path.abspath(model) if model else "", n_ctx, n_gpu_layers, n_threads)
        self._shared: _Shared | None = None

    async def load(self) -> None:
        if self._shared is not None:
            return
        if not self.model:
            raise BackendError(
                "no model file configured; set akgen.model.path (or AKGEN_MODEL_PATH) to a .gguf file",
                "config",
            )
        t0 = time.perf_counter()
        self._shared = await asyncio.to_thread(_load_shared, self.key)
        self.load_ms = (time.perf_counter() - t0) * 1000.0

    @property
    def n_ctx(self) -> int:
        return self.key.n_ctx

    def count_tokens(self, text: str) -> int | None:
        if self._shared is None:
            return None
        return len(self._shared.llm.tokenize(text.encode("utf-8"), add_bos=False, special=True))

    def stream(self, prompt: Prompt, params: GenParams) -> Generation:
        stats = GenStats()
        if self._shared is None:
            raise BackendError("the llama_cpp model is not loaded; call load() first", "config")
        shared = self._shared

        def produce(cancel: CancelFlag, stats: GenStats) -> Iterator[str]:
            import llama_cpp

            llm = shared.llm
            tokens = llm.tokenize(prompt.text.encode("utf-8"), add_bos=False, special=True)
            room = llm.n_ctx() - params.max_tokens
            if room <= 0:
                raise BackendError(
                    f"model.max_tokens ({params.max_tokens}) leaves no room for the prompt in n_ctx {llm.n_ctx()}; "
                    "raise akgen.model.n_ctx or lower akgen.model.max_tokens",
                    "config",
                )
            if (
                len(tokens) > room
            ):  # keep the end of the prompt (the text nearest the cursor) and a leading FIM token
                head = tokens[:1] if llm.detokenize(tokens[:1], special=True).startswith(b"<|") else []
                tokens = head + tokens[len(tokens) - (room - len(head)) :]
            stats.prompt_tokens = len(tokens)
            reused = 0
            for a, b in zip(
                llm._input_ids[: llm.n_tokens], tokens, strict=False
            ):  # the KV cache llama.cpp keeps
                if a != b:
                    break
                reused += 1
            stats.reused_prompt_tokens = reused

            eos = {llm.token_eos()}
            scanner = StopScanner(params.stop)
            decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
            grammar = None
            if params.grammar:
                # llama.cpp parses the grammar when the sampler is built and crashes on a NULL one: parse it first
                probe = llama_cpp.llama_sampler_init_grammar(
                    llm._model.vocab, params.grammar.encode("utf-8"), b"root"
                )
                if not probe:
                    raise BackendError(
                        "the GBNF grammar does not parse (model.grammar, or the caller's; it needs a `root` "
                        "rule): fix or clear it (llama.cpp's log says where it fails)",
                        "config",
                    )
                llama_cpp.llama_sampler_free(probe)
                grammar = llama_cpp.LlamaGrammar.from_string(params.grammar, verbose=False)
            generator = llm.generate(
                tokens,
                temp=params.temperature,
                top_p=params.top_p,
                top_k=40,
                min_p=0.05,
                repeat_penalty=1.0,
                grammar=grammar,
            )
            if params.seed is not None:
                llm.set_seed(params.seed)
            try:
                for token in generator:
                    if cancel:
                        stats.finish_reason = "cancelled"
                        return
                    if token in eos or llama_cpp.llama_vocab_is_eog(llm._model.vocab, token):
                        stats.finish_reason = "stop"
                        break
                    stats.mark_token()
                    text = scanner.feed(decoder.decode(llm.detokenize([token], special=False)))
                    if text:
                        yield text
                    if scanner.stopped:
                        stats.finish_reason = "stop"
                        return
                    if stats.tokens >= params.max_tokens:
                        stats.finish_reason = "length"
                        break
                    if len(tokens) + stats.tokens >= llm.n_ctx():
                        stats.finish_reason = "length"
                        break
            finally:
                generator.close()
            tail = scanner.feed(decoder.decode(b"", final=True)) + scanner.flush()
            if tail:
                yield tail

        return _thread_generation(produce, stats, lock=shared.lock, name="akgen-llama-cpp")

    def describe(self) -> dict[str, Any]:
        out = super().describe()
        out.update(
            {"n_ctx": self.key.n_ctx, "n_gpu_layers": self.key.n_gpu_layers, "n_threads": self.key.n_threads}
        )
        return out
