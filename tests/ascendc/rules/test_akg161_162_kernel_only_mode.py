"""AKG161 / AKG162: custom-op macros in kernel-only mode (both off by default)."""

from __future__ import annotations

import pytest

from akgen_lsp.ascendc.rules import rule_by_code

from .conftest import at, expected, fixture_text, found, lint


def test_both_rules_are_off_by_default() -> None:
    assert not rule_by_code("AKG161").default_enabled  # type: ignore[union-attr]
    assert not rule_by_code("AKG162").default_enabled  # type: ignore[union-attr]
    for name in ("akg161_bad.cpp", "akg162_bad.cpp"):
        assert all(f.code not in ("AKG161", "AKG162") for f in lint(fixture_text(name)))


def test_get_tiling_data() -> None:
    text = "void k(GM_ADDR tiling) {\n    GET_TILING_DATA_WITH_STRUCT(AddTiling, t, tiling);\n}\n"
    (f,) = lint(text, "AKG161")
    assert at(f) == (2, 5) and f.error_class == "tiling"
    assert f.message == (
        "'GET_TILING_DATA_WITH_STRUCT' is not available in kernel-only mode (no generated tiling header); "
        "hard-code the tiling values or pass them as kernel arguments"
    )
    defined = "#define GET_TILING_DATA(d, t) MyTiling d = Load(t)\n" + text.replace("_WITH_STRUCT(AddTiling, ", "(")
    assert lint(defined, "AKG161") == []


def test_dtype_macros() -> None:
    text = "KernelAdd<DTYPE_X, ORIG_DTYPE_Y> op;\n// DTYPE_Z\n"
    f1, f2 = lint(text, "AKG162")
    assert at(f1) == (1, 11) and f1.span.end_column == 18 and f1.error_class == "dtype"
    assert f1.message.startswith("'DTYPE_X' is defined only by the custom-op build")
    assert at(f2) == (1, 20)


@pytest.mark.parametrize(
    ("name", "code"),
    [("akg161_good.cpp", "AKG161"), ("akg161_bad.cpp", "AKG161"), ("akg162_good.cpp", "AKG162"),
     ("akg162_bad.cpp", "AKG162")],
)
def test_fixtures(name: str, code: str) -> None:
    text = fixture_text(name)
    assert found(lint(text, code)) == expected(text)
