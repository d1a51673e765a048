"""AKG103: names that the targeted CANN version does not have, or has deprecated."""

from __future__ import annotations

import pytest

from akgen_lsp.findings import Severity

from .conftest import apply_fix, at, expected, fixture_text, found, lint, tiny_catalog

CATALOG = tiny_catalog(
    """
[[entry]]
name = "AscendC::WholeReduceMax"
kind = "function"
removed = "9.1"
replaced_by = "AscendC::ReduceRepeat"
  [[entry.overload]]
  template = "template <typename T, bool isSetMask = true>"
  signature = "void WholeReduceMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t mask, const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride)"

[[entry]]
name = "AscendC::ReduceRepeat"
kind = "function"
since = "9.1"
  [[entry.overload]]
  template = "template <ReduceType type, typename T>"
  signature = "void ReduceRepeat(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t mask, const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride)"

[[entry]]
name = "AscendC::ReduceType"
kind = "enum"
since = "9.1"

[[entry]]
name = "AscendC::ReduceType::MAX"
kind = "enumerator"
since = "9.1"

[[entry]]
name = "AscendC::Divs"
kind = "function"
since = "9.0"
  [[entry.overload]]
  signature = "void Divs(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalar, const int32_t& count)"

[[entry]]
name = "AscendC::CompareScalar"
kind = "function"
deprecated = true
replaced_by = "AscendC::Compares"
  [[entry.overload]]
  signature = "void CompareScalar(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar, CMPMODE cmpMode, uint32_t count)"

[[entry]]
name = "AscendC::Compares"
kind = "function"
since = "8.0"
  [[entry.overload]]
  signature = "void Compares(const LocalTensor<U>& dst, const LocalTensor<T>& src0, const T src1Scalar, CMPMODE cmpMode, uint32_t count)"

[[entry]]
name = "AscendC::CMPMODE"
kind = "enum"

[[entry]]
name = "AscendC::CMPMODE::GT"
kind = "enumerator"

[[entry]]
name = "AscendC::OldSelect"
kind = "function"
removed = "9.0"
replaced_by = "AscendC::NewSelect"
  [[entry.overload]]
  signature = "void OldSelect(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work, const int32_t count)"

[[entry]]
name = "AscendC::NewSelect"
kind = "function"
since = "9.0"
  [[entry.overload]]
  signature = "void NewSelect(const LocalTensor<T>& dst, const LocalTensor<T>& src, const LocalTensor<T>& work, const int32_t count)"

[[entry]]
name = "AscendC::BlockReduceSum"
kind = "function"
deprecated = true
replaced_by = "AscendC::ReduceDataBlock"
  [[entry.overload]]
  signature = "void BlockReduceSum(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t repeatTime, const int32_t mask, const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride)"

[[entry]]
name = "AscendC::ReduceDataBlock"
kind = "function"
  [[entry.overload]]
  signature = "void ReduceDataBlock(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t mask, const int32_t repeatTime, const int32_t dstRepStride, const int32_t srcBlkStride, const int32_t srcRepStride)"

[[invented]]
name = "AscendC::ReduceDataBlock"
replacement = "AscendC::BlockReduceSum"
max_version = "9.1"

[[entry]]
name = "AscendC::GoneForGood"
kind = "function"
removed = "9.0"
  [[entry.overload]]
  signature = "void GoneForGood()"
"""
)


def run(text: str, version: str) -> list:
    return lint(text, "AKG103", catalog=CATALOG, cann_version=version)


def test_removed_name_with_a_renamed_replacement_is_an_unsafe_fix() -> None:
    text = "__aicore__ void f() { AscendC::WholeReduceMax(d, s, 64, 4, 1, 1, 8); }\n"
    (f,) = run(text, "9.1")
    assert f.message == (
        "'AscendC::WholeReduceMax' was removed in CANN 9.1 (target: CANN 9.1); use 'AscendC::ReduceRepeat'"
    )
    assert at(f) == (1, text.index("WholeReduceMax") + 1)
    assert f.severity is Severity.ERROR and f.error_class == "renamed_api"
    assert not f.fixes[0].safe  # ReduceRepeat needs a template argument: not a pure rename
    assert run(text, "8.5") == []


def test_pure_rename_is_a_safe_fix() -> None:
    text = "__aicore__ void f() { AscendC::OldSelect(d, s, w, 256); }\n"
    (f,) = run(text, "9.0")
    assert f.fixes[0].safe and f.fixes[0].title == "Rename 'OldSelect' to 'NewSelect'"
    assert apply_fix(text, f) == text.replace("OldSelect", "NewSelect")


def test_names_newer_than_the_target() -> None:
    text = (
        "__aicore__ void f() {\n"
        "  AscendC::Divs(d, s, 2.0f, 256);\n"
        "  AscendC::ReduceRepeat<AscendC::ReduceType::MAX>(d, s, 64, 4, 1, 1, 8);\n"
        "}\n"
    )
    msgs = [(f.span.line, f.message) for f in run(text, "8.5")]
    assert msgs == [
        (2, "'AscendC::Divs' is not available before CANN 9.0 (target: CANN 8.5)"),
        (3, "'AscendC::ReduceRepeat' is not available before CANN 9.1 (target: CANN 8.5)"),
        (3, "'AscendC::ReduceType' is not available before CANN 9.1 (target: CANN 8.5)"),
        (3, "'AscendC::ReduceType::MAX' is not available before CANN 9.1 (target: CANN 8.5)"),
    ]
    assert run(text, "9.1") == []


def test_deprecated_only_where_the_replacement_exists() -> None:
    text = "using namespace AscendC;\n__aicore__ void f() { CompareScalar(d, s, 0.0f, CMPMODE::GT, 256); }\n"
    (f,) = run(text, "8.5")
    assert f.severity is Severity.WARNING
    assert f.message == "'AscendC::CompareScalar' is deprecated since CANN 8.0; use 'AscendC::Compares'"
    assert run(text, "7.0") == []  # Compares does not exist yet: nothing to do about it


def test_first_version_from_an_invented_entry_with_max_version() -> None:
    old = "__aicore__ void f() { AscendC::BlockReduceSum(d, s, 4, 64, 1, 1, 8); }\n"
    (f,) = run(old, "9.1")
    assert f.severity is Severity.WARNING
    assert f.message == "'AscendC::BlockReduceSum' is deprecated since CANN 9.1; use 'AscendC::ReduceDataBlock'"
    assert not f.fixes[0].safe  # mask and repeat swap places: not a pure rename
    assert run(old, "8.5") == []
    new = "__aicore__ void f() { AscendC::ReduceDataBlock(d, s, 64, 4, 1, 1, 8); }\n"
    (g,) = run(new, "8.5")
    assert g.message == (
        "'AscendC::ReduceDataBlock' is not available before CANN 9.1 (target: CANN 8.5); use 'AscendC::BlockReduceSum'"
    )
    assert run(new, "9.1") == []


def test_removed_without_replacement() -> None:
    (f,) = run("__aicore__ void f() { AscendC::GoneForGood(); }\n", "9.0")
    assert f.message == "'AscendC::GoneForGood' was removed in CANN 9.0 (target: CANN 9.0)" and f.fixes == ()


@pytest.mark.parametrize("name", ["akg103_good.cpp", "akg103_bad.cpp"])
def test_fixtures(name: str) -> None:
    text = fixture_text(name)
    assert found(run(text, "9.1")) == expected(text)


def test_an_older_api_that_works_another_way_is_not_a_rename() -> None:
    """The bundled catalog: before CANN 9.0 there is no Subs (write Adds of the negated scalar) and no Divs (Muls of
    the reciprocal). Renaming alone would compile and compute something else, so neither fix is safe, and Subs's
    fix negates the scalar (undoing a negation already written)."""
    from akgen_lsp.ascendc.catalog import load_catalog

    real = load_catalog()
    text = ("using namespace AscendC;\n__aicore__ void f() {\n  Subs(d, s, (half)2.0, 256);\n"
            "  Subs(d, s, -(mean), 256);\n  Divs(d, s, 2.0f, 256);\n}\n")
    subs1, subs2, divs = lint(text, "AKG103", catalog=real, cann_version="8.5")
    assert subs1.fixes[0].title == "Rename 'Subs' to 'Adds' with argument 3 negated" and not subs1.fixes[0].safe
    assert "  Adds(d, s, -((half)2.0), 256);\n" in apply_fix(text, subs1)
    assert "  Adds(d, s, mean, 256);\n" in apply_fix(text, subs2)
    assert divs.fixes[0].title == "Rename 'Divs' to 'Muls'" and not divs.fixes[0].safe
    assert lint(text, "AKG103", catalog=real, cann_version="9.0") == []
