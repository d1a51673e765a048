"""Known models (``models/registry.toml``): prompt format, context length, stop strings, reasoning to strip.

The registry is looked up in the workspace first (``<workspace>/models/registry.toml``), then in the project's own
``models/`` folder. A model is found by name (``akgen.model.name``) or by matching its file or folder name against the
entries' ``match`` globs; an unknown model gets the ``[defaults]`` (plain prefix continuation), which works with any
base model.
"""

from __future__ import annotations

import fnmatch
import logging
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

log = logging.getLogger("akgen.model")

PROJECT_REGISTRY = Path(__file__).resolve().parents[2] / "models" / "registry.toml"
FORMATS = ("fim", "chat", "prefix")
QWEN_FIM = {"prefix": "<|fim_prefix|>", "suffix": "<|fim_suffix|>", "middle": "<|fim_middle|>"}


class RegistryError(ValueError):
    """A registry file that does not follow the schema."""


@dataclass(frozen=True)
class ModelSpec:
    name: str
    format: str = "prefix"
    context: int = 4096
    stop: tuple[str, ...] = ()
    think: bool = False
    chat_template: str = "qwen3"
    fim_prefix: str = QWEN_FIM["prefix"]
    fim_suffix: str = QWEN_FIM["suffix"]
    fim_middle: str = QWEN_FIM["middle"]
    hf_repo: str = ""
    base: str = ""
    params: str = ""
    bf16_gb: float | None = None
    gguf_gb: Mapping[str, float] = field(default_factory=dict)
    match: tuple[str, ...] = ()
    known: bool = True
    # routing (model/route.py): size, and cost per token where measured (``measured_on`` says on what)
    size_b: float | None = None
    ms_per_token: float | None = None
    first_token_ms: float | None = None
    j_per_token: float | None = None
    measured_on: str = ""
    route: bool = True  # a model routing may choose (test models opt out)

    def matches(self, filename: str) -> int:
        """Length of the longest pattern matching `filename` (0: none)."""
        low = filename.lower().rstrip("/")
        return max((len(p) for p in self.match if fnmatch.fnmatch(low, p.lower())), default=0)

    def as_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "name": self.name,
            "format": self.format,
            "context": self.context,
            "stop": list(self.stop),
            "think": self.think,
            "hf_repo": self.hf_repo,
            "params": self.params,
            "bf16_gb": self.bf16_gb,
            "gguf_gb": dict(self.gguf_gb),
            "size_b": self.size_b,
            "ms_per_token": self.ms_per_token,
            "j_per_token": self.j_per_token,
            "measured_on": self.measured_on,
        }
        if self.format == "chat":
            out["chat_template"] = self.chat_template
        if self.format == "fim":
            out["fim"] = {"prefix": self.fim_prefix, "suffix": self.fim_suffix, "middle": self.fim_middle}
        return out


@dataclass(frozen=True)
class Registry:
    models: tuple[ModelSpec, ...]
    defaults: ModelSpec
    source: str = ""

    def get(self, name: str) -> ModelSpec | None:
        low = name.lower()
        return next((m for m in self.models if m.name.lower() == low), None)

    def for_model(self, name: str = "", path: str = "") -> ModelSpec:
        """The entry for `name`, else the best match of `path`'s file name, else the defaults (named after the file)."""
        if name:
            hit = self.get(name)
            if hit is not None:
                return hit
        candidates = [n for n in (path and Path(path).name, name) if n]
        best: tuple[int, ModelSpec | None] = (0, None)
        for cand in candidates:
            for m in self.models:
                score = m.matches(cand)
                if score > best[0]:
                    best = (score, m)
        if best[1] is not None:
            return best[1]
        label = name or (Path(path).name if path else "unknown")
        return ModelSpec(
            name=label,
            format=self.defaults.format,
            context=self.defaults.context,
            stop=self.defaults.stop,
            think=self.defaults.think,
            known=False,
        )


def _number(raw: Mapping[str, Any], key: str) -> float | None:
    v = raw.get(key)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, (int, float)) or v < 0:
        raise ValueError(f"{key} must be a non-negative number, not {v!r}")
    return float(v)


def _spec(raw: Mapping[str, Any], defaults: ModelSpec, origin: str) -> ModelSpec:
    name = raw.get("name")
    if not isinstance(name, str) or not name:
        raise RegistryError(f"{origin}: a [[model]] lacks a name")
    fmt = raw.get("format", defaults.format)
    if fmt not in FORMATS:
        raise RegistryError(f"{origin}: model {name!r} has format {fmt!r}; use one of {', '.join(FORMATS)}")
    fim = raw.get("fim", {})
    try:
        return ModelSpec(
            name=name,
            format=fmt,
            context=int(raw.get("context", defaults.context)),
            stop=tuple(str(s) for s in raw.get("stop", defaults.stop)),
            think=bool(raw.get("think", defaults.think)),
            chat_template=str(raw.get("chat_template", "qwen3")),
            fim_prefix=str(fim.get("prefix", QWEN_FIM["prefix"])),
            fim_suffix=str(fim.get("suffix", QWEN_FIM["suffix"])),
            fim_middle=str(fim.get("middle", QWEN_FIM["middle"])),
            hf_repo=str(raw.get("hf_repo", "")),
            base=str(raw.get("base", "")),
            params=str(raw.get("params", "")),
            bf16_gb=None if raw.get("bf16_gb") is None else float(raw["bf16_gb"]),
            gguf_gb={str(k): float(v) for k, v in raw.get("gguf_gb", {}).items()},
            match=tuple(str(p) for p in raw.get("match", ())),
            size_b=_number(raw, "size_b"),
            ms_per_token=_number(raw, "ms_per_token"),
            first_token_ms=_number(raw, "first_token_ms"),
            j_per_token=_number(raw, "j_per_token"),
            measured_on=str(raw.get("measured_on", "")),
            route=bool(raw.get("route", True)),
        )
    except (TypeError, ValueError) as exc:
        raise RegistryError(f"{origin}: model {name!r}: {exc}") from None


def parse_registry(text: str, origin: str = "registry.toml") -> Registry:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise RegistryError(f"{origin} is not valid TOML: {exc}") from None
    d = data.get("defaults", {})
    fmt = d.get("format", "prefix")
    if fmt not in FORMATS:
        raise RegistryError(f"{origin}: [defaults] format {fmt!r}; use one of {', '.join(FORMATS)}")
    defaults = ModelSpec(
        name="default",
        format=fmt,
        context=int(d.get("context", 4096)),
        stop=tuple(d.get("stop", ())),
        think=bool(d.get("think", False)),
        known=False,
    )
    models = tuple(_spec(raw, defaults, origin) for raw in data.get("model", ()))
    return Registry(models, defaults, origin)


def registry_paths(workspace: Path | None = None) -> list[Path]:
    paths = []
    if workspace is not None:
        paths.append(workspace / "models" / "registry.toml")
    paths.append(PROJECT_REGISTRY)
    return paths


def load_registry(workspace: Path | None = None) -> Registry:
    """The first registry file found (workspace, then project); an empty registry when there is none."""
    for path in registry_paths(workspace):
        if path.is_file():
            return parse_registry(path.read_text(encoding="utf-8"), str(path))
    return Registry((), ModelSpec(name="default", known=False), "")


def safe_registry(workspace: Path | None) -> Registry:
    """The model registry, or one with only the defaults when it cannot be read (logged)."""
    try:
        return load_registry(workspace)
    except Exception as exc:
        log.warning("the model registry could not be read (%s); models get the default prompt format", exc)
        return Registry((), ModelSpec(name="default", known=False))


def local_models(folder: Path, registry: Registry) -> list[dict[str, Any]]:
    """The model files in `folder` (GGUF files, HF folders with a config.json): path, kind, size and the registry
    name each is known by."""
    if not folder.is_dir():
        return []
    out = []
    for p in sorted(folder.iterdir()):
        if p.suffix == ".gguf" and p.is_file():
            kind, size = "gguf", p.stat().st_size
        elif p.is_dir() and (p / "config.json").is_file():
            kind, size = "hf", sum(f.stat().st_size for f in p.rglob("*") if f.is_file())
        else:
            continue
        out.append(
            {
                "path": str(p),
                "kind": kind,
                "size_gb": round(size / 1e9, 2),
                "spec": registry.for_model(path=str(p)).name,
            }
        )
    return out
