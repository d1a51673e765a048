"""Model routing: each request kind gets the largest configured model its latency and energy budgets allow, the
Pareto front is the set no model dominates, and unmeasured figures are estimated from the size (and say so)."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from akgen_lsp.cli import app
from akgen_lsp.config import defaults
from akgen_lsp.model.registry import parse_registry
from akgen_lsp.model.route import Budget, cost_of, pareto, pick, route_all, routed_settings

REGISTRY = '''
[[model]]
name = "small"
params = "1.5B"
ms_per_token = 10.0
first_token_ms = 50.0
j_per_token = 0.2
measured_on = "laptop"

[[model]]
name = "medium"
params = "4B"
ms_per_token = 30.0
first_token_ms = 100.0
j_per_token = 0.9

[[model]]
name = "large"
params = "32B"
ms_per_token = 200.0
first_token_ms = 400.0
j_per_token = 4.0

[[model]]
name = "slow-small"
params = "1B"
ms_per_token = 40.0
j_per_token = 1.0

[[model]]
name = "moe"
params = "30.5B total, 3.3B active"
gguf_gb = { Q4_K_M = 18.6 }
'''


@pytest.fixture
def reg():  # type: ignore[no-untyped-def]
    return parse_registry(REGISTRY)


def costs(reg, names=("small", "medium", "large", "slow-small")):  # type: ignore[no-untyped-def]
    return [cost_of(reg.get(n)) for n in names]


def test_each_kind_gets_the_largest_model_within_its_latency_budget(reg) -> None:  # type: ignore[no-untyped-def]
    c = costs(reg)
    # completion: 32 tokens; small = 50 + 320 = 370 ms, medium = 100 + 960 = 1060 ms
    assert pick(c, "completion", Budget(ms=500)).model == "small"
    assert pick(c, "completion", Budget(ms=1100)).model == "medium"
    # repair: 1024 tokens; medium = 100 + 30720 ms, large = 400 + 204800 ms
    assert pick(c, "repair", Budget(ms=60_000)).model == "medium"
    assert pick(c, "generation", Budget()).model == "large"  # no budget: the largest


def test_an_energy_budget_and_a_fixed_choice(reg) -> None:  # type: ignore[no-untyped-def]
    c = costs(reg)
    # generation, 4096 tokens: medium 3686 J, large 16384 J, small 819 J
    assert pick(c, "generation", Budget(j=5000)).model == "medium"
    assert pick(c, "generation", Budget(ms=10**7, j=1000)).model == "small"
    none = pick(c, "completion", Budget(ms=1))
    assert none.model == "small" and "none fits the budget" in none.reason  # the fastest
    assert pick(c, "repair", Budget(ms=1), fixed="large").model == "large"


def test_the_pareto_front_leaves_out_dominated_models(reg) -> None:  # type: ignore[no-untyped-def]
    front = {c.name for c in pareto(costs(reg))}
    assert front == {"small", "medium", "large"}  # slow-small is slower, hungrier and smaller than medium


def test_unmeasured_figures_are_estimated_from_the_active_size(reg) -> None:  # type: ignore[no-untyped-def]
    moe = cost_of(reg.get("moe"), bandwidth_gbps=50.0, power_w=30.0)
    assert not moe.measured and moe.size_b == 30.5
    assert moe.ms_per_token == pytest.approx(1000 * 18.6 * 3.3 / 30.5 / 50.0)
    assert moe.j_per_token == pytest.approx(30.0 * moe.ms_per_token / 1000)
    assert cost_of(reg.get("small")).measured and cost_of(reg.get("small")).measured_on == "laptop"


def test_settings_route_each_kind_and_name_the_file(reg, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    s = defaults().with_overrides({"model.route.models": ["small", "medium", "large"], "model.route.repair_ms": 60000.0,
                                   "model.route.completion_ms": 500.0, "model.backend": "llama_cpp"}, "test")
    _costs, picks, unknown = route_all(reg, s)
    assert unknown == [] and {p.kind: p.model for p in picks} == {"completion": "small", "repair": "medium",
                                                                   "generation": "large"}
    files = [(str(tmp_path / "medium-q4.gguf"), "medium"), (str(tmp_path / "large-q4.gguf"), "large")]
    routed, note = routed_settings(s, "repair", reg, files)
    assert routed["model.path"] == str(tmp_path / "medium-q4.gguf") and note.startswith("routing: medium")
    _same, note = routed_settings(s, "completion", reg, files)
    assert "no file of it is in the models folders" in note
    off, note = routed_settings(defaults(), "generation", reg, files)
    assert note == "" and off["model.path"] == ""


def test_akgen_model_route_show_prints_the_front_and_the_picks(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "registry.toml").write_text(REGISTRY, encoding="utf-8")
    (tmp_path / "akgen.toml").write_text('[model.route]\nmodels = ["small", "medium", "large", "slow-small"]\n'
                                         "completion_ms = 500.0\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    res = CliRunner().invoke(app, ["model", "route", "--show"])
    assert res.exit_code == 0, res.output
    lines = {ln.split()[0]: ln for ln in res.output.splitlines() if ln.strip()}
    assert "*" in lines["small"] and "*" not in lines["slow-small"] and "measured on laptop" in lines["small"]
    assert "completion (32 tokens) -> small" in res.output


def test_every_request_kind_is_routed_from_the_akgen_toml_that_configured_it(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """route_request reads the registry and the model files of the folder whose akgen.toml set model.route.*; the
    repair flows and the generation loop get their kind's pick through repair_model (nothing is loaded here)."""
    from akgen_lsp.config import load_settings
    from akgen_lsp.model.route import route_request
    from akgen_lsp.repair.backend import model_label, repair_model

    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "registry.toml").write_text(REGISTRY.replace('name = "small"', 'name = "small"\n'
                                                                        'match = ["small*.gguf"]').replace(
        'name = "large"', 'name = "large"\nmatch = ["large*.gguf"]'), encoding="utf-8")
    for name in ("small-q4.gguf", "large-q4.gguf"):
        (tmp_path / "models" / name).write_bytes(b"GGUF")
    (tmp_path / "akgen.toml").write_text('[model]\nbackend = "llama_cpp"\npath = "models/small-q4.gguf"\n'
                                         '[model.route]\nmodels = ["small", "large"]\ncompletion_ms = 500.0\nrepair_ms = 0.0\n',
                                         encoding="utf-8")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)  # not the cwd's ./models: the configuring akgen.toml's
    s = load_settings(tmp_path, env={})
    picked = {k: route_request(s, k)[0]["model.path"] for k in ("completion", "repair", "generation")}
    assert picked == {"completion": str((tmp_path / "models" / "small-q4.gguf").resolve()),
                      "repair": str((tmp_path / "models" / "large-q4.gguf").resolve()),
                      "generation": str((tmp_path / "models" / "large-q4.gguf").resolve())}
    rm = repair_model(s, None, kind="generation")
    assert rm is not None and rm.label == "large" and rm.route.startswith("routing: large")
    assert model_label(s) == "large"
    off = s.with_overrides({"model.route.models": []}, "test")
    assert route_request(off, "repair")[2] == "" and model_label(off) == "small"
    with pytest.raises(ValueError, match="unknown request kind"):
        route_request(s, "chat")
