"""Model routing: per request kind (inline completion, repair, generation), the model to ask, chosen from the
configured ones by a latency or energy budget, as an energy-aware orchestrator would: the small model for keystroke
completions, the large one for repair and generation, as far as the budgets allow.

Each model's cost per token comes from the registry (`models/registry.toml`): ``ms_per_token`` (and
``first_token_ms``) measured on a named machine (``measured_on``), ``j_per_token`` where someone measured the
energy. Where nothing is measured, the figures are **estimated** from the model's size and labelled so: decoding is
bound by memory bandwidth, so a token costs the bytes of the weights it reads (the Q4_K_M GGUF, scaled by the active
share of a mixture of experts) over ``model.route.bandwidth_gbps``, and energy is that time at
``model.route.power_w``. The quality proxy is the parameter count (a larger KernelGen-LM scores higher in the
paper's tables).

A request kind's budget (``model.route.<kind>_ms``, ``model.route.<kind>_j``; 0: none) is for one typical request
(`REQUEST_TOKENS`: 32 tokens for a completion, 1024 for a repair, 4096 for a generation). `pick` chooses the
largest model that fits; when none fits, the fastest one, with the reason. `pareto` is the front of (latency,
energy, size): no other model is at least as fast, as frugal and as large, and better in one.

`route_request` is what every request kind goes through (the completion service, the repair flows of the editor
and `akgen fix`, `akgen generate` and the editor's generation): the settings with the pick of its kind applied (the
model file found in a ``models/`` folder, or the served model's id), the registry it read, and a sentence that says
what was chosen.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from akgen_lsp.config import Settings
from akgen_lsp.model.registry import ModelSpec, Registry, local_models, safe_registry

KINDS = ("completion", "repair", "generation")
REQUEST_TOKENS: Mapping[str, int] = {"completion": 32, "repair": 1024, "generation": 4096}
_B = re.compile(r"([\d.]+)\s*B", re.IGNORECASE)


def params_b(spec: ModelSpec) -> tuple[float | None, float | None]:
    """(total, active) parameters in billions from the registry's ``params`` ("30.5B total, 3.3B active")."""
    if spec.size_b is not None:
        return spec.size_b, spec.size_b
    found = [float(x) for x in _B.findall(spec.params or "")]
    if not found:
        m = re.match(r"\s*([\d.]+)\s*M", spec.params or "")
        return (float(m.group(1)) / 1000.0,) * 2 if m else (None, None)
    return found[0], (found[1] if len(found) > 1 else found[0])


@dataclass(frozen=True)
class Cost:
    """One model's cost figures and whether they were measured."""

    name: str
    size_b: float | None
    context: int
    ms_per_token: float | None
    first_token_ms: float
    j_per_token: float | None
    measured: bool  # ms_per_token measured (else estimated from the size)
    energy_measured: bool
    measured_on: str = ""

    def request_ms(self, kind: str) -> float | None:
        if self.ms_per_token is None:
            return None
        return self.first_token_ms + self.ms_per_token * REQUEST_TOKENS[kind]

    def request_j(self, kind: str) -> float | None:
        return None if self.j_per_token is None else self.j_per_token * REQUEST_TOKENS[kind]


def cost_of(spec: ModelSpec, bandwidth_gbps: float = 50.0, power_w: float = 30.0) -> Cost:
    total, active = params_b(spec)
    ms, measured = spec.ms_per_token, spec.ms_per_token is not None
    if ms is None:
        gb = spec.gguf_gb.get("Q4_K_M") or (spec.bf16_gb / 3.5 if spec.bf16_gb else None)
        if gb is None and total is not None:
            gb = total * 0.6  # about 4.8 bits per weight
        if gb is not None and total and active:
            gb *= active / total
        ms = 1000.0 * gb / bandwidth_gbps if gb is not None and bandwidth_gbps > 0 else None
    j, j_measured = spec.j_per_token, spec.j_per_token is not None
    if j is None and ms is not None:
        j = power_w * ms / 1000.0
    first = spec.first_token_ms if spec.first_token_ms is not None else (ms or 0.0) * 4
    return Cost(spec.name, total, spec.context, ms, first, j, measured, j_measured, spec.measured_on)


@dataclass(frozen=True)
class Budget:
    ms: float = 0.0  # 0: no latency budget
    j: float = 0.0  # 0: no energy budget


@dataclass(frozen=True)
class Pick:
    kind: str
    model: str | None
    reason: str


def _fits(c: Cost, kind: str, b: Budget) -> bool:
    ms, j = c.request_ms(kind), c.request_j(kind)
    return (b.ms <= 0 or (ms is not None and ms <= b.ms)) and (b.j <= 0 or (j is not None and j <= b.j))


def pick(costs: Sequence[Cost], kind: str, budget: Budget, fixed: str = "auto") -> Pick:
    """The model for `kind` (see the module docstring); `fixed` is ``model.route.<kind>`` ("auto" or a name)."""
    if fixed and fixed != "auto":
        return Pick(kind, fixed, f"model.route.{kind} names it")
    if not costs:
        return Pick(kind, None, "no model is configured (model.route.models)")
    fits = [c for c in costs if _fits(c, kind, budget)]
    if fits:
        best = max(fits, key=lambda c: (c.size_b or 0.0, -(c.request_ms(kind) or 0.0)))
        ms, j = best.request_ms(kind), best.request_j(kind)
        return Pick(
            kind,
            best.name,
            f"the largest within the budget ({_fmt(ms, 'ms')}, {_fmt(j, 'J')} per "
            f"{REQUEST_TOKENS[kind]}-token request)",
        )
    fast = min(costs, key=lambda c: c.request_ms(kind) if c.request_ms(kind) is not None else float("inf"))
    return Pick(
        kind,
        fast.name,
        f"none fits the budget ({_fmt(budget.ms or None, 'ms')}, {_fmt(budget.j or None, 'J')}): the fastest",
    )


def _fmt(v: float | None, unit: str) -> str:
    return "no limit" if v is None else f"{v:,.0f} {unit}" if v >= 10 else f"{v:.2f} {unit}"


def pareto(costs: Sequence[Cost]) -> list[Cost]:
    """The models no other model dominates on (ms/token, J/token, size)."""

    def key(c: Cost) -> tuple[float, float, float]:
        inf = float("inf")
        return (
            c.ms_per_token if c.ms_per_token is not None else inf,
            c.j_per_token if c.j_per_token is not None else inf,
            -(c.size_b or 0.0),
        )

    out = []
    for c in costs:
        kc = key(c)
        if not any(all(a <= b for a, b in zip(key(o), kc, strict=True)) and key(o) != kc for o in costs):
            out.append(c)
    return sorted(out, key=lambda c: key(c)[0])


def configured_costs(
    registry: Registry, names: Sequence[str], bandwidth_gbps: float, power_w: float
) -> tuple[list[Cost], list[str]]:
    """The costs of the configured models (registry names), and the names the registry does not know."""
    out, unknown = [], []
    for n in names:
        spec = registry.get(n)
        if spec is None:
            unknown.append(n)
        else:
            out.append(cost_of(spec, bandwidth_gbps, power_w))
    return out, unknown


def route_all(registry: Registry, settings: Mapping[str, object]) -> tuple[list[Cost], list[Pick], list[str]]:
    """Every kind's pick from the settings (``model.route.*``): the costs, the picks, the unknown names."""
    names = [str(n) for n in settings["model.route.models"]] or [  # type: ignore[attr-defined]
        m.name for m in registry.models if m.route
    ]
    costs, unknown = configured_costs(
        registry,
        names,
        float(settings["model.route.bandwidth_gbps"]),  # type: ignore[arg-type]
        float(settings["model.route.power_w"]),
    )  # type: ignore[arg-type]
    picks = [
        pick(
            costs,
            k,
            Budget(float(settings[f"model.route.{k}_ms"]), float(settings[f"model.route.{k}_j"])),  # type: ignore[arg-type]
            str(settings[f"model.route.{k}"]),
        )
        for k in KINDS
    ]
    return costs, picks, unknown


def routed_settings(
    settings: Settings, kind: str, registry: Registry, files: Sequence[tuple[str, str]]
) -> tuple[Settings, str]:
    """The settings with the model routing picks for `kind`, and a sentence saying what was chosen ("" when
    routing is off: no ``model.route.models`` and ``model.route.<kind>`` is auto). `files` are the model files
    found (path, registry name); an OpenAI-compatible server gets the name as its model id."""
    fixed = str(settings[f"model.route.{kind}"])
    if not settings["model.route.models"] and fixed == "auto":
        return settings, ""
    _costs, picks, unknown = route_all(registry, settings)
    if unknown:
        return settings, (
            f"model.route.models names {', '.join(unknown)}, which the registry does not know; "
            "routing is off (`akgen model list` shows the names)"
        )
    p = next(x for x in picks if x.kind == kind)
    if p.model is None:
        return settings, f"routing: {p.reason}"
    if settings["model.backend"] == "openai":
        return settings.with_overrides(
            {"model.name": p.model}, f"model.route.{kind}"
        ), f"routing: {p.model} ({p.reason})"
    path = next((f for f, name in files if name.lower() == p.model.lower()), None)
    if path is None:
        return settings, (
            f"routing picks {p.model} ({p.reason}), but no file of it is in the models folders "
            "searched (./models, the workspace's and the configured model's folder); the configured "
            "model is used"
        )
    return (
        settings.with_overrides({"model.path": path, "model.name": p.model}, f"model.route.{kind}"),
        f"routing: {p.model} ({p.reason})",
    )


def routing_home(settings: Settings, workspace: Path | None) -> Path | None:
    """The folder whose ``models/`` (registry.toml and model files) routing reads: that of the akgen.toml which
    configured routing (``model.route.*``, ``model.path``), else `workspace`."""
    for key in ("model.route.models", "model.path", "model.name"):
        origin = settings.origin(key)
        if origin.endswith(".toml"):
            return Path(origin).parent
    return workspace


def model_folders(settings: Settings, home: Path | None) -> list[Path]:
    """Where model files are looked for: ``<home>/models``, ``./models`` and the configured model's folder."""
    raw = str(settings["model.path"])
    found = [
        home / "models" if home is not None else None,
        Path.cwd() / "models",
        Path(raw).parent if raw and Path(raw).parent != Path() else None,
    ]
    return [p for p in dict.fromkeys(f.resolve() for f in found if f is not None) if p.is_dir()]


def route_request(
    settings: Settings, kind: str, workspace: Path | None = None
) -> tuple[Settings, Registry, str]:
    """A request of `kind` (`KINDS`) routed: the settings with its pick applied, the registry that was read (the
    routing home's, else the project's) and what was chosen ("" when routing is off)."""
    if kind not in KINDS:
        raise ValueError(f"unknown request kind {kind!r}; one of {', '.join(KINDS)}")
    home = routing_home(settings, workspace)
    registry = safe_registry(home)
    if not settings["model.route.models"] and str(settings[f"model.route.{kind}"]) == "auto":
        return settings, registry, ""
    files = [
        (m["path"], m["spec"])
        for folder in model_folders(settings, home)
        for m in local_models(folder, registry)
    ]
    routed, note = routed_settings(settings, kind, registry, files)
    return routed, registry, note
