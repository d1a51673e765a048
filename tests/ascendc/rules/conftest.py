"""Shared helpers for rule tests.

Import them in a rule test with ``from .conftest import lint, fixture_text, tiny_catalog, ...`` (the test folders are
packages), or use the fixtures below.

- `lint(text, *codes, catalog=None, cann_version=None, path="kernel.cpp")`: the findings of the named rules only
  (codes may be prefixes; off-by-default rules run when named).
- `fixture_text(name)`: the text of ``tests/ascendc/rules/fixtures/<name>``.
- `tiny_catalog(toml_text)`: a `Catalog` built from TOML written in the test (exact behaviour, independent of the
  bundled catalog that is being filled concurrently).
- `bundled_has(*names)`: whether the bundled catalog has every name (skip a test that needs an entry it lacks).
- `apply_fix(text, finding, index=0)`: the text after applying one fix of a finding.
- `at(finding)`: ``(line, column)`` of a finding's span start, for short assertions.
- `expected(text)` / `found(findings)`: ``Counter`` of ``(code, line)`` from ``// expect: AKG101 AKG101`` markers at
  the ends of fixture lines, and from findings, to compare a fixture's findings with its markers.
"""

from __future__ import annotations

import re
import tempfile
from collections import Counter
from collections.abc import Callable, Iterable
from pathlib import Path

import pytest

from akgen_lsp.ascendc.catalog import Catalog, load_catalog, load_catalog_dir
from akgen_lsp.ascendc.lint import lint_text
from akgen_lsp.ascendc.rules import Rule, all_rules
from akgen_lsp.config import defaults
from akgen_lsp.findings import Finding, apply_edits

FIXTURES = Path(__file__).resolve().parent / "fixtures"


def rules_named(*codes: str) -> list[Rule]:
    """The rules whose code starts with one of `codes` (all rules, default-enabled or not)."""
    wanted = [c.upper() for c in codes]
    chosen = [r for r in all_rules() if any(r.code.startswith(c) for c in wanted)]
    if not chosen:
        raise AssertionError(f"no rule matches {codes!r}")
    return chosen


def lint(
    text: str,
    *codes: str,
    catalog: Catalog | None = None,
    cann_version: str | None = None,
    path: str = "kernel.cpp",
) -> list[Finding]:
    """Findings of the rules `codes` (every default rule when none is named) on `text`."""
    settings = defaults()
    if cann_version is not None:
        settings = settings.with_overrides({"cann.version": cann_version}, "test")
    rules = rules_named(*codes) if codes else None
    return lint_text(text, path=path, settings=settings, catalog=catalog or load_catalog(), rules=rules)


def fixture_text(name: str) -> str:
    return (FIXTURES / name).read_text(encoding="utf-8")


def tiny_catalog(toml_text: str) -> Catalog:
    """A catalog from one TOML text in the catalog schema (``[meta]`` is optional)."""
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "test.toml").write_text(toml_text, encoding="utf-8")
        return load_catalog_dir(Path(tmp))


def bundled_has(*names: str) -> bool:
    cat = load_catalog()
    return all(n in cat for n in names)


def apply_fix(text: str, finding: Finding, index: int = 0) -> str:
    return apply_edits(text, finding.fixes[index].edits)


def at(finding: Finding) -> tuple[int, int]:
    return (finding.span.line, finding.span.column)


_EXPECT_RE = re.compile(r"//\s*expect:\s*((?:AKG\d+\s*)+)$")


def expected(text: str) -> Counter[tuple[str, int]]:
    out: Counter[tuple[str, int]] = Counter()
    for n, line in enumerate(text.splitlines(), 1):
        m = _EXPECT_RE.search(line)
        if m:
            out.update((code, n) for code in m.group(1).split())
    return out


def found(findings: Iterable[Finding]) -> Counter[tuple[str, int]]:
    return Counter((f.code, f.span.line) for f in findings)


@pytest.fixture
def lint_fn() -> Callable[..., list[Finding]]:
    return lint


@pytest.fixture
def fixtures_dir() -> Path:
    return FIXTURES
