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
inline void SetSysWorkspace(GM_ADDR) {}

// AscendCUtils::SetMask<T>(count): the first `count` elements of a repeat (normal mask mode).
struct AscendCUtils {
    template <typename T> static void SetMask(uint64_t count) { SetVectorMask<T>(static_cast<int32_t>(count)); }
    template <typename T> static void SetMask(uint64_t maskHigh, uint64_t maskLow) { SetVectorMask<T>(maskHigh, maskLow); }
    static void ResetMask() { ::AscendC::ResetMask(); }
};
inline GM_ADDR GetSysWorkSpacePtr() { return nullptr; }
}  // namespace AscendC
