"""The one top-level split (ascendc/commas.py), on the cases its five former copies disagreed on."""

from __future__ import annotations

import pytest

from akgen_lsp.ascendc.commas import split_top_level


@pytest.mark.parametrize(("text", "parts"), [
    # plain lists, nesting in (), [], {} and template arguments
    ("GM_ADDR x, GM_ADDR y, uint32_t n", ["GM_ADDR x", "GM_ADDR y", "uint32_t n"]),
    ("f(a, b), g[c, d], {e, f}", ["f(a, b)", "g[c, d]", "{e, f}"]),
    ("TQue<QuePosition::VECIN, BUFFER_NUM> q, int n", ["TQue<QuePosition::VECIN, BUFFER_NUM> q", "int n"]),
    ("std::map<int, std::vector<int>> m, int k", ["std::map<int, std::vector<int>> m", "int k"]),
    ("TQue <TPosition::VECOUT, 2> q, int n", ["TQue <TPosition::VECOUT, 2> q", "int n"]),
    # `<` that is not a bracket (the copies that counted every `<` kept these in one part)
    ("1 < n, c", ["1 < n", "c"]),
    ("x << 2, y", ["x << 2", "y"]),
    ("n <= 8, m", ["n <= 8", "m"]),
    ("f(x) < y, z", ["f(x) < y", "z"]),
    # after a name a `<` opens template arguments, as in the copy that said so (catalog): C++ itself needs to know
    # whether the name is a template to tell
    ("a < b, c", ["a < b, c"]),
    # `>` that closes nothing (every-`<` copies went below zero and split nothing after it, or too much)
    ("a > b, c", ["a > b", "c"]),
    ("p->q, r", ["p->q", "r"]),
    ("x >> 1, y", ["x >> 1", "y"]),
    ("(a > b), c", ["(a > b)", "c"]),
    ("Foo<(N > 2)> f, int g", ["Foo<(N > 2)> f", "int g"]),
    # a comparison's `<` inside parentheses ends with them
    ("(i < n), k", ["(i < n)", "k"]),
    # literals
    ('"a,b", c', ['"a,b"', "c"]),
    ("',', c", ["','", "c"]),
    ("1'000, c", ["1'000", "c"]),
    # empty parts: none for an empty text; kept where written, the callers drop them
    ("", []),
    ("   ", []),
    ("a,", ["a", ""]),
])
def test_split_top_level(text: str, parts: list[str]) -> None:
    assert split_top_level(text) == parts


def test_another_separator_splits_a_default_value_off() -> None:
    assert split_top_level("Tensor<T, 2> x = T(1, 2)", "=") == ["Tensor<T, 2> x", "T(1, 2)"]
    assert split_top_level("bool b = n >= 2", "=") == ["bool b", "n >", "2"]
