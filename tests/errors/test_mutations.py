"""The mutation operators on the bundled suite's reference answers."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from akgen_lsp.ascendc.catalog import load_catalog
from akgen_lsp.errors.mutations import OBSERVABLE, OPERATORS, MutationContext, mutations, pick

SUITE = Path(__file__).resolve().parents[2] / "akgen_lsp" / "bench" / "suite" / "tasks"
ANSWERS = sorted(SUITE.glob("*/*/*/answer/0/op_kernel/*.cpp"))


@pytest.fixture(scope="module")
def contexts() -> list[MutationContext]:
    cat = load_catalog()
    return [MutationContext(p.read_text(), str(p), cat) for p in ANSWERS]


def test_every_operator_finds_sites_in_the_suite(contexts: list[MutationContext]) -> None:
    found = Counter(m.operator for ctx in contexts for m in mutations(ctx))
    assert set(found) == set(OPERATORS), set(OPERATORS) - set(found)
    assert set(OPERATORS) > OBSERVABLE


def test_a_mutation_is_one_realistic_edit(contexts: list[MutationContext]) -> None:
    add = next(c for c in contexts if c.path.endswith("add_math.cpp"))
    by: dict[str, object] = {}
    for m in mutations(add):
        by.setdefault(m.operator, m)  # the first site of each operator
    text = add.text
    assert "inQ0.EnQue(a0);" not in by["drop_enque"].apply(text) and text.count("inQ0.EnQue(a0);") == 1
    assert by["drop_enque"].error_class == "memory" and "DeQue" in by["drop_enque"].explanation
    stl = by["device_stl"].apply(text)
    assert "std::vector<float> scratch(32);" in stl and by["device_stl"].error_class == "device_restriction"
    inv = by["invented_api"]
    assert inv.error_class == "hallucinated_api" and inv.apply(text) != text
    for m in mutations(add):
        out = m.apply(text)
        assert out != text and m.line >= 1 and m.description and m.explanation
        assert len(out.splitlines()) - len(text.splitlines()) in (-2, -1, 0, 1, 2)


def test_pick_spreads_over_the_operators(contexts: list[MutationContext]) -> None:
    add = next(c for c in contexts if c.path.endswith("add_math.cpp"))
    every = mutations(add)
    chosen = pick(every, 14)
    with_sites = {m.operator for m in every}
    assert len(with_sites) == 12  # AddMath has no SetFlag pair and no Adds
    assert len(chosen) == 14 and {m.operator for m in chosen} == with_sites  # each operator once, then again
    assert [m.key for m in pick(mutations(add), 14)] == [m.key for m in chosen]  # deterministic


def test_renamed_api_negates_the_scalar(contexts: list[MutationContext]) -> None:
    ctx = next(c for c in contexts if any(m.operator == "renamed_api" for m in mutations(c)))
    (m,) = [m for m in mutations(ctx) if m.operator == "renamed_api"]
    out = m.apply(ctx.text)
    assert "Subs(" in out and ", -(" in out and m.error_class == "renamed_api"
