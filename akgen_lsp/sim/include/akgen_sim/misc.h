// akgen sim: ASSERT, printf/PRINTF, DumpTensor and other debugging helpers of the device dialect.
#pragma once

#include <cstdio>

#include "program.h"
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
    // Elements of one 32-byte block (C0) for an element of `typeSize` bytes.
    static constexpr uint32_t GetC0Count(const uint32_t typeSize) { return typeSize == 0 ? 0 : 32 / typeSize; }
    // SetOverflow(1): CTRL[48] = 1, the inf/nan mode, which is how the simulator always computes; SetOverflow(0):
    // the saturated mode (float overflow clamps to the largest finite value), not emulated: warned once.
    static void SetOverflow(uint64_t ctrlValue, AKGEN_LOC) {
        ::akgen_sim::touch("SetOverflow", loc);
        static thread_local bool warned = false;
        if (ctrlValue != 1 && !warned) {
            warned = true;
            ::akgen_sim::warn("SIM-UNSUPPORTED", "SetOverflow(0) selects the saturated float mode, which the simulator "
                                                 "does not emulate: float results keep inf/nan as in SetOverflow(1)",
                              loc, "api_mismatch", "SetOverflow");
        }
    }
};
inline GM_ADDR GetSysWorkSpacePtr() { return sys_workspace_ptr(); }

// Rounding helpers of the device library (kernel_utils_ceil_oom_que.h): plain uint32_t functions, not templates, so a
// kernel's own `template <typename T> T AlignUp(T, T)` called as AlignUp<uint32_t>(...) never collides with them.
constexpr uint32_t DivCeil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
constexpr uint32_t AlignUp(uint32_t a, uint32_t b) { return DivCeil(a, b) * b; }
constexpr uint32_t ConstCeil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
inline uint32_t Ceil(uint32_t a, uint32_t b) { return (a + b - 1) / b; }

// TQue's optional configuration (kernel_utils_ceil_oom_que.h), passed as `TQue<pos, depth, &conf>`. The simulator's
// queues behave the same whatever it says (buffer sizes still come from InitBuffer).
struct TQueConfig {
    bool nd2nz = false;
    bool nz2nd = false;
    bool scmBlockGroup = false;
    uint32_t bufferLen = 0;
    uint32_t bufferNumber = 0;
    uint32_t consumerSize = 0;
    TPosition consumer[8] = {};
    bool enableStaticEvtId = false;
    bool enableLoopQueue = false;
};
constexpr TQueConfig GetTQueConfig(bool nd2nzIn, bool nz2ndIn, bool scmBlockGroupIn, uint32_t bufferLenIn,
                                   uint32_t bufferNumberIn, uint32_t consumerSizeIn, const TPosition consumerIn[],
                                   bool enableStaticEvtIdIn = false, bool enableLoopQueueIn = false) {
    TQueConfig c{nd2nzIn, nz2ndIn, scmBlockGroupIn, bufferLenIn, bufferNumberIn, consumerSizeIn, {},
                 enableStaticEvtIdIn, enableLoopQueueIn};
    for (int i = 0; i < 8; ++i) c.consumer[i] = consumerIn[i];
    return c;
}

// SetDeqScale: the DEQSCALE register that Cast int32_t -> half (vconv_deq) multiplies by. The simulator's Cast does
// not apply it yet (it converts with scale 1), so any other scale is reported instead of silently ignored.
inline void SetDeqScale(half scale, AKGEN_LOC) {
    ::akgen_sim::touch("SetDeqScale", loc);
    if (static_cast<float>(scale) != 1.0f) {
        ::akgen_sim::warn("SIM-DEQSCALE", ::akgen_sim::fmt("SetDeqScale(%g): the simulator's Cast int32_t -> half does "
                                                           "not apply a deq scale other than 1 yet; results of such "
                                                           "casts differ from the NPU", static_cast<double>(float(scale))),
                          loc, "api_mismatch", "SetDeqScale");
    }
    ::akgen_sim::charge_scalar();
}
inline void SetDeqScale(float scale, int16_t offset, bool signMode, AKGEN_LOC) {
    ::akgen_sim::touch("SetDeqScale", loc);
    (void)signMode;
    if (scale != 1.0f || offset != 0) {
        ::akgen_sim::warn("SIM-DEQSCALE", ::akgen_sim::fmt("SetDeqScale(%g, %d, ...): the simulator's quantizing "
                                                           "casts do not apply a deq scale/offset yet; results differ "
                                                           "from the NPU", static_cast<double>(scale), int(offset)),
                          loc, "api_mismatch", "SetDeqScale");
    }
    ::akgen_sim::charge_scalar();
}

// Data cache maintenance (kernel_operator_cache_intf.h). The simulator has no scalar data cache between the core and GM
// (scalar GM reads and writes go straight to memory), so cleaning/invalidating it changes nothing; the calls are
// accepted with the real signatures.
enum class CacheLine : uint64_t { SINGLE_CACHE_LINE = 0, ENTIRE_DATA_CACHE };
enum class DcciDst : uint64_t { CACHELINE_ALL = 0, CACHELINE_UB, CACHELINE_OUT, CACHELINE_ATOMIC };
template <typename T, CacheLine entireType, DcciDst dcciDst>
inline void DataCacheCleanAndInvalid(const GlobalTensor<T>& dst, AKGEN_LOC) {
    (void)dst;
    ::akgen_sim::touch("DataCacheCleanAndInvalid", loc);
    ::akgen_sim::charge_scalar();
    ::akgen_sim::yield_block();  // GM polling: let other blocks run (programs only, akgen_sim/program.h)
}
template <typename T, CacheLine entireType, DcciDst dcciDst>
inline void DataCacheCleanAndInvalid(const LocalTensor<T>& dst, AKGEN_LOC) {
    (void)dst;
    ::akgen_sim::touch("DataCacheCleanAndInvalid", loc);
    ::akgen_sim::charge_scalar();
}
template <typename T, CacheLine entireType>
inline void DataCacheCleanAndInvalid(const GlobalTensor<T>& dst, AKGEN_LOC) {
    (void)dst;
    ::akgen_sim::touch("DataCacheCleanAndInvalid", loc);
    ::akgen_sim::charge_scalar();
    ::akgen_sim::yield_block();  // GM polling: let other blocks run (programs only, akgen_sim/program.h)
}

// InitOutput (deprecated, now Fill): `size` elements of `value` written to GM through the MTE3 unit.
template <typename T> inline void InitOutput(GlobalTensor<T> gmWorkspaceAddr, uint32_t size, T value = 0, AKGEN_LOC) {
    ::akgen_sim::touch("InitOutput", loc);
    if (size == 0) return;
    gmWorkspaceAddr.check_access(0, size, true, "InitOutput", loc);
    for (uint32_t i = 0; i < size; ++i) gmWorkspaceAddr.addr_[i] = value;
    uint64_t bytes = uint64_t(size) * sizeof(T);
    ::akgen_sim::charge_dma(::akgen_sim::P_MTE3, double(bytes), ::akgen_sim::cfg().bw_ub_gm, 0.0, "InitOutput", loc);
    ::akgen_sim::ctx().gm_write += bytes;
}
template <typename T> inline void Fill(GlobalTensor<T> gmWorkspaceAddr, uint32_t size, T value = 0, AKGEN_LOC) {
    InitOutput<T>(gmWorkspaceAddr, size, value, loc);
}
}  // namespace AscendC
