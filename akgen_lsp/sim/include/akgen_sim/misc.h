// akgen sim: ASSERT, printf/PRINTF, DumpTensor and other debugging helpers of the device dialect.
#pragma once

#include <cstdio>

#include "vec_misc.h"

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
// The system workspace pointer: the kernel entry hands its workspace argument to SetSysWorkspace, and
// GetSysWorkSpacePtr returns it (nullptr before any call), as the device library does.
inline GM_ADDR& sys_workspace_ptr() { static GM_ADDR p = nullptr; return p; }
inline void SetSysWorkspace(GM_ADDR workspace) { if (workspace != nullptr) sys_workspace_ptr() = workspace; }

// AscendCUtils::SetMask<T>(count): the first `count` elements of a repeat (normal mask mode).
struct AscendCUtils {
    template <typename T> static void SetMask(uint64_t count) { SetVectorMask<T>(static_cast<int32_t>(count)); }
    template <typename T> static void SetMask(uint64_t maskHigh, uint64_t maskLow) { SetVectorMask<T>(maskHigh, maskLow); }
    static void ResetMask() { ::AscendC::ResetMask(); }
};
inline GM_ADDR GetSysWorkSpacePtr() { return sys_workspace_ptr(); }

// Rounding helpers of the device library (kernel_utils_ceil_oom_que.h): plain uint32_t functions, not templates, so a
// kernel's own `template <typename T> T AlignUp(T, T)` called as AlignUp<uint32_t>(...) never collides with them.
constexpr uint32_t DivCeil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
constexpr uint32_t AlignUp(uint32_t a, uint32_t b) { return DivCeil(a, b) * b; }
constexpr uint32_t ConstCeil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
inline uint32_t Ceil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
}  // namespace AscendC
