// akgen sim: CANN's CPU-debug entry points (tikicpulib.h) for host mains written for CANN's CPU twin debugging:
// AscendC::GmAlloc / GmFree, ICPU_RUN_KF, ICPU_SET_TILING_KEY and AscendC::SetKernelMode. Such a main is run as a
// program (`akgen sim run-program main.cpp`, akgen_lsp/sim/program.py), whose runtime (launcher/program_main.cpp)
// runs each ICPU_RUN_KF through the simulator's block runtime: numBlocks blocks as fibers with their own on-chip
// memories, the API checks, the cost model. GmAlloc memory is simulator GM (an aclrtMalloc buffer: 512-byte steps,
// guard zones), so a kernel's out-of-bounds access is reported at its line.
#pragma once

#include <cstddef>
#include <source_location>

#include "kernel_operator.h"
#include "acl/acl.h"
#include "akgen_sim/program.h"

namespace AscendC {

// GM the host main and the kernel share (CANN: shared memory). Returns nullptr, with a finding, when size is 0.
inline void* GmAlloc(size_t size, const std::source_location& loc = std::source_location::current()) {
    void* p = nullptr;
    if (aclrtMalloc(&p, size, ACL_MEM_MALLOC_HUGE_FIRST, loc) != ACL_SUCCESS) return nullptr;
    return p;
}

inline void GmFree(void* ptr, const std::source_location& loc = std::source_location::current()) {
    (void)aclrtFree(ptr, loc);
}

// The kernel type of the next ICPU_RUN_KF: AIV_MODE runs a vector kernel, AIC_MODE a cube kernel, MIX_MODE both
// (ASCEND_IS_AIV / ASCEND_IS_AIC follow it, as KERNEL_TASK_TYPE_DEFAULT does).
inline void SetKernelMode(KernelMode mode) {
    switch (mode) {
        case KernelMode::AIV_MODE: ::akgen_sim::task_type() = KERNEL_TYPE_AIV_ONLY; break;
        case KernelMode::AIC_MODE: ::akgen_sim::task_type() = KERNEL_TYPE_AIC_ONLY; break;
        default: ::akgen_sim::task_type() = -1; break;
    }
}

}  // namespace AscendC

namespace akgen_sim {
// The tiling key ICPU_SET_TILING_KEY chose (-1: none), applied in each block of the following launches.
inline int64_t& icpu_tiling_key() { static int64_t k = -1; return k; }
inline void icpu_block_setup() {
    if (icpu_tiling_key() >= 0) tiling_key() = icpu_tiling_key();
}
}  // namespace akgen_sim

// The tiling key the next launches see (TILING_KEY_IS).
#define ICPU_SET_TILING_KEY(tilingKey)                                          \
    do {                                                                        \
        ::akgen_sim::icpu_tiling_key() = static_cast<int64_t>(tilingKey);       \
    } while (0)

// Runs `func(args...)` on numBlocks simulated cores and returns when every block has ended.
#define ICPU_RUN_KF(func, numBlocks, ...)                                                            \
    ::akgen_sim::program_launch_blocks(                                                              \
        static_cast<int64_t>(numBlocks), [&]() { ::akgen_sim::icpu_block_setup(); func(__VA_ARGS__); }, \
        ::std::source_location::current())
