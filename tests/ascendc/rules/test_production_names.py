"""Real APIs production kernels use, that the hand-written catalog lacks, are never unknown (AKG101/AKG102); the
register and SIMT families are Ascend 950 only (AKG104)."""

from __future__ import annotations

from akgen_lsp.ascendc.catalog import load_catalog
from akgen_lsp.ascendc.lint import lint_text
from akgen_lsp.ascendc.rules import select_rules
from akgen_lsp.config import defaults

from .conftest import lint

PRODUCTION = """#include "kernel_operator.h"
using namespace AscendC;
template <typename T>
__aicore__ inline void F(GM_ADDR list, LocalTensor<T>& dst, uint32_t n) {
    int64_t ratio = AscendC::GetTaskRation();
    if constexpr (AscendC::SupportType<T, half, float>()) {
        AscendC::ListTensorDesc desc(reinterpret_cast<__gm__ void*>(list));
        AscendC::TensorDesc<T> one;
        uint32_t blocks = AscendC::CeilDiv(n, 32U);
        AscendC::ArithProgression<T>(dst, (T)0, (T)1, blocks);
        constexpr AscendC::RoundMode mode = AscendC::RoundMode::CAST_HYBRID;
    }
}
"""


def test_the_issue_s_known_misses_are_known() -> None:
    assert [f for f in lint(PRODUCTION, "AKG101", "AKG102")] == []


def test_supporttype_is_not_a_misspelt_sorttype() -> None:
    cat = load_catalog()
    assert cat.known("AscendC::SupportType") and cat.known("AscendC::RoundMode::CAST_HYBRID")
    assert not cat.known("AscendC::SuportType")
    (f,) = lint("#include \"kernel_operator.h\"\nvoid g() { AscendC::SuportType<half>(); }\n", "AKG101")
    assert "SupportType" in f.message


def test_members_of_base_classes_from_the_headers() -> None:
    cat = load_catalog()
    assert cat.known_member("AscendC::LocalTensor", "SetAddr")  # BaseLocalTensor, read from the headers
    assert not cat.known_member("AscendC::LocalTensor", "Dequeue")


def test_a_microapi_call_on_a_910b_is_one_error_naming_the_arch() -> None:
    text = ("#include \"kernel_operator.h\"\n__aicore__ inline void V(AscendC::MicroAPI::MaskReg& m) {\n"
            "    AscendC::MicroAPI::RegTensor<float> a, b;\n    AscendC::MicroAPI::Add(a, a, b, m);\n}\n")
    assert lint(text, "AKG104") == []  # nothing names an arch: a file that uses MicroAPI is Ascend 950 code
    on_910b = defaults().with_overrides({"arch": "Ascend910B2"}, "akgen.toml")
    rules = select_rules(["AKG104"])
    (f,) = lint_text(text, "v.h", on_910b, rules=rules)
    assert f.span.line == 4 and "Ascend 950" in f.message and "Ascend910B2" in f.message
    guarded = text.replace("    AscendC::MicroAPI::Add", "#if __NPU_ARCH__ == 3510\n    AscendC::MicroAPI::Add") \
        .replace("m);\n}", "m);\n#endif\n}")
    assert lint_text(guarded, "v.h", on_910b, rules=rules) == []


def test_an_a2_only_api_on_ascend_950_is_one_error_naming_the_arch() -> None:
    text = ("#include \"kernel_operator.h\"\n__aicore__ inline void S() {\n    AscendC::SetSaturationFlag(1);\n"
            "    AscendC::Muls(a, b, s, 8);\n#if __NPU_ARCH__ != 3510\n    AscendC::MmadWithSparse(c, a, b, p);\n"
            "#endif\n}\n")
    rules = select_rules(["AKG104"])
    on_950 = defaults().with_overrides({"arch": "Ascend950PR"}, "akgen.toml")
    (f,) = lint_text(text, "s.h", on_950, rules=rules)
    assert f.span.line == 3 and "Ascend950PR" in f.message and "Atlas A2" in f.message
    assert f.data["npu_arch"] == "3510"
    on_910b = defaults().with_overrides({"arch": "Ascend910B2"}, "akgen.toml")
    assert lint_text(text, "s.h", on_910b, rules=rules) == []


def test_the_reference_support_facts_keep_950_forms_apart() -> None:
    cat = load_catalog()
    yes, no = cat.support["SetSaturationFlag"]
    assert "950" in no and "910b" in yes
    # the C API's A2/A3 pages and its 3510 pages share names: a name any page documents for 950 is not A2-only
    assert "950" in cat.support["asc_add"][0] and "910b" in cat.support["asc_add"][0]
