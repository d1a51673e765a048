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

void program_launch_blocks(int64_t block_dim, const std::function<void()>& body, const std::source_location& loc);

// The rewritten `<<<blockDim, l2ctrl, stream>>>`: l2ctrl and stream are accepted (launches run in order and
// complete before the call returns, which is what aclrtSynchronizeStream waits for on the NPU).
template <typename B, typename L, typename S>
inline void program_launch(B block_dim, L l2ctrl, S stream, const std::function<void()>& body,
                           const std::source_location& loc = std::source_location::current()) {
    (void)l2ctrl;
    (void)stream;
    program_launch_blocks(static_cast<int64_t>(block_dim), body, loc);
}

// The program's own main(), renamed by the rewrite, called with the arguments of the run: main(), main(argc, argv).
template <typename F> inline int call_user_main(F* user_main, int argc, char** argv) {
    if constexpr (std::is_invocable_v<F*, int, char**>) {
        return static_cast<int>(user_main(argc, argv));
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
