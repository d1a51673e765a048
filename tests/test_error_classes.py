"""The error taxonomy (akgen_lsp/error_classes.toml): its data, and that every finding carries one of its classes."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from akgen_lsp import error_classes
from akgen_lsp.ascendc.rules import all_rules
from akgen_lsp.error_classes import TaxonomyError, load_taxonomy, parse_taxonomy
from akgen_lsp.findings import Finding, Span, finding_from_json

PACKAGE = Path(error_classes.__file__).parent
KERNEL_CLASSES = {"api_mismatch", "hallucinated_api", "renamed_api", "dtype", "scope", "memory", "syntax",
                  "device_restriction", "tiling", "precision", "runtime", "performance"}


def test_the_table_has_the_twelve_kernel_classes_and_harness() -> None:
    tax = load_taxonomy()
    assert set(tax.kernel_ids) == KERNEL_CLASSES
    assert set(tax.ids) == KERNEL_CLASSES | {"harness"} and not tax.classes["harness"].kernel_error
    assert tax.version == "1.0"
    for c in tax.classes.values():
        assert c.title and len(c.definition) > 60 and c.examples, c.id


def test_every_example_is_recognised_by_the_message_rules() -> None:
    """The examples are real messages of their class: the rules a raw log is classified with must agree."""
    tax = load_taxonomy()
    wrong = [(c.id, e, tax.for_message(e)) for c in tax.classes.values() for e in c.examples
             if tax.for_message(e) != c.id]
    assert wrong == []


def _produced_codes() -> set[str]:
    codes: set[str] = set()
    for p in [*PACKAGE.rglob("*.py"), *PACKAGE.rglob("*.h"), *PACKAGE.rglob("*.cpp")]:
        text = p.read_text(errors="replace")
        codes.update(re.findall(r'"((?:SIM|BENCH|CANN)-[A-Z0-9]+(?:-[A-Z0-9]+)*)"', text))
        codes.update(re.findall(r'\b[A-Z_]*CODE = "([A-Z][A-Z0-9-]*)"', text))  # ESTIMATE_CODE = "AKGEN-ESTIMATE"
    codes.update(r.code for r in all_rules())
    codes.update({"CXX", "LINK", "CMAKE", "BUILD", "MSOPGEN"})
    return codes


def test_every_code_the_project_produces_has_a_class() -> None:
    codes = _produced_codes()
    assert len(codes) > 150  # the scan found the simulator's, the bench's and the rules' codes
    tax = load_taxonomy()
    missing = sorted(c for c in codes if c != "AKG110" and tax.normalize(c, None, "") is None)
    assert missing == []
    # AKG110's findings say their own class (scope or syntax)
    assert tax.normalize("AKG110", "scope") == "scope" and tax.normalize("AKG110", "syntax") == "syntax"


@pytest.mark.parametrize(("code", "given", "message", "expected"), [
    ("AKG101", "api_mismatch", "no member named 'Softmax'", "hallucinated_api"),  # the code fixes it
    ("SIM-DTYPE", "api_mismatch", "", "dtype"),  # the simulator's coarse class is corrected by the code table
    ("SIM-QUE-EMPTY", "memory", "", "memory"),
    ("SIM-QUE-NOINIT", "scope", "", "scope"),
    ("SIM-SOMETHING-NEW", None, "", "api_mismatch"),  # SIM-* catch-all
    ("CXX", "api_mismatch", "'Softmax' is not a member of 'AscendC'; did you mean 'SoftMax'?", "hallucinated_api"),
    ("CXX", None, "\u2018zz\u2019 was not declared in this scope", "scope"),  # g++'s UTF-8 quotes
    ("CXX", "other", "something the rules do not know", "api_mismatch"),  # an unknown alias: the CXX default
    ("CXX", "dtype", "something the rules do not know", "dtype"),  # the producer's class when no rule matches
    ("BENCH-TIMEOUT", "timeout", "", "runtime"),
    ("X-CUSTOM", "queue", "", "memory"),  # an alias
    ("X-CUSTOM", "anti_cheat", "", "precision"),
    ("X-CUSTOM", "toolchain", "", "harness"),
    ("X-CUSTOM", "not-a-class", "", None),
])
def test_normalize(code: str, given: str | None, message: str, expected: str | None) -> None:
    assert load_taxonomy().normalize(code, given, message) == expected


def test_a_finding_always_carries_a_class_of_the_table() -> None:
    f = Finding("SIM-DTYPE", "m", Span.point("k.cpp", 3), error_class="api_mismatch")
    assert f.error_class == "dtype"
    g = finding_from_json({"path": "k.cpp", "line": 3, "code": "BENCH-NO-WORK", "message": "m",
                           "error_class": "anti_cheat"})
    assert g.error_class == "precision"


def test_a_broken_table_is_refused_with_the_place_named() -> None:
    base = {"meta": {"schema": 1}, "class": [{"id": "a", "title": "A", "definition": "d", "examples": ["x"]}]}
    with pytest.raises(TaxonomyError, match=r"\[\[code\]\] X.*'b'"):
        parse_taxonomy({**base, "code": [{"pattern": "X", "class": "b"}]})
    with pytest.raises(TaxonomyError, match="does not compile"):
        parse_taxonomy({**base, "message": [{"pattern": "(", "class": "a"}]})
    with pytest.raises(TaxonomyError, match="schema"):
        parse_taxonomy({**base, "meta": {"schema": 7}})
