"""AKG150 device-restrictions: heap, virtual, recursion, STL, exceptions, file I/O and host calls in device code."""

from __future__ import annotations

from .conftest import at, fixture_text, lint


def test_good_fixture_is_clean() -> None:
    assert lint(fixture_text("akg150_good.cpp"), "AKG150") == []


def test_bad_fixture_findings_in_place() -> None:
    found = lint(fixture_text("akg150_bad.cpp"), "AKG150")
    got = [(at(f), f.message.split(": ")[0]) for f in found]
    assert got == [
        ((9, 29), "'Factorial' calls itself"),
        ((15, 16), "'virtual' in a kernel class"),
        ((17, 9), "'std::vector' in __aicore__ function 'Process'"),
        ((18, 9), "'std::sort' in __aicore__ function 'Process'"),
        ((19, 26), "'new' in __aicore__ function 'Process'"),
        ((20, 9), "'delete' in __aicore__ function 'Process'"),
        ((21, 21), "'malloc' in __aicore__ function 'Process'"),
        ((22, 9), "'free' in __aicore__ function 'Process'"),
        ((24, 13), "'throw' in __aicore__ function 'Process'"),
        ((26, 20), "'fopen' in __aicore__ function 'Process'"),
        ((27, 9), "'fclose' in __aicore__ function 'Process'"),
        ((28, 9), "'aclrtMemcpy' in __aicore__ function 'Process'"),
        ((33, 5), "'std::map' in kernel class 'KernelSort'"),
    ]
    assert {f.error_class for f in found} == {"device_restriction"}
    assert all(not f.fixes for f in found)


def _device(body: str) -> str:
    return f"""#include "kernel_operator.h"
using namespace AscendC;
__aicore__ inline void Work(uint32_t n)
{{
{body}
}}
"""


def test_compile_time_standard_library_is_fine() -> None:
    body = """    constexpr bool same = std::is_same_v<half, float>;
    uint32_t m = std::min(n, 8U) + std::max<uint32_t>(n, 1U);
    std::tuple<int32_t, int32_t> p{1, 2};
    int32_t first = std::get<0>(p);
    using Traits = std::integral_constant<int, 3>;"""
    assert lint(_device(body), "AKG150") == []


def test_try_and_streams() -> None:
    body = """    try { std::cout << n; } catch (...) {}
    std::ofstream out("x.bin");"""
    found = lint(_device(body), "AKG150")
    assert [f.message.split(": ")[0] for f in found] == [
        "'try' in __aicore__ function 'Work'", "'std::cout' in __aicore__ function 'Work'",
        "'std::ofstream' in __aicore__ function 'Work'"]


def test_placement_new_overloads_and_template_recursion_are_fine() -> None:
    text = """#include "kernel_operator.h"
struct Pod { int32_t a; };
__aicore__ inline void Build(uint8_t* buf) { Pod* p = new (buf) Pod(); }
__aicore__ inline uint32_t Sum(uint32_t a) { return a; }
__aicore__ inline uint32_t Sum(uint32_t a, uint32_t b) { return Sum(a) + b; }
template <int N> __aicore__ inline int32_t Fold() { if constexpr (N > 0) { return Fold<N - 1>(); } return 0; }
"""
    assert lint(text, "AKG150") == []


def test_host_code_and_cpu_debug_code_are_not_device_code() -> None:
    text = """#include "kernel_operator.h"
#include <vector>
extern "C" __global__ __aicore__ void k(GM_ADDR x)
{
#ifdef ASCENDC_CPU_DEBUG
    printf("debug\\n");
    FILE* f = fopen("log.txt", "w");
#endif
}
std::vector<int> Tiling(int n) { std::vector<int> v(n); int* p = new int[n]; delete[] p; return v; }
int main() { void* d; aclrtMalloc(&d, 64, ACL_MEM_MALLOC_HUGE_FIRST); throw 1; }
"""
    assert lint(text, "AKG150") == []


def test_calls_to_overloads_declared_elsewhere_are_not_recursion() -> None:
    text = """#include "kernel_operator.h"
using namespace AscendC;
__aicore__ inline void CeilProcess(const LocalTensor<half>& dst, const LocalTensor<half>& src)
{
    const LocalTensor<float> tmp = src.ReinterpretCast<float>();
    CeilProcess(tmp, tmp);
}
template <typename T>
__RESERVED_MACRO__(3510, "text")
__aicore__ inline void LogImpl(const LocalTensor<T>& dst, uint32_t n)
{
    LogImpl((__ubuf__ T*)dst.GetPhyAddr(), n);
}
"""
    assert lint(text, "AKG150") == []


def test_cpu_debug_branch_with_a_condition_is_host_code() -> None:
    text = _device("""#if defined(ASCENDC_CPU_DEBUG) && ASCENDC_CPU_DEBUG == 1
    std::ostringstream os;
    std::cout << os.str();
#endif""")
    assert lint(text, "AKG150") == []
