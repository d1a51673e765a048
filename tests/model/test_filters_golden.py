"""Golden tests, one set per post-filter (tests/model/data/filters.toml), and the chain as a whole."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from akgen_lsp.model.filters import POST_FILTERS, FilterContext, post_filter

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

CASES: list[dict[str, Any]] = tomllib.loads(
    (Path(__file__).with_name("data") / "filters.toml").read_text(encoding="utf-8")
)["case"]
FILTERS = dict(POST_FILTERS)


@pytest.mark.parametrize("case", CASES, ids=[f"{c['filter']}: {c['name']}" for c in CASES])
def test_golden(case: dict[str, Any]) -> None:
    ctx = FilterContext(case.get("prefix", ""), case.get("suffix", ""), case.get("mode", "single"))
    out = FILTERS[case["filter"]](case["input"], ctx)
    if case.get("dropped"):
        assert out is None
    else:
        assert out == case["expected"]


def test_every_filter_has_golden_cases() -> None:
    assert {name for name, _ in POST_FILTERS} - {"blank_after"} <= {c["filter"] for c in CASES}


def test_chain_stops_at_the_first_drop() -> None:
    ctx = FilterContext("    sum = a + b;\n    ", "\n}", "multi")
    assert post_filter("sum = a + b;", ctx) is None
    assert post_filter("    total = sum * 2;\n\tsum = 0;\n}", ctx) == "total = sum * 2;\n    sum = 0;"
