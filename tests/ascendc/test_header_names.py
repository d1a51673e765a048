"""Reading the public names of an Ascend C header tree (our own small headers, laid out as asc-devkit is)."""

from __future__ import annotations

from akgen_lsp.ascendc.header_names import scan

HEADER = """
#ifndef DEMO_H
#define DEMO_H
namespace AscendC {
namespace Reg {
template <typename T, typename U>
__simd_callee__ inline void Add(U& dst, U& a, U& b, MaskReg& mask);  // a declaration
}
enum class RoundMode : uint8_t { CAST_NONE = 0, CAST_RINT, CAST_HYBRID };
template <typename T>
class LocalThing : public BaseThing<T> {
public:
    __aicore__ inline void Fill(const T value, uint32_t count = 0) { (void)value; }
    [[deprecated("use Fill")]] __aicore__ inline void Clear(uint32_t count) {}
private:
    __aicore__ inline void Hidden() {}
};
#if (__NPU_ARCH__ == 3510)
constexpr uint32_t WIDE_BLOCK = 512;
__aicore__ inline void OnlyNew(int32_t a) {
    if (a) {
#else
__aicore__ inline void OnlyNew(int32_t a, int32_t b) {
    if (a) {
#endif
    }
}
namespace detail { __aicore__ inline void Internal() {} }
__aicore__ inline int64_t GetThingImpl() { return 0; }
__aicore__ inline int64_t GetThing() { return GetThingImpl(); }
}  // namespace AscendC
#endif
"""


def test_scan_reads_names_kinds_namespaces_and_arch_guards() -> None:
    facts = {f.name: f for f in scan(HEADER, "basic_api", "include/basic_api/demo.h")}
    assert facts["AscendC::Reg::Add"].kind == "function" and facts["AscendC::Reg::Add"].arities == {(4, 4)}
    assert facts["AscendC::RoundMode"].kind == "enum"
    assert facts["AscendC::RoundMode::CAST_HYBRID"].kind == "enumerator"
    assert facts["AscendC::LocalThing"].bases == {"BaseThing"}
    assert facts["AscendC::LocalThing::Fill"].arities == {(1, 2)}
    assert "AscendC::LocalThing::Clear" in facts  # an attribute before the declaration
    assert "AscendC::LocalThing::Hidden" not in facts  # private
    assert facts["AscendC::WIDE_BLOCK"].archs == {"3510"}
    # both branches of the #if open a brace: the scopes after #endif are those of the first branch
    assert "AscendC::GetThing" in facts and "AscendC::GetThingImpl" not in facts
    assert not any("Internal" in n for n in facts)
