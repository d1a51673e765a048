// akgen sim: CANN's CPU-debug entry points (tikicpulib.h) for host mains written for CANN's CPU twin debugging:
// AscendC::GmAlloc / GmFree, ICPU_RUN_KF, ICPU_SET_TILING_KEY and AscendC::SetKernelMode. Such a main is run as a
// program (`akgen sim run-program main.cpp`, akgen_lsp/sim/program.py), whose runtime (launcher/program_main.cpp)
// runs each ICPU_RUN_KF through the simulator's block runtime: numBlocks blocks as fibers with their own on-chip
// memories, the API checks, the cost model. GmAlloc memory is simulator GM (an aclrtMalloc buffer: 512-byte steps,
// guard zones), so a kernel's out-of-bounds access is reported at its line.
#pragma once

// <cmath>: CANN's CPU-debug headers bring the C math library, and kernel UTs use its global names (float_t)
#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstdlib>
#include <ios>
#include <source_location>
#include <string>
#include <type_traits>

#include "kernel_operator.h"
#include "acl/acl.h"
#include "akgen_sim/program.h"
#include "securec.h"  // CANN's CPU-debug headers bring securec's memcpy_s into scope for the host main

// CANN's CPU-debug headers bring std's stream manipulators to the global scope: some kernel UTs name `::dec`
// (ops-nn lp_loss: `namespace AscendC { static constexpr auto dec = ::dec; }`)
using std::dec;

namespace AscendC {

// GM the host main and the kernel share (CANN: shared memory). Returns nullptr, with a finding, when size is 0.
inline void* GmAlloc(size_t size, const std::source_location& loc = std::source_location::current()) {
    void* p = nullptr;
    if (aclrtMalloc(&p, size, ACL_MEM_MALLOC_HUGE_FIRST, loc) != ACL_SUCCESS) return nullptr;
    // the host writes GmAlloc memory directly (shared memory in CANN's CPU debug): initcheck takes it as defined
    if (auto* b = ::akgen_sim::acl::find_dev(p); b != nullptr && b->region >= 0) {
        auto& r = ::akgen_sim::gm_regions()[static_cast<size_t>(b->region)];
        std::free(r.init);
        r.init = nullptr;
    }
    return p;
}

inline void GmFree(void* ptr, const std::source_location& loc = std::source_location::current()) {
    (void)aclrtFree(ptr, loc);
}

}  // namespace AscendC

namespace akgen_sim {
// The KernelMode the host code chose with SetKernelMode (-1: none yet).
inline int& icpu_kernel_mode() { static int m = -1; return m; }
}  // namespace akgen_sim

namespace AscendC {
// The kernel type of the next ICPU_RUN_KF, as in CANN's CPU debug: AIV_MODE runs a vector kernel (one vector core per
// block), AIC_MODE a cube kernel, MIX_MODE one AI Core per block with its cube core and two vector cores
// (GetBlockIdx() on a vector core = 2 * block + GetSubBlockIdx()), MIX_AIC_1_1 one vector core with the cube core.
// ASCEND_IS_AIV / ASCEND_IS_AIC follow the core each fiber plays. Without a SetKernelMode the launch takes the kind
// of the kernel's own source (a kernel with a Matmul object or cube and cross-core code is MIX), as CANN's CPU debug
// reads it from the kernel binary.
inline void SetKernelMode(KernelMode mode) { ::akgen_sim::icpu_kernel_mode() = static_cast<int>(mode); }

}  // namespace AscendC

// CANN's CPU-debug library declares KernelMode at global scope too: its samples' mains write
// `AscendC::SetKernelMode(KernelMode::AIV_MODE)` without `using namespace AscendC`.
using AscendC::KernelMode;

namespace akgen_sim {
// The tiling key ICPU_SET_TILING_KEY chose (-1: none), applied in each block of the following launches.
inline int64_t& icpu_tiling_key() { static int64_t k = -1; return k; }
inline void icpu_block_setup() {
    if (icpu_tiling_key() >= 0) tiling_key() = icpu_tiling_key();
}
// The vector cores per AI Core of an ICPU_RUN_KF of kernel `name` (0: one fiber per block) and the kernel type the
// fibers see, from SetKernelMode, else from the kernel's source.
inline int icpu_launch_mix(const char* name, const std::source_location& loc) {
    int mode = icpu_kernel_mode();
    if (kernel_kind(name) == 2 && (mode == static_cast<int>(::AscendC::KernelMode::AIV_MODE) ||
                                   mode == static_cast<int>(::AscendC::KernelMode::AIC_MODE))) {
        ::akgen_sim::acl::host_finding(
            "SIM-LAUNCH-CORES", "warning",
            std::string("kernel ") + name + " is a MIX kernel (one cube core and two vector cores per block on the "
                "chip), but SetKernelMode(" + (mode == static_cast<int>(::AscendC::KernelMode::AIV_MODE) ? "AIV_MODE"
                : "AIC_MODE") + ") runs it on one core type only: the other side of each block does not run; use "
                "KernelMode::MIX_MODE", loc, "ICPU_RUN_KF");
    }
    if (mode < 0) {
        switch (kernel_kind(name)) {
            case 0: mode = static_cast<int>(::AscendC::KernelMode::AIV_MODE); break;
            case 1: mode = static_cast<int>(::AscendC::KernelMode::AIC_MODE); break;
            case 2: mode = static_cast<int>(::AscendC::KernelMode::MIX_MODE); break;
            default: task_type() = -1; return 0;  // a kernel the build did not see: one fiber playing every core
        }
    }
    switch (static_cast<::AscendC::KernelMode>(mode)) {
        case ::AscendC::KernelMode::AIV_MODE: task_type() = KERNEL_TYPE_AIV_ONLY; return 0;
        case ::AscendC::KernelMode::AIC_MODE: task_type() = KERNEL_TYPE_AIC_ONLY; return 0;
        case ::AscendC::KernelMode::MIX_AIC_1_1: task_type() = -1; return 1;
        default: task_type() = -1; return 2;
    }
}
}  // namespace akgen_sim

namespace akgen_sim {
// The golden check of a kernel UT with no compare script of its own (akgen_lsp/sim/ut_golden.py): with
// AKGEN_UT_DUMP naming a folder, each ICPU_RUN_KF writes the bytes of every GmAlloc buffer it is given, from the
// pointer to the end of what the test asked for, before (phase 0) and after (phase 1) the launch, as
// `<launch>.<arg>.<phase>.bin`, and a line `launch arg name bytes` in launches.tsv. A buffer over 64 MiB, or past
// 512 MiB in all, is left out (its line says bytes -1).
inline void icpu_dump_arg(const char* dir, int launch, int index, int phase, const char* func, const void* p) {
    static uint64_t total = 0;
    auto* b = ::akgen_sim::acl::find_dev(p);
    if (b == nullptr) return;
    const uint8_t* q = static_cast<const uint8_t*>(p);
    int64_t n = q < b->data + b->bytes ? static_cast<int64_t>(b->data + b->bytes - q) : 0;
    if (n > (int64_t(64) << 20) || total + static_cast<uint64_t>(n) > (uint64_t(512) << 20)) n = -1;
    if (n >= 0) {
        total += static_cast<uint64_t>(n);
        std::string path = std::string(dir) + "/" + std::to_string(launch) + "." + std::to_string(index) + "." +
                           std::to_string(phase) + ".bin";
        if (FILE* f = std::fopen(path.c_str(), "wb")) {
            if (n > 0) std::fwrite(q, 1, static_cast<size_t>(n), f);
            std::fclose(f);
        }
    }
    if (phase == 0) {
        if (FILE* f = std::fopen((std::string(dir) + "/launches.tsv").c_str(), "a")) {
            std::fprintf(f, "%d\t%d\t%s\t%lld\n", launch, index, func, static_cast<long long>(n));
            std::fclose(f);
        }
    }
}
inline int icpu_dump_launch(bool next) {
    static int n = 0;
    return next ? ++n : n;
}
template <typename... A> inline void icpu_dump(const char* func, int phase, const A&... args) {
    static const char* dir = std::getenv("AKGEN_UT_DUMP");
    if (dir == nullptr || *dir == '\0') return;
    int launch = icpu_dump_launch(phase == 0);
    int i = 0;
    auto one = [&](const auto& a) {
        using T = std::decay_t<decltype(a)>;
        if constexpr (std::is_pointer_v<T>) {
            if (a != nullptr) icpu_dump_arg(dir, launch, i, phase, func, static_cast<const void*>(a));
        }
        ++i;
    };
    (one(args), ...);
}
}  // namespace akgen_sim

// The tiling key the next launches see (TILING_KEY_IS).
#define ICPU_SET_TILING_KEY(tilingKey)                                          \
    do {                                                                        \
        ::akgen_sim::icpu_tiling_key() = static_cast<int64_t>(tilingKey);       \
    } while (0)

// Runs `func(args...)` on numBlocks simulated cores and returns when every block has ended.
#define ICPU_RUN_KF(func, numBlocks, ...)                                                                \
    do {                                                                                                 \
        ::akgen_sim::icpu_dump(#func, 0, __VA_ARGS__);                                                   \
        ::akgen_sim::program_launch_blocks(                                                              \
            static_cast<int64_t>(numBlocks), [&]() { ::akgen_sim::icpu_block_setup(); func(__VA_ARGS__); }, \
            ::std::source_location::current(), ::akgen_sim::icpu_launch_mix(#func, ::std::source_location::current())); \
        ::akgen_sim::icpu_dump(#func, 1, __VA_ARGS__);                                                   \
    } while (0)
