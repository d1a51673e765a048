// akgen sim: ASSERT, printf/PRINTF, DumpTensor and other debugging helpers of the device dialect.
#pragma once

#include <cstdio>

#include "program.h"
#include "vec_misc.h"

namespace akgen_sim {
inline uint64_t& rsvd_cnt();  // vec_gather.h: the count the last GatherMask kept (AscendCUtils::GetRsvdCnt)
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

namespace akgen_sim {
// DumpTensor's print, as CANN's: "DumpTensor: desc=D, addr=A, data_type=T, position=P, dump_size=N" and the values
// in brackets (`row` > 0: one bracket per row of that many). addr is the byte offset in the tensor's local memory
// (UB, L1, ...) or the GM address. Templates: no code of their own in a translation unit that does not dump.
template <typename T> constexpr const char* dump_type_name() {
    if constexpr (std::is_same_v<T, half>) return "float16";
    else if constexpr (std::is_same_v<T, bfloat16_t>) return "bfloat16";
    else if constexpr (std::is_same_v<T, float>) return "float32";
    else if constexpr (std::is_same_v<T, bool>) return "bool";
    else if constexpr (std::is_integral_v<T>) return std::is_signed_v<T> ? (sizeof(T) == 1 ? "int8" : sizeof(T) == 2
        ? "int16" : sizeof(T) == 4 ? "int32" : "int64") : (sizeof(T) == 1 ? "uint8" : sizeof(T) == 2 ? "uint16"
        : sizeof(T) == 4 ? "uint32" : "uint64");
    else return "unknown";
}
template <typename T>
inline void dump_print(uint32_t desc, uint64_t addr, const char* position, const T* p, uint64_t n, uint32_t row = 0) {
    std::printf("DumpTensor: desc=%u, addr=0x%llx, data_type=%s, position=%s, dump_size=%llu\n", desc,
                static_cast<unsigned long long>(addr), dump_type_name<T>(), position, static_cast<unsigned long long>(n));
    for (uint64_t i = 0; i < n; ++i) {
        std::printf("%s%f", i == 0 ? "[" : (row && i % row == 0) ? "]\n[" : ", ",
                    static_cast<double>(static_cast<float>(p[i])));
    }
    std::printf(n ? "]\n" : "[]\n");
}
template <typename T> inline uint64_t dump_local_addr(const AscendC::LocalTensor<T>& t, uint64_t elem = 0) {
    AscendC::detail::PhysMem pm = AscendC::detail::phys_mem(t.GetPosition());
    const uint8_t* a = reinterpret_cast<const uint8_t*>(t.addr_ + elem);
    return pm.base != nullptr && a >= pm.base ? static_cast<uint64_t>(a - pm.base) : reinterpret_cast<uint64_t>(a);
}
template <typename T> inline const char* dump_position(const AscendC::LocalTensor<T>& t) {
    using AscendC::detail::Mem;
    static constexpr const char* names[] = {"UB", "L1", "L0A", "L0B", "L0C", "BT"};
    Mem m = AscendC::detail::phys_mem(t.GetPosition()).mem;
    return static_cast<unsigned>(m) <= static_cast<unsigned>(Mem::BT) ? names[static_cast<unsigned>(m)] : "UB";
}
}  // namespace akgen_sim

namespace AscendC {
using ::printf;
template <typename T> inline void DumpTensor(const LocalTensor<T>& t, uint32_t desc, uint32_t size) {
    uint64_t n = size < t.GetSize() ? size : t.GetSize();
    ::akgen_sim::dump_print(desc, ::akgen_sim::dump_local_addr(t), ::akgen_sim::dump_position(t), t.addr_, n);
}
template <typename T> inline void DumpTensor(const GlobalTensor<T>& t, uint32_t desc, uint32_t size) {
    ::akgen_sim::dump_print(desc, reinterpret_cast<uint64_t>(t.addr_), "GM", t.addr_, size);
}
// The workspace argument starts with the system workspace (GetLibApiWorkSpaceSize(): 16 MiB on A2/A3); the
// TilingFunc asks for system + user bytes, and the kernel finds its part after the system one. CANN's CPU-debug
// (tikicpulib) builds, __CCE_KT_TEST__, return the argument itself (their kernel UTs GmAlloc only the user part).
#ifdef __CCE_KT_TEST__
inline GM_ADDR GetUserWorkspace(GM_ADDR workspace) { return workspace; }
#else
inline GM_ADDR GetUserWorkspace(GM_ADDR workspace) { return workspace ? workspace + 16 * 1024 * 1024 : nullptr; }
#endif
// The system workspace pointer: the kernel entry hands its workspace argument to SetSysWorkspace, and
// GetSysWorkSpacePtr returns it (nullptr before any call), as the device library does.
inline GM_ADDR& sys_workspace_ptr() { static GM_ADDR p = nullptr; return p; }
inline void SetSysWorkspace(GM_ADDR workspace) { if (workspace != nullptr) sys_workspace_ptr() = workspace; }

// AscendCUtils::SetMask<T>(count): the first `count` elements of a repeat (normal mask mode).
struct AscendCUtils {
    template <typename T> static void SetMask(uint64_t count) { SetVectorMask<T>(static_cast<int32_t>(count)); }
    template <typename T> static void SetMask(uint64_t maskHigh, uint64_t maskLow) { SetVectorMask<T>(maskHigh, maskLow); }
    static void ResetMask() { ::AscendC::ResetMask(); }
    // The RSVD_CNT register: how many elements the last GatherMask kept (vec_gather.h sets it).
    static int64_t GetRsvdCnt() { return static_cast<int64_t>(::akgen_sim::rsvd_cnt()); }
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
// InitGlobalMemory: the earlier name of Fill (adv_api/utils/init_global_memory.h), same arguments
template <typename T>
inline void InitGlobalMemory(GlobalTensor<T>& gmWorkspaceAddr, const uint64_t size, const std::type_identity_t<T> value,
                             AKGEN_LOC) {
    InitOutput<T>(gmWorkspaceAddr, static_cast<uint32_t>(size), value, loc);
}
}  // namespace AscendC
