"""A local HuggingFace directory (KernelGen-LM checkpoints are Qwen3) through transformers, on CPU or CUDA.

`model.generate` runs in a worker thread with a `TextIteratorStreamer`; a `StoppingCriteria` reads the cancel flag
after every token, so closing the generation stops the worker within one token. Needs the `hf` extra
(torch and transformers: ``bash scripts/setup.sh --dev``, or the command `backend_missing` gives); without it the backend reports how to install them.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import threading
import time
from collections.abc import Iterator
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
    thread_generation,
)

_LOADED: dict[tuple[str, str], tuple[Any, Any, threading.Lock]] = {}
_STUB_PREFIXES = ("torch_npu", "torchair")


@contextlib.contextmanager
def hidden_npu_stubs() -> Iterator[None]:
    """Hide placeholder ``torch_npu`` modules (no ``__spec__``: the bench harness puts them in ``sys.modules`` to load
    NPUKernelBench's Python without an NPU) while transformers probes for an NPU, which otherwise fails with
    "torch_npu.__spec__ is None". transformers caches the answer, so hiding them while importing and loading is enough.
    """
    stubs = {
        name: mod
        for name, mod in list(sys.modules.items())
        if name.split(".")[0] in _STUB_PREFIXES and getattr(mod, "__spec__", None) is None
    }
    for name in stubs:
        del sys.modules[name]
    try:
        yield
    finally:
        for name, mod in stubs.items():
            sys.modules.setdefault(name, mod)


_LOADED_LOCK = threading.Lock()


def _load(path: str, device: str, threads: int = 0) -> tuple[Any, Any, threading.Lock]:
    with _LOADED_LOCK:
        hit = _LOADED.get((path, device))
        if hit is not None:
            return hit
        try:
            with hidden_npu_stubs():
                import torch
                from transformers import AutoModelForCausalLM, AutoTokenizer
                from transformers.utils import logging as hf_logging

            hf_logging.disable_progress_bar()  # no progress bars on the server's stderr
        except ImportError:
            from akgen_lsp.model.backends.needs import backend_missing

            raise BackendError(
                backend_missing("transformers")
                or "the transformers backend needs torch and transformers, and they do not import here",
                "dependency",
            ) from None
        folder = Path(path)
        if not (folder / "config.json").is_file():
            raise BackendError(
                f"{path} is not a HuggingFace model directory (no config.json); set akgen.model.path to the folder "
                "you downloaded, e.g. models/KernelGen-LM-4B (models/README.md)",
                "missing",
            )
        if device == "cpu":
            # all cores (torch's default) is much slower on a machine also running an editor: half, like llama_cpp
            torch.set_num_threads(threads if threads > 0 else max(1, (os.cpu_count() or 2) // 2))
        if device.startswith("cuda") and not torch.cuda.is_available():
            raise BackendError(
                f"akgen.model.device is {device!r} but torch sees no CUDA device; set it to cpu or install a CUDA "
                "build of torch",
                "config",
            )
        try:
            with hidden_npu_stubs():
                tokenizer = AutoTokenizer.from_pretrained(path, local_files_only=True)
                dtype = torch.float32 if device == "cpu" else "auto"
                model = AutoModelForCausalLM.from_pretrained(path, local_files_only=True, dtype=dtype)
                model.to(device)
                model.eval()
        except Exception as exc:  # transformers raises many types for a damaged checkpoint
            raise BackendError(
                f"transformers could not load {path} ({type(exc).__name__}: {str(exc)[:200]}); "
                "download the checkpoint again or check that it is a causal language model",
                "corrupt",
            ) from None
        hit = (model, tokenizer, threading.Lock())
        _LOADED[(path, device)] = hit
        return hit


def unload_all() -> None:
    with _LOADED_LOCK:
        _LOADED.clear()


class TransformersBackend(Backend):
    name = "transformers"

    def __init__(self, model: str, *, device: str = "cpu", n_threads: int = 0) -> None:
        super().__init__(model)
        self.device = device or "cpu"
        self.n_threads = n_threads
        self._held: tuple[Any, Any, threading.Lock] | None = None

    async def load(self) -> None:
        if self._held is not None:
            return
        if not self.model:
            raise BackendError(
                "no model directory configured; set akgen.model.path to a HuggingFace model folder", "config"
            )
        t0 = time.perf_counter()
        self._held = await asyncio.to_thread(
            _load, str(Path(self.model).resolve()), self.device, self.n_threads
        )
        self.load_ms = (time.perf_counter() - t0) * 1000.0

    def stream(self, prompt: Prompt, params: GenParams) -> Generation:
        if self._held is None:
            raise BackendError("the transformers model is not loaded; call load() first", "config")
        model, tokenizer, lock = self._held
        stats = GenStats()

        def produce(cancel: CancelFlag, stats: GenStats) -> Iterator[str]:
            import torch
            from transformers import StoppingCriteria, StoppingCriteriaList, TextIteratorStreamer

            class _Cancel(StoppingCriteria):
                def __call__(self, input_ids: Any, scores: Any, **kwargs: Any) -> Any:
                    stats.mark_token()
                    done = bool(cancel) or scanner.stopped
                    return torch.full((input_ids.shape[0],), done, dtype=torch.bool, device=input_ids.device)

            class _EveryToken(TextIteratorStreamer):
                """TextIteratorStreamer holds text back to a word boundary; completions want every token."""

                def put(self, value: Any) -> None:
                    if len(value.shape) > 1:
                        value = value[0]
                    if self.skip_prompt and self.next_tokens_are_prompt:
                        self.next_tokens_are_prompt = False
                        return
                    self.token_cache.extend(value.tolist())
                    text = self.tokenizer.decode(self.token_cache, **self.decode_kwargs)
                    if text.endswith("\ufffd"):  # half a character: wait for the rest
                        return
                    printable = text[self.print_len :]
                    self.print_len += len(printable)
                    if printable:
                        self.on_finalized_text(printable)

            scanner = StopScanner(params.stop)
            inputs = tokenizer(prompt.text, return_tensors="pt", add_special_tokens=False).to(model.device)
            stats.prompt_tokens = int(inputs["input_ids"].shape[1])
            streamer = _EveryToken(tokenizer, skip_prompt=True, skip_special_tokens=True, timeout=60.0)
            if params.seed is not None:
                torch.manual_seed(params.seed)
            kwargs: dict[str, Any] = {
                **inputs,
                "max_new_tokens": params.max_tokens,
                "streamer": streamer,
                "stopping_criteria": StoppingCriteriaList([_Cancel()]),
                "pad_token_id": tokenizer.pad_token_id
                if tokenizer.pad_token_id is not None
                else tokenizer.eos_token_id,
            }
            if params.temperature > 0:
                kwargs.update(do_sample=True, temperature=params.temperature, top_p=params.top_p)
            else:
                kwargs.update(do_sample=False)
            errors: list[BaseException] = []

            def run() -> None:
                try:
                    with torch.inference_mode():
                        model.generate(**kwargs)
                except BaseException as exc:
                    errors.append(exc)
                    streamer.end()

            worker = threading.Thread(target=run, name="akgen-transformers-generate", daemon=True)
            worker.start()
            ended = False
            try:
                for piece in streamer:
                    out = scanner.feed(piece)
                    if out:
                        yield out
                    if scanner.stopped or cancel:
                        break
                else:
                    ended = True
                    tail = scanner.flush()
                    if tail:
                        yield tail
            finally:
                if scanner.stopped and not cancel:
                    cancel.set()  # a stop string was seen: let the StoppingCriteria end generate()
                if not ended:
                    for _ in streamer:  # drain until generate() ends, so it never blocks on the queue
                        pass
                worker.join()
            if errors:
                raise BackendError(f"transformers generation failed: {errors[0]}", "error")
            if scanner.stopped:
                stats.finish_reason = "stop"
            elif cancel:
                stats.finish_reason = "cancelled"
            elif stats.tokens >= params.max_tokens:
                stats.finish_reason = "length"
            else:
                stats.finish_reason = "stop"

        return thread_generation(produce, stats, lock=lock, name="akgen-transformers")

    def describe(self) -> dict[str, Any]:
        out = super().describe()
        out["device"] = self.device
        return out
