// akgen sim: ASSERT, printf/PRINTF, DumpTensor and other debugging helpers of the device dialect.
#pragma once

#include <cstdio>

#include "tensor.h"

namespace akgen_sim {
inline void kernel_assert(bool ok, const char* text, const loc_t& loc) {
    if (!ok) fail("SIM-ASSERT", fmt("ASSERT(%s) failed", text), loc, "logic", "ASSERT");
}
}  // namespace akgen_sim

// NPU builds compile ASSERT out, and real kernels rely on it (some even omit the semicolon before it), so it is
// empty here too. akgen_sim::kernel_assert is the checked form for our own use.
#ifndef ASSERT
#define ASSERT(...)
#endif
#define PRINTF printf

namespace AscendC {
using ::printf;
template <typename T> inline void DumpTensor(const LocalTensor<T>& t, uint32_t desc, uint32_t size) {
    std::printf("DumpTensor desc=%u:", desc);
    for (uint32_t i = 0; i < size && i < t.GetSize(); ++i) std::printf(" %g", static_cast<double>(static_cast<float>(t.addr_[i])));
    std::printf("\n");
}
template <typename T> inline void DumpTensor(const GlobalTensor<T>& t, uint32_t desc, uint32_t size) {
    std::printf("DumpTensor desc=%u:", desc);
    for (uint32_t i = 0; i < size; ++i) std::printf(" %g", static_cast<double>(static_cast<float>(t.addr_[i])));
    std::printf("\n");
}
// The workspace argument starts with the system workspace (GetLibApiWorkSpaceSize(): 16 MiB on A2/A3); the
// TilingFunc asks for system + user bytes, and the kernel finds its part after the system one.
inline GM_ADDR GetUserWorkspace(GM_ADDR workspace) { return workspace ? workspace + 16 * 1024 * 1024 : nullptr; }
inline void SetSysWorkspace(GM_ADDR) {}
template <typename T> constexpr T AlignUp(T value, T align) { return align == 0 ? value : (value + align - 1) / align * align; }
template <typename T> constexpr T AlignDown(T value, T align) { return align == 0 ? value : value / align * align; }
template <typename T> constexpr T DivCeil(T a, T b) { return b == 0 ? 0 : (a + b - 1) / b; }
inline GM_ADDR GetSysWorkSpacePtr() { return nullptr; }
}  // namespace AscendC
