"""AKG160: bfloat16/float16/fp16/bf16 used as types."""

from __future__ import annotations

import pytest

from .conftest import apply_fix, at, expected, fixture_text, found, lint


def test_template_argument_with_safe_fix() -> None:
    text = "__aicore__ void f() { AscendC::LocalTensor<bfloat16> x; }\n"
    (f,) = lint(text, "AKG160")
    assert f.message == "unknown type name 'bfloat16'; did you mean 'bfloat16_t'?"
    assert at(f) == (1, text.index("bfloat16") + 1) and f.span.end_column == text.index("bfloat16") + 9
    assert f.error_class == "dtype" and f.fixes[0].safe
    assert apply_fix(text, f) == text.replace("bfloat16>", "bfloat16_t>")


@pytest.mark.parametrize(
    ("code", "name", "right"),
    [
        ("fp16 v = 0;", "fp16", "half"),
        ("auto v = (float16)x;", "float16", "half"),
        ("auto v = static_cast<bf16>(x);", "bf16", "bfloat16_t"),
        ("uint32_t n = sizeof(bf16) * 8;", "bf16", "bfloat16_t"),
        ("Cast<float, float16>(a, b, m, n);", "float16", "half"),
    ],
)
def test_type_positions(code: str, name: str, right: str) -> None:
    (f,) = lint("__aicore__ void f() { " + code + " }\n", "AKG160")
    assert f.message == f"unknown type name '{name}'; did you mean '{right}'?"


@pytest.mark.parametrize(
    "text",
    [
        "typedef half fp16;\n__aicore__ void f() { fp16 v = 0; }\n",
        "#define bf16 bfloat16_t\n__aicore__ void f() { bf16 v = 0; }\n",
        "struct float16 { short bits; };\nfloat16 v;\n",
        "__aicore__ void f() { int bf16 = 1; int x = bf16 * 2; }\n",
        "__aicore__ void f() { float16_t a; bfloat16_t b; half c; } // fp16 bf16\n",
        'const char* s = "bfloat16";\n',
        "namespace mine { using bf16 = short; }\nmine::bf16 v;\n",
    ],
)
def test_not_a_wrong_type_spelling(text: str) -> None:
    assert lint(text, "AKG160") == []


@pytest.mark.parametrize("name", ["akg160_good.cpp", "akg160_bad.cpp"])
def test_fixtures(name: str) -> None:
    text = fixture_text(name)
    assert found(lint(text, "AKG160")) == expected(text)
