"""AKG102: argument counts that no overload accepts."""

from __future__ import annotations

import pytest

from akgen_lsp.ascendc.catalog import parse_signature
from akgen_lsp.ascendc.rules.akg102_overload_arity import _describe_counts

from .conftest import at, bundled_has, expected, fixture_text, found, lint, tiny_catalog

CATALOG = tiny_catalog(
    """
[[entry]]
name = "AscendC::Add"
kind = "function"
  [[entry.overload]]
  form = "mask_repeat"
  template = "template <typename T, bool isSetMask = true>"
  signature = "void Add(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, uint64_t mask, const uint8_t repeatTime, const BinaryRepeatParams& repeatParams)"
  [[entry.overload]]
  form = "count"
  template = "template <typename T>"
  signature = "void Add(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const int32_t& count)"
  [[entry.overload]]
  form = "operator"
  signature = "void Add(const LocalTensor<T>& dst, const LocalTensor<T>& src0)"

[[entry]]
name = "AscendC::DataCopyPad"
kind = "function"
  [[entry.overload]]
  signature = "void DataCopyPad(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const DataCopyExtParams& params, const DataCopyPadExtParams<T>& padParams = {})"

[[entry]]
name = "AscendC::printf"
kind = "function"
  [[entry.overload]]
  template = "template <class... Args>"
  signature = "void printf(const char* fmt, Args&&... args)"

[[entry]]
name = "AscendC::TQueBind"
kind = "class"

[[entry]]
name = "AscendC::TQueBind::EnQue"
kind = "method"
  [[entry.overload]]
  signature = "bool EnQue(const LocalTensor<T>& tensor)"
"""
)

HEAD = '#include "kernel_operator.h"\nusing namespace AscendC;\n'


def test_add_with_three_arguments() -> None:
    text = HEAD + "__aicore__ void f() { AscendC::Add(z, x, y); }\n"
    (f,) = lint(text, "AKG102", catalog=CATALOG)
    assert f.message == (
        "no matching function for call to 'Add': it takes 4 or 6 arguments, 3 given; closest: "
        "template <typename T> void Add(const LocalTensor<T>& dst, const LocalTensor<T>& src0, "
        "const LocalTensor<T>& src1, const int32_t& count) | template <typename T, bool isSetMask = true> "
        "void Add(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, "
        "uint64_t mask, const uint8_t repeatTime, const BinaryRepeatParams& repeatParams)"
    )
    assert at(f) == (3, text.splitlines()[2].index("Add(") + 1)
    assert f.error_class == "api_mismatch" and f.fixes == ()
    assert f.data["given"] == 3 and len(f.data["candidates"]) == 2


def test_accepted_counts_defaults_templates_and_packs() -> None:
    body = (
        "__aicore__ void f(TQue<TPosition::VECIN, 1>& q) {\n"
        "  Add<half>(z, x, y, 128);\n"
        "  AscendC::Add(z, x, y, 64, 2, {1, 1, 1, 8, 8, 8});\n"
        "  DataCopyPad(a, b, p);\n"
        "  DataCopyPad(a, b, p, pad);\n"
        "  AscendC::printf(\"%d %d\", 1, 2);\n"
        "  q.EnQue(t);\n"
        "}\n"
    )
    assert lint(HEAD + body, "AKG102", catalog=CATALOG) == []


def test_method_with_wrong_count_and_unresolved_names() -> None:
    text = HEAD + (
        "class K { __aicore__ void Go() { q.EnQue(a, b); } TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> q; };\n"
        "__aicore__ void Mine(int a) {}\n"
        "__aicore__ void g() { Mine(1, 2, 3); Unknown(1); }\n"
    )
    (f,) = lint(text, "AKG102", catalog=CATALOG)
    assert f.message.startswith("no matching function for call to 'EnQue': it takes 1 argument, 2 given; closest: ")


def test_unqualified_calls_are_not_judged_when_headers_may_add_overloads() -> None:
    text = '#include "kernel_operator.h"\n#include "helpers.h"\nusing namespace AscendC;\nvoid f() { Add(a, b); }\n'
    assert lint(text, "AKG102", catalog=CATALOG) == []
    qualified = text.replace("Add(a, b)", "AscendC::Add(a, b)")
    assert len(lint(qualified, "AKG102", catalog=CATALOG)) == 1


@pytest.mark.parametrize(
    ("signatures", "text"),
    [
        (["void F(int a)"], "1"),
        (["void F(int a, int b = 0)"], "1 or 2"),
        (["void F(int a, int b, int c = 0, int d = 0)"], "2 to 4"),
        (["void F(int a)", "void F(int a, int b, int c)"], "1 or 3"),
        (["void F(int a, ...)"], "at least 1"),
        (["void F(int a)", "void F(int a, int b, Args&&... args)"], "1 or at least 2"),
    ],
)
def test_describe_counts(signatures: list[str], text: str) -> None:
    assert _describe_counts([parse_signature(s) for s in signatures]) == text


@pytest.mark.skipif(
    not bundled_has("AscendC::Add", "AscendC::WholeReduceMax", "AscendC::Duplicate", "AscendC::ReduceSum",
                    "AscendC::Muls"),
    reason="the bundled catalog lacks an entry these fixtures use",
)
@pytest.mark.parametrize("name", ["akg102_good.cpp", "akg102_bad.cpp"])
def test_fixtures_with_the_bundled_catalog(name: str) -> None:
    text = fixture_text(name)
    assert found(lint(text, "AKG102")) == expected(text)
