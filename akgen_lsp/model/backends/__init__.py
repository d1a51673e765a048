"""Model backends behind one async streaming interface (`base.Backend`); `make_backend` picks one from settings."""

from __future__ import annotations

from akgen_lsp.config import Settings
from akgen_lsp.model.backends.base import Backend, BackendError, Generation, GenParams, GenStats, Prompt

__all__ = ["BACKENDS", "Backend", "BackendError", "GenParams", "GenStats", "Generation", "Prompt", "backend_missing",
           "make_backend"]

BACKENDS = ("llama_cpp", "transformers", "openai")

_TORCH_CPU = "torch --index-url https://download.pytorch.org/whl/cpu"


def backend_missing(kind: str) -> str | None:
    """What the backend `kind` needs and this Python lacks, as a sentence with the command that installs it (into
    the Python that runs akgen); None when it can load. Nothing is imported (find_spec only)."""
    import importlib.util
    import sys

    pip = f"{sys.executable} -m pip install"
    if kind == "llama_cpp" and importlib.util.find_spec("llama_cpp") is None:
        return (f"the llama_cpp backend needs llama-cpp-python, which is not installed: run `CMAKE_ARGS="
                f"-DGGML_NATIVE=OFF {pip} 'llama-cpp-python==0.3.36'` (a source build, about 3.5 minutes), or set "
                "model.backend to transformers or openai")
    if kind == "transformers":
        lacking = [m for m in ("torch", "transformers") if importlib.util.find_spec(m) is None]
        if lacking:
            steps = ([f"`{pip} {_TORCH_CPU}` (the CPU build, about 190 MB)"] if "torch" in lacking else []) + \
                ([f"`{pip} 'transformers>=4.51'`"] if "transformers" in lacking else [])
            return (f"the transformers backend needs {' and '.join(lacking)}, not installed: run "
                    f"{' then '.join(steps)}, or set model.backend to llama_cpp or openai")
    return None


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

        return TransformersBackend(settings["model.path"], device=settings["model.device"],
                                   n_threads=settings["model.n_threads"])
    if kind == "openai":
        from akgen_lsp.model.backends.openai import OpenAIBackend

        return OpenAIBackend(
            settings["model.endpoint"],
            settings["model.name"],
            api_key_env=settings["model.api_key_env"],
            timeout_s=settings["model.timeout_s"],
        )
    raise BackendError(
        f"unknown model backend {kind!r}; set akgen.model.backend to llama_cpp, transformers, openai or none", "config"
    )
