"""The synchronisation mutants (errors/mutations/sync.py) on our own kernel, and the audit catching them."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from akgen_lsp.ascendc.catalog import load_catalog
from akgen_lsp.ascendc.lint import lint_text
from akgen_lsp.ascendc.rules import select_rules
from akgen_lsp.errors.mutations import MutationContext
from akgen_lsp.errors.mutations.sync import SYNC_OPERATORS

FIXTURE = Path(__file__).resolve().parents[1] / "ascendc" / "rules" / "fixtures" / "sync_good.cpp"


def test_each_operator_makes_mutants_and_the_audit_catches_most() -> None:
    text = FIXTURE.read_text(encoding="utf-8")
    cat = load_catalog()
    ctx = MutationContext(text, "sync_good.cpp", cat)
    rules = select_rules(["AKG17"])
    assert lint_text(text, "sync_good.cpp", catalog=cat, rules=rules) == []
    made: Counter[str] = Counter()
    caught: Counter[str] = Counter()
    for name, op in SYNC_OPERATORS.items():
        for m in op(ctx):
            made[name] += 1
            mutated = m.apply(text)
            assert mutated != text and m.error_class == "memory"
            if lint_text(mutated, "sync_good.cpp", catalog=cat, rules=rules):
                caught[name] += 1
    assert set(made) == set(SYNC_OPERATORS)
    assert caught["flip_hard_event"] >= 1 and caught["return_between_flags"] == made["return_between_flags"]
    assert sum(caught.values()) >= sum(made.values()) // 2


def test_flip_changes_both_calls_of_the_pair() -> None:
    text = FIXTURE.read_text(encoding="utf-8")
    ctx = MutationContext(text, "sync_good.cpp", load_catalog())
    m = next(m for m in SYNC_OPERATORS["flip_hard_event"](ctx) if "MTE2_V" in m.description)
    out = m.apply(text)
    assert out.count("HardEvent::V_MTE2>(eventIdMte2ToV)") == 2 and len(m.edits) == 2
