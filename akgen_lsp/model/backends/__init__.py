"""Model backends behind one async streaming interface (`base.Backend`); `make_backend` picks one from settings."""

from __future__ import annotations

from akgen_lsp.config import Settings
from akgen_lsp.model.backends.base import Backend, BackendError, Generation, GenParams, GenStats, Prompt
from akgen_lsp.model.backends.needs import backend_missing

__all__ = [
    "BACKENDS",
    "Backend",
    "BackendError",
    "GenParams",
    "GenStats",
    "Generation",
    "Prompt",
    "backend_missing",
    "make_backend",
]

BACKENDS = ("llama_cpp", "transformers", "openai")


def make_backend(settings: Settings, trained_context: int | None = None) -> Backend | None:
    """The backend `settings` ask for (not loaded yet), or None for ``model.backend = none``.

    `trained_context` (the registry's context length for the model) caps ``model.n_ctx`` for llama.cpp.

    Raises `BackendError` when the choice cannot work (no path, no endpoint).
    """
    kind = settings["model.backend"]
    if kind == "none":
        return None
    if kind == "llama_cpp":
        from akgen_lsp.model.backends.llama_cpp import LlamaCppBackend

        return LlamaCppBackend(
            settings["model.path"],
            n_ctx=min(settings["model.n_ctx"], trained_context or settings["model.n_ctx"]),
            n_threads=settings["model.n_threads"],
            n_gpu_layers=settings["model.n_gpu_layers"],
        )
    if kind == "transformers":
        from akgen_lsp.model.backends.transformers import TransformersBackend

        return TransformersBackend(
            settings["model.path"], device=settings["model.device"], n_threads=settings["model.n_threads"]
        )
    if kind == "openai":
        from akgen_lsp.model.backends.openai import OpenAIBackend

        return OpenAIBackend(
            settings["model.endpoint"],
            settings["model.name"],
            api_key_env=settings["model.api_key_env"],
            timeout_s=settings["model.timeout_s"],
        )
    raise BackendError(
        f"unknown model backend {kind!r}; set akgen.model.backend to llama_cpp, transformers, openai or none",
        "config",
    )
