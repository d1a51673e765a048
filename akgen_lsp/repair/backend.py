"""The model a repair asks: the configured backend (llama.cpp, transformers, an OpenAI-compatible server), its
registry entry (prompt format, chat template, context) and the name the editor shows ("Fix with KernelGen-LM")."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from akgen_lsp.config import Settings
from akgen_lsp.model.backends import Backend, make_backend
from akgen_lsp.model.registry import ModelSpec
from akgen_lsp.model.route import route_request
from akgen_lsp.model.service import resolve_model_path

DEFAULT_LABEL = "KernelGen-LM"

HOW_TO_CONFIGURE = (
    'No model is configured, so "Fix with KernelGen-LM" is not offered. Set `akgen.model.backend` to `llama_cpp` '
    "and `akgen.model.path` to a GGUF file (or `openai` and `akgen.model.endpoint` to a server such as vLLM), in "
    "akgen.toml or the editor's settings; models/README.md says where KernelGen-LM comes from. Certain fixes are "
    "offered without a model."
)


@dataclass
class RepairModel:
    backend: Backend
    spec: ModelSpec
    label: str
    route: str = ""  # what model routing chose and why ("" when routing is off)


def model_configured(settings: Settings) -> bool:
    backend = settings["model.backend"]
    if backend == "none":
        return False
    return bool(settings["model.endpoint"]) if backend == "openai" else bool(settings["model.path"])


def model_label(settings: Settings, workspace: Path | None = None, kind: str = "repair") -> str:
    """The model's name as an action title says it: the registry's name of the model routing picks for `kind`
    (the configured one when routing is off), else KernelGen-LM."""
    routed, registry, _note = route_request(settings, kind, workspace)
    spec = registry.for_model(routed["model.name"], routed["model.path"])
    return spec.name if spec.known else DEFAULT_LABEL


def repair_model(
    settings: Settings, workspace: Path | None = None, kind: str = "repair"
) -> RepairModel | None:
    """The backend to ask for a request of `kind` ("repair", or "generation" for the loop of akgen generate and the
    editor's generation), routed by ``model.route.*`` (not loaded yet), or None when no model is configured.
    Raises `BackendError` when the configuration cannot work (a backend without its path or endpoint)."""
    if not model_configured(settings):
        return None
    routed, registry, note = route_request(settings, kind, workspace)
    settings = resolve_model_path(routed, workspace)
    spec = registry.for_model(settings["model.name"], settings["model.path"])
    backend = make_backend(settings, spec.context if spec.known else None)
    if backend is None:
        return None
    return RepairModel(backend, spec, spec.name if spec.known else DEFAULT_LABEL, note)
