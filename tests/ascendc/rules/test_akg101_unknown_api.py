"""AKG101: unknown names in namespace AscendC and unknown methods of Ascend C classes."""

from __future__ import annotations

import pytest

from .conftest import apply_fix, at, bundled_has, expected, fixture_text, found, lint, tiny_catalog

CATALOG = tiny_catalog(
    """
[[entry]]
name = "AscendC::SoftMax"
kind = "function"
  [[entry.overload]]
  signature = "void SoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const SoftMaxTiling& tiling)"

[[entry]]
name = "AscendC::Exp"
kind = "function"
  [[entry.overload]]
  signature = "void Exp(const LocalTensor<T>& dst, const LocalTensor<T>& src, const int32_t& count)"

[[entry]]
name = "AscendC::BroadCast"
kind = "function"
  [[entry.overload]]
  signature = "void BroadCast(const LocalTensor<T>& dst, const LocalTensor<T>& src, const uint32_t dstShape[], const uint32_t srcShape[])"

[[entry]]
name = "AscendC::LocalTensor"
kind = "class"

[[entry]]
name = "AscendC::TQueBind"
kind = "class"

[[entry]]
name = "AscendC::TQue"
kind = "class"
bases = ["AscendC::TQueBind"]

[[entry]]
name = "AscendC::TQueBind::DeQue"
kind = "method"
  [[entry.overload]]
  signature = "LocalTensor<T> DeQue()"

[[entry]]
name = "AscendC::TQueBind::AllocTensor"
kind = "method"
  [[entry.overload]]
  signature = "LocalTensor<T> AllocTensor()"

[[entry]]
name = "AscendC::HardEvent"
kind = "enum"

[[entry]]
name = "AscendC::HardEvent::V_S"
kind = "enumerator"

[[entry]]
name = "AscendC::HardEvent::MTE2_V"
kind = "enumerator"

[[entry]]
name = "AscendC::SetFlag"
kind = "function"
  [[entry.overload]]
  signature = "void SetFlag(int32_t eventID)"

[[invented]]
name = "AscendC::Softmax"
replacement = "AscendC::SoftMax"
certain = true

[[invented]]
name = "AscendC::TQueBind::PopTensor"
replacement = "AscendC::TQueBind::DeQue"
certain = true

[[invented]]
name = "AscendC::GetValue"
replacement = "AscendC::LocalTensor::GetValue"
note = "GetValue is a member of the tensor."
"""
)

HEAD = '#include "kernel_operator.h"\nusing namespace AscendC;\n'


def run(body: str) -> list:
    return lint(HEAD + body, "AKG101", catalog=CATALOG)


def test_invented_name_with_certain_replacement() -> None:
    text = HEAD + "__aicore__ void f(LocalTensor<half>& d, LocalTensor<half>& s) { AscendC::Softmax(d, s, t); }\n"
    (f,) = lint(text, "AKG101", catalog=CATALOG)
    assert f.message == "no member named 'Softmax' in namespace 'AscendC'; did you mean 'SoftMax'?"
    assert at(f) == (3, text.splitlines()[2].index("Softmax") + 1)
    assert f.span.end_column - f.span.column == len("Softmax")
    assert f.error_class == "hallucinated_api" and f.source == "akgen-lint"
    assert f.fixes[0].safe and f.fixes[0].title == "Rename to 'SoftMax'"
    assert "AscendC::SoftMax(d, s, t)" in apply_fix(text, f)


def test_unknown_method_of_a_known_class_with_one_candidate() -> None:
    text = HEAD + (
        "class K {\n"
        "  __aicore__ void Go() { LocalTensor<half> x = q.Dequeue<half>(); }\n"
        "  TQue<TPosition::VECIN, 2> q;\n"
        "};\n"
    )
    (f,) = lint(text, "AKG101", catalog=CATALOG)
    assert f.message == "no member named 'Dequeue' in 'AscendC::TQue'; did you mean 'DeQue'?"
    assert at(f) == (4, text.splitlines()[3].index("Dequeue") + 1)
    assert f.fixes[0].safe
    assert "q.DeQue<half>()" in apply_fix(text, f)


def test_invented_method_found_through_the_base_class() -> None:
    text = HEAD + "__aicore__ void f(TQue<TPosition::VECIN, 1>& q) { auto t = q.PopTensor<half>(); }\n"
    (f,) = lint(text, "AKG101", catalog=CATALOG)
    assert f.message == "no member named 'PopTensor' in 'AscendC::TQue'; did you mean 'DeQue'?"
    assert f.fixes[0].safe and "q.DeQue<half>()" in apply_fix(text, f)


def test_unknown_template_and_enumerator() -> None:
    text = HEAD + (
        "__aicore__ void f() {\n"
        "  AscendC::Broadcast<half, 2>(a, b, c, d);\n"
        "  AscendC::SetFlag<AscendC::HardEvent::V_SS>(0);\n"
        "}\n"
    )
    f1, f2 = lint(text, "AKG101", catalog=CATALOG)
    assert f1.message == "no member named 'Broadcast' in namespace 'AscendC'; did you mean 'BroadCast'?"
    assert f1.span.line == 4
    assert f2.message == "no member named 'V_SS' in 'AscendC::HardEvent'; did you mean 'V_S'?"
    assert at(f2) == (5, text.splitlines()[4].index("V_SS") + 1)
    typed = lint(HEAD + "AscendC::Broadcast<half> b;\nAscendC::Tensor x;\n", "AKG101", catalog=CATALOG)
    assert [f.message for f in typed] == [
        "no template named 'Broadcast' in namespace 'AscendC'; did you mean 'BroadCast'?",
        "no type named 'Tensor' in namespace 'AscendC'",
    ]
    assert typed[1].fixes == ()


def test_invented_name_whose_replacement_is_a_member() -> None:
    (f,) = run("__aicore__ void f() { auto v = AscendC::GetValue(x, 0); }\n")
    assert f.message == (
        "no member named 'GetValue' in namespace 'AscendC'; use 'AscendC::LocalTensor::GetValue'"
        " (GetValue is a member of the tensor)"
    )
    assert f.fixes == ()


def test_unqualified_misspelling_through_using_namespace() -> None:
    (f,) = run("__aicore__ void f() { Softmax(d, s, t); }\n")
    assert f.message == "use of undeclared identifier 'Softmax'; did you mean 'SoftMax'?"
    assert f.fixes[0].safe


def test_names_of_the_file_intrinsics_and_foreign_headers_are_not_reported() -> None:
    body = (
        "__aicore__ void Softmaxx(int a);\n"
        "namespace AscendC { __aicore__ inline void MyHelper() {} }\n"
        "__aicore__ void f() {\n"
        "  Softmaxx(1);\n"
        "  AscendC::MyHelper();\n"
        "  pipe_barrier(PIPE_V);\n"
        "  auto Exq = [](int v) { return v; };\n"
        "  Exq(2);\n"
        "  AscendC::Reg::RegTensor<float> r;\n"  # a nested namespace the catalog does not cover
        "  using namespace AscendC::Te;\n"
        "  AscendC::Exp(a, b, 16);\n"
        "}\n"
    )
    assert run(body) == []
    foreign = '#include "kernel_operator.h"\n#include "my_ops.h"\nusing namespace AscendC;\n'
    assert lint(foreign + "__aicore__ void f() { Softmax(d, s, t); }\n", "AKG101", catalog=CATALOG) == []
    # a header of the kernel's own may define AscendC::GetUserWorkspace; a misspelt real name is still reported
    own = lint(foreign + "__aicore__ void f() { AscendC::GetUserWorkspace(w); AscendC::Softmax(d, s, t); }\n",
               "AKG101", catalog=CATALOG)
    assert [f.data["name"] for f in own] == ["Softmax"]


def test_methods_of_classes_the_catalog_does_not_describe_are_not_reported() -> None:
    text = HEAD + "__aicore__ void f(LocalTensor<half>& t) { t.Anything(); }\n"
    assert lint(text, "AKG101", catalog=CATALOG) == []  # LocalTensor has no members in this catalog


@pytest.mark.skipif(
    not bundled_has("AscendC::SoftMax", "AscendC::TQueBind::DeQue", "AscendC::HardEvent::MTE3_V",
                    "AscendC::GlobalTensor", "AscendC::Exp", "AscendC::Cast", "AscendC::Muls"),
    reason="the bundled catalog lacks an entry these fixtures use",
)
@pytest.mark.parametrize("name", ["akg101_good.cpp", "akg101_bad.cpp"])
def test_fixtures_with_the_bundled_catalog(name: str) -> None:
    text = fixture_text(name)
    assert found(lint(text, "AKG101")) == expected(text)
