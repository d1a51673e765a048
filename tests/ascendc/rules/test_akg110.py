"""AKG110 kernel-entry: entries declared wrong, host functions called from device code."""

from __future__ import annotations

from akgen_lsp.ascendc.rules import rule_by_code

from .conftest import apply_fix, at, fixture_text, lint


def test_good_fixture_is_clean() -> None:
    assert lint(fixture_text("akg110_good.cpp"), "AKG110") == []


def test_bad_fixture_findings_in_place() -> None:
    found = lint(fixture_text("akg110_bad.cpp"), "AKG110", path="akg110_bad.cpp")
    assert [(f.span.line, f.span.column) for f in found] == [(15, 28), (29, 32), (39, 28), (46, 23), (46, 27)]
    assert all(f.code == "AKG110" and f.source == "akgen-lint" for f in found)
    host, member, extern_c, non_void, not_aicore = found
    assert host.message.startswith('calling a __host__ function("CeilDiv") from a __aicore__ function("Init") is '
                                   "not allowed")
    assert host.error_class == "scope"
    assert "must be a free function" in member.message and "KernelCopy" in member.message
    assert "lacks extern \"C\"" in extern_c.message and "copy_custom" in extern_c.message
    assert "must have void return type" in non_void.message and "'int'" in non_void.message
    assert "not __aicore__" in not_aicore.message


def test_extern_c_fix_is_safe_and_makes_the_entry_clean() -> None:
    text = fixture_text("akg110_bad.cpp")
    finding = next(f for f in lint(text, "AKG110") if "extern" in f.message)
    assert finding.fixes[0].safe
    fixed = apply_fix(text, finding)
    assert 'extern "C" __global__ __aicore__ void copy_custom(' in fixed
    assert not any("extern" in f.message for f in lint(fixed, "AKG110"))


def test_aicore_fix_inserts_after_global() -> None:
    text = fixture_text("akg110_bad.cpp")
    finding = next(f for f in lint(text, "AKG110") if "not __aicore__" in f.message)
    assert 'extern "C" __global__ __aicore__ int bad_return(' in apply_fix(text, finding)


def test_host_call_fix_is_unsafe_and_marks_the_callee() -> None:
    text = fixture_text("akg110_bad.cpp")
    finding = next(f for f in lint(text, "AKG110") if "__host__" in f.message)
    assert not finding.fixes[0].safe
    fixed = apply_fix(text, finding)
    assert "__aicore__ inline uint32_t CeilDiv(" in fixed
    assert not any("__host__" in f.message for f in lint(fixed, "AKG110"))


KERNEL = """#include "kernel_operator.h"
{head} void add_custom(GM_ADDR x, GM_ADDR y)
{{
}}
"""


def test_missing_global_on_an_extern_c_aicore_function() -> None:
    text = KERNEL.format(head='extern "C" __aicore__')
    (finding,) = lint(text, "AKG110")
    assert at(finding) == (2, 28)
    assert "is not __global__" in finding.message
    assert apply_fix(text, finding).splitlines()[1].startswith('extern "C" __global__ __aicore__ void add_custom(')


def test_accepted_entry_spellings() -> None:
    for head in ('extern "C" __global__ __aicore__', 'extern "C" __global__ __vector__', 'extern "C" __mix__(1, 2) '
                 "__global__", 'extern "C" __global__ [aicore]', '__global__ __aicore__ extern "C"'):
        assert lint(KERNEL.format(head=head), "AKG110") == [], head


def test_asc_file_that_launches_its_kernel_needs_no_extern_c() -> None:
    text = KERNEL.format(head="__global__ __vector__") + (
        "int main() { add_custom<<<8, nullptr, nullptr>>>(nullptr, nullptr); return 0; }\n")
    assert lint(text, "AKG110", path="add.asc") == []
    assert lint(text, "AKG110", path="add.cpp") == []  # launched with <<<...>>> in the same file


def test_simt_kernel_is_not_an_aicore_entry() -> None:
    text = ("#include \"kernel_operator.h\"\n__global__ __launch_bounds__(256) void gather(float* x, float* y) {}\n"
            "__global__ void add(float* x, float* y, float* z) {}\n")
    assert lint(text, "AKG110") == []


def test_constexpr_and_macro_marked_helpers_are_device_functions() -> None:
    text = """#include "kernel_operator.h"
#define KERNEL_INLINE __aicore__ inline
constexpr uint32_t Align(uint32_t a) { return (a + 31) / 32 * 32; }
KERNEL_INLINE uint32_t Twice(uint32_t a) { return a * 2; }
__aicore__ inline uint32_t Declared(uint32_t a);
extern "C" __global__ __aicore__ void k(GM_ADDR x)
{
    uint32_t n = Align(Twice(Declared(3)));
}
uint32_t Declared(uint32_t a) { return a; }
"""
    assert lint(text, "AKG110") == []


def test_calls_through_objects_and_this() -> None:
    text = """#include "kernel_operator.h"
class Helper {
public:
    uint32_t Size() { return 4; }
};
class KernelX {
public:
    __aicore__ inline void Init() { this->Setup(); }
    void Setup() {}
};
extern "C" __global__ __aicore__ void k(GM_ADDR x)
{
    Helper h;
    uint32_t n = h.Size();
    KernelX op;
    op.Init();
}
"""
    found = lint(text, "AKG110")
    assert [(f.span.line, f.message.split(";")[0]) for f in found] == [
        (8, 'calling a __host__ function("Setup") from a __aicore__ function("Init") is not allowed'),
        (14, 'calling a __host__ function("Size") from a __aicore__ function("k") is not allowed'),
    ]


def test_host_code_may_call_host_functions() -> None:
    text = """#include "kernel_operator.h"
static uint32_t Tiles(uint32_t n) { return n / 8; }
uint32_t TilingFunc(uint32_t n) { return Tiles(n); }
#ifndef ASCENDC_CPU_DEBUG
void launch(uint8_t* x) { k<<<8, nullptr, nullptr>>>(x); Tiles(3); }
#endif
"""
    assert lint(text, "AKG110") == []


def test_rule_is_documented() -> None:
    rule = rule_by_code("AKG110")
    assert rule is not None
    for section in ("## What it does", "## Why is this bad?", "## Example", "Use instead:", "## Fix safety",
                    "## References"):
        assert section in rule.doc


def test_extern_c_is_asked_of_custom_op_kernels_only() -> None:
    direct = KERNEL.format(head="__global__ __aicore__")  # launched with <<<...>>> from a separate main.cpp
    assert lint(direct, "AKG110", path="add_custom.cpp") == []
    assert len(lint(direct, "AKG110", path="op/op_kernel/add_custom.cpp")) == 1
    tiling = direct.replace("GM_ADDR y)", "GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)")
    assert [f.message.split(":")[0] for f in lint(tiling, "AKG110")] == [
        "kernel entry 'add_custom' lacks extern \"C\""]
    wrapper = "\nvoid add_custom_do(uint8_t* x, uint8_t* y) { add_custom<<<8, nullptr, nullptr>>>(x, y, x, y); }\n"
    assert lint(tiling + wrapper, "AKG110", path="add_custom.cpp") == []  # a direct-launch file
    # a custom-op kernel is looked up by name even when the file also carries a <<<...>>> wrapper
    assert len(lint(tiling + wrapper, "AKG110", path="op/op_kernel/add_custom.cpp")) == 1


def test_ai_cpu_kernels_are_not_ai_core_entries() -> None:
    text = '#include "kernel_operator.h"\n__global__ __aicpu__ uint32_t MyAicpuKernel(void *args) { return 0; }\n'
    assert lint(text, "AKG110") == []


def test_helpers_defined_only_in_some_builds_are_not_judged() -> None:
    text = """#include "kernel_operator.h"
#if defined(ASCENDC_CPU_DEBUG) && ASCENDC_CPU_DEBUG == 1
inline uint8_t* BaseAddr(int8_t pos) { return nullptr; }
#endif
#if __NPU_ARCH__ == 3510
inline uint32_t Lanes() { return 64; }
#endif
__aicore__ inline void Use() { BaseAddr(0); Lanes(); }
"""
    assert lint(text, "AKG110") == []
