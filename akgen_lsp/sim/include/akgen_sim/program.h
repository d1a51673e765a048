// akgen sim: what a single-source `.asc` program (host main + kernel) needs beyond the kernel API.
//
// `akgen sim run-program` (akgen_lsp/sim/program.py) compiles the program after rewriting each kernel launch
// `kernel<<<blockDim, l2ctrl, stream>>>(args)` into `::akgen_sim::program_launch(blockDim, l2ctrl, stream,
// [&]() { kernel(args); })` (same lines, so diagnostics and findings keep the user's line numbers). The launch runs
// blockDim blocks through the simulator's block runtime (fibers, per-block UB, checks, cost model), synchronously;
// it is defined in akgen_lsp/sim/launcher/program_main.cpp, which is linked only into programs.
#pragma once

#include <cstdint>
#include <functional>
#include <source_location>
#include <string_view>
#include <type_traits>

namespace akgen_sim {

// Lets the other blocks of the launch run until they end or wait themselves, then resumes the caller: what a spin-wait
// on GM written by another core (IBWait, WaitPreBlock) needs, since blocks are fibers that otherwise run until they
// end. Defined by the program runtime (launcher/program_main.cpp); in other builds it is absent and yield_block()
// returns false.
extern "C" bool akgen_sim_yield_block() __attribute__((weak));
inline bool yield_block() { return akgen_sim_yield_block != nullptr && akgen_sim_yield_block(); }

// Blocks of the launches so far that ended with an error (an aborted block): what the next
// aclrtSynchronizeStream reports, as the NPU reports an AI Core exception on the stream (then cleared).
inline int64_t& program_stream_errors() { static int64_t n = 0; return n; }

// Runs one launch: block_dim blocks of `body`; `mix` > 0 runs each block as an AI Core of a MIX kernel, one AIC fiber
// and `mix` AIV fibers (GetBlockIdx() on an AIV = block * mix + GetSubBlockIdx()), as the NPU and CANN's CPU debug
// run a MIX launch; 0 runs one fiber per block.
void program_launch_blocks(int64_t block_dim, const std::function<void()>& body, const std::source_location& loc,
                           int mix = 0);

// The run spec a program built with the toolkit uses when started directly (no $AKGEN_SIM_SPEC): the toolkit's
// spec of the SOC its kernels were built for (memory sizes, cost tables). The first registration wins. Defined by the
// program runtime.
bool program_default_spec(const char* path);

// The core type of the running fiber (AscendC::AIC 1, AscendC::AIV 2; a single-fiber launch plays the vector core
// unless the kernel is cube-only): what `g_coreType` is in a program with a MIX kernel, as in CANN's CPU debug, whose
// `extern int32_t g_coreType` each simulated core sets. Defined by the program runtime.
int32_t program_core_type();
struct CoreTypeVar {
    operator int32_t() const { return program_core_type(); }
};

// What each kernel of the program is, from its source (registered by the program build's generated preamble of the
// translation unit that defines it): 0 vector (AIV_MODE), 1 cube (AIC_MODE), 2 mixed AIC + AIV (MIX_MODE). The
// kind a launch uses when the host code did not choose one with SetKernelMode.
inline int& kernel_kind_slot(const char* name) {
    struct Entry { const char* name; int kind; };
    static Entry table[256];
    static int n = 0;
    std::string_view key(name ? name : "");
    for (int i = 0; i < n; ++i) {
        if (key == table[i].name) return table[i].kind;
    }
    static int overflow = -1;
    if (n == 256) return overflow;
    table[n] = {name, -1};
    return table[n++].kind;
}
inline bool register_kernel_kind(const char* name, int kind) {
    kernel_kind_slot(name) = kind;
    return true;
}
// The kernel's registered kind, or -1 when the build saw no kernel of that name.
inline int kernel_kind(const char* name) { return kernel_kind_slot(name); }

// The rewritten `<<<blockDim, l2ctrl, stream>>>` of kernel `name`: a mixed kernel runs as a MIX launch (one AIC and
// two AIV per block); l2ctrl and stream are accepted (launches run in order and complete before the call returns,
// which is what aclrtSynchronizeStream waits for on the NPU).
template <typename B, typename L, typename S>
inline void program_launch_kernel(const char* name, B block_dim, L l2ctrl, S stream, const std::function<void()>& body,
                                  const std::source_location& loc = std::source_location::current()) {
    (void)l2ctrl;
    (void)stream;
    program_launch_blocks(static_cast<int64_t>(block_dim), body, loc, kernel_kind(name) == 2 ? 2 : 0);
}

// The rewritten `<<<blockDim, l2ctrl, stream>>>`: l2ctrl and stream are accepted (launches run in order and
// complete before the call returns, which is what aclrtSynchronizeStream waits for on the NPU).
template <typename B, typename L, typename S>
inline void program_launch(B block_dim, L l2ctrl, S stream, const std::function<void()>& body,
                           const std::source_location& loc = std::source_location::current()) {
    (void)l2ctrl;
    (void)stream;
    program_launch_blocks(static_cast<int64_t>(block_dim), body, loc);
}

// The program's own main(), renamed by the rewrite, called with the arguments of the run: main(), main(argc, argv)
// (argv as char** or const char**, which asc-devkit's examples use), main(argc, argv, envp).
template <typename F> inline int call_user_main(F* user_main, int argc, char** argv) {
    if constexpr (std::is_invocable_v<F*, int, char**>) {
        return static_cast<int>(user_main(argc, argv));
    } else if constexpr (std::is_invocable_v<F*, int, const char**>) {
        return static_cast<int>(user_main(argc, const_cast<const char**>(argv)));
    } else if constexpr (std::is_invocable_v<F*, int, char**, char**>) {
        static char* no_env[] = {nullptr};
        return static_cast<int>(user_main(argc, argv, no_env));
    } else {
        (void)argc;
        (void)argv;
        return static_cast<int>(user_main());
    }
}

}  // namespace akgen_sim
