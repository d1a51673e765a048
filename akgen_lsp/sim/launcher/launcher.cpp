// akgen sim launcher: runs a compiled kernel's blocks on the CPU and reports what happened.
//
// Linked with the kernel's translation unit, which provides (generated glue):
//   extern "C" void akgen_sim_entry(void* const* args);                      // calls the kernel
//   extern "C" void akgen_sim_fill_tiling(int arg, uint8_t* buf, uint64_t cap, const char* kv);
//
// Usage: launcher SPEC. The spec is a line-oriented text file written by akgen_lsp/sim/runner.py (see there).
// Everything the process needs (spec, inputs, output files, the events file) is opened by `early_setup`, an
// init-priority-101 constructor that runs before any constructor of the user's code; it then applies rlimits, tries
// to isolate the network (unshare) and installs a seccomp allow-list, so the kernel itself cannot open files, fork,
// exec or use sockets. Events (findings, per-block summaries, trace) are JSON lines written to the events file as
// they happen; a crash, a forbidden system call or a CPU-time limit is written there by the signal handler.
//
// One translation unit in parts, included below in this order: findings.inc (findings on the events file, fail),
// charge.inc (the cost model), spec.inc (the run spec and process state), sandbox.h (seccomp, unshare, rlimits),
// signals.inc (crash / timeout / forbidden-call reports), setup.inc (GM buffers and the early setup), blocks.inc
// (per-block events and end-of-block checks), fibers.inc (blocks as fibers, SyncAll, cross-core flags); main() here.
#include <cerrno>
#include <csetjmp>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <new>
#include <stdexcept>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include <fcntl.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <ucontext.h>
#include <unistd.h>

#if defined(__linux__) && defined(__x86_64__)
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#define AKGEN_HAVE_SECCOMP 1
#endif

#include "kernel_operator.h"

#include "runtime.inc"
#include "api_core.inc"
#include "findings.inc"
#include "charge.inc"

extern "C" void akgen_sim_entry(void* const* args);
extern "C" void akgen_sim_fill_tiling(int arg, uint8_t* buf, uint64_t cap, const char* kv);
// Vector cores per AI Core of a split (mixed AIC/AIV) launch, from the glue: 0 for the single-pass model (one fiber
// per block), 2 when the kernel was compiled once per core type (one AIC fiber and two AIV fibers per block).
extern "C" const int akgen_sim_mix;
// Set by the glue of a kernel that is MIX on the chip but had to be built as one pass (launcher main warns).
extern "C" const char* const akgen_sim_lost_cores_file __attribute__((weak));
extern "C" const int akgen_sim_lost_cores_line __attribute__((weak));

#include "spec.inc"

namespace {
#include "sandbox.h"
}  // namespace

#include "signals.inc"
#include "setup.inc"
#include "blocks.inc"
#include "fibers.inc"
#include "sanitizer.inc"

int main() {
    timespec entered{};  // when the launcher's main began (CLOCK_MONOTONIC, shared with the caller): the box's cost
    clock_gettime(CLOCK_MONOTONIC, &entered);
    if (!g_setup_error.empty()) {
        std::fprintf(stderr, "akgen sim launcher: %s\n", g_setup_error.c_str());
        std::string line = "{\"kind\":\"setup_error\",\"message\":\"";
        json_escape(line, g_setup_error);
        emit(line + "\"}\n");
        return 2;
    }
    {
        std::string s = std::string("{\"kind\":\"sandbox\",\"seccomp\":") + (g_seccomp_on ? "true" : "false") +
                        ",\"net_isolated\":" + (g_net_isolated ? "true" : "false") + ",\"main_ns\":" +
                        std::to_string(static_cast<long long>(entered.tv_sec) * 1000000000LL + entered.tv_nsec) + "}\n";
        emit(s);
    }
    tiling_key() = g_spec.tiling_key;
    g_argv.clear();
    for (size_t i = 0; i < g_spec.args.size(); ++i) {
        Arg& a = g_spec.args[i];
        if (a.kind == "tiling") akgen_sim_fill_tiling(static_cast<int>(i), a.data, a.bytes, a.text.c_str());
        g_argv.push_back(a.kind == "scalar" ? static_cast<void*>(const_cast<char*>(a.text.c_str()))
                                            : static_cast<void*>(a.data));
    }
    const Config& k = cfg();
    const int mix = mix_ratio();
    if (mix == 0 && &akgen_sim_lost_cores_file != nullptr && &akgen_sim_lost_cores_line != nullptr) {
        write_finding_at("SIM-LAUNCH-CORES", "warning",
                         "this kernel is MIX on the chip (a Matmul object, or cube and cross-core code: one cube core "
                         "and two vector cores per block), but the simulator runs it with one core per block playing "
                         "both: a header of its own uses `#pragma once` or cannot be included twice, so it was built "
                         "in one pass; results that depend on the two vector cores (GetSubBlockIdx, GetBlockIdx on "
                         "the AIV side, cross-core flags) may differ from the NPU's",
                         Where{akgen_sim_lost_cores_file, static_cast<unsigned>(akgen_sim_lost_cores_line), 1, ""}, -1,
                         "runtime", nullptr);
    }
    const int64_t per_block = mix > 0 ? 1 + mix : 1;
    std::vector<std::vector<GmWrite>> writes(static_cast<size_t>(g_spec.block_dim * per_block));
    double kernel_us = 0;
    int failed = 0;
    g_launch_cycles = 0;
    akgen_sim::cost_launch_begin();  // the cost model's L2 shares and same-address records are per launch
    // Blocks run as fibers (one stack and one set of on-chip memories each) in index order; a block runs until it
    // ends or reaches SyncAll, so SyncAll is honoured: once every block has arrived or ended, the waiting ones go on.
    // A split or MIX launch (mix_ratio() > 0) runs each block as its AI Core: the AIC (GetBlockIdx() = block) and
    // `mix` AIV (GetBlockIdx() = block * mix + GetSubBlockIdx()), each a fiber of its own.
    std::vector<Fiber> fibers(static_cast<size_t>(g_spec.block_dim * per_block));
    for (int64_t b = 0; b < g_spec.block_dim; ++b) {
        for (int64_t r = 0; r < per_block; ++r) {
            Fiber& f = fibers[static_cast<size_t>(b * per_block + r)];
            f.ctx.idx = b;
            f.ctx.num = g_spec.block_dim;
            f.ctx.group = b;
            if (per_block > 1) {
                f.ctx.core_type = r == 0 ? 1 : 2;
                f.ctx.sub_num = mix;
                f.ctx.sub_idx = r == 0 ? 0 : static_cast<int>(r - 1);
                if (r > 0) f.ctx.idx = b * mix + (r - 1);
            }
        }
    }
    fibers_ptr() = &fibers;
    while (true) {
        bool any_ready = false;
        for (Fiber& f : fibers) {
            if (f.state == Fiber::DONE || f.state == Fiber::WAITING) continue;
            if (f.state == Fiber::FLAGWAIT && !f.deadlocked && !flag_ready(f.ctx, f.wait_mode, f.wait_flag, nullptr))
                continue;
            any_ready = true;
            if (f.state == Fiber::NEW) start_fiber(f, k);
            double t0 = now_us();
            f.state = Fiber::RUNNING;
            current_fiber() = &f;
            ctx_ptr() = &f.ctx;
            swapcontext(&scheduler_context(), &f.uc);
            ctx_ptr() = nullptr;
            current_fiber() = nullptr;
            f.wall_us += now_us() - t0;
            if (f.state == Fiber::DONE) {
                BlockCtx& c = f.ctx;
                kernel_us += f.wall_us;
                if (std::strcmp(f.status, "ok") == 0) {
                    ctx_ptr() = &c;
                    end_of_block_checks(c);
                    ctx_ptr() = nullptr;
                }
                if (c.errors > 0) f.status = "aborted";
                if (std::strcmp(f.status, "ok") != 0) ++failed;
                g_launch_cycles = std::max(g_launch_cycles, block_time(c));
                emit(block_summary(c, f.status, f.wall_us));
                emit(block_trace(c));
                writes[static_cast<size_t>(&f - fibers.data())] = std::move(c.gm_writes);
                free_fiber(f);
            }
        }
        bool waiting = false, flag_waiting = false;
        for (const Fiber& f : fibers) {
            waiting = waiting || f.state == Fiber::WAITING;
            flag_waiting = flag_waiting || f.state == Fiber::FLAGWAIT;
        }
        if (!waiting && !any_ready && !flag_waiting) break;
        if (any_ready && flag_waiting) continue;  // a set flag may wake a waiter: run another round before SyncAll
        if (waiting) {
            release_barrier(fibers);
        } else if (!any_ready && flag_waiting) {
            for (Fiber& f : fibers) f.deadlocked = f.deadlocked || f.state == Fiber::FLAGWAIT;  // they fail and end
        }
    }
    fibers_ptr() = nullptr;
    // Overlapping GM writes from different blocks.
    struct W { int region; uint64_t begin, end; int64_t block; loc_t loc; int epoch; };
    std::vector<W> all;
    for (size_t b = 0; b < writes.size(); ++b) {
        for (const GmWrite& w : writes[b]) {
            all.push_back({w.region, w.begin, w.end, static_cast<int64_t>(b), w.loc, w.epoch});
        }
    }
    std::sort(all.begin(), all.end(), [](const W& x, const W& y) {
        return x.region != y.region ? x.region < y.region : x.begin < y.begin;
    });
    int overlaps = 0;
    for (size_t i = 1; i < all.size() && overlaps < 4; ++i) {
        const W& p = all[i - 1];
        const W& q = all[i];
        // racecheck: two blocks, the same bytes, no barrier between the writes (the same SyncAll epoch)
        if (p.region == q.region && q.begin < p.end && p.block != q.block && p.epoch == q.epoch) {
            BlockCtx tmp;
            tmp.idx = q.block;
            ctx_ptr() = &tmp;
            report("SIM-GM-OVERLAP",
                   Sev::WARNING,
                   fmt("blocks %lld and %lld both write bytes [%llu, %llu) of GM buffer '%s' with no barrier between "
                       "(racecheck: overlapping writes from different cores, the result depends on their order)",
                       static_cast<long long>(p.block),
                       static_cast<long long>(q.block), static_cast<unsigned long long>(q.begin),
                       static_cast<unsigned long long>(std::min(p.end, q.end)),
                       gm_regions()[static_cast<size_t>(q.region)].name),
                   q.loc, "memory", "DataCopy");
            ctx_ptr() = nullptr;
            ++overlaps;
        }
    }
    // Outputs that no block wrote all of.
    if (cfg().sanitize && failed == 0) {  // a failed block's writes never happened: no verdict on the outputs
        for (const Arg& a : g_spec.args) {
            if (a.mode == "out") check_unwritten(a, a.region, writes);
            for (const Arg& e : a.elems) {
                if (e.mode == "out") check_unwritten(e, e.region, writes);
            }
        }
    }
    // Guard zones around GM buffers: writes that bypassed the API checks (raw pointers).
    std::vector<const Arg*> buffers;  // every GM buffer: the arguments, and each tensor of a list
    for (const Arg& a : g_spec.args) {
        buffers.push_back(&a);
        for (const Arg& e : a.elems) buffers.push_back(&e);
    }
    for (const Arg* b : buffers) {
        const Arg& a = *b;
        if (!a.alloc) continue;
        uint64_t body = (a.alloc_bytes + 31) / 32 * 32;
        bool bad = false;
        for (uint64_t i = 0; i < kGuard && !bad; ++i) bad = a.alloc[i] != kGuardByte;
        for (uint64_t i = 0; i < body - a.alloc_bytes + kGuard && !bad; ++i) bad = a.data[a.alloc_bytes + i] != kGuardByte;
        if (bad) {
            std::string line = "{\"kind\":\"guard\",\"name\":\"";
            json_escape(line, a.name);
            emit(line + "\"}\n");
        }
    }
    // Outputs.
    for (const Arg* b : buffers) {
        if (b->out_fd >= 0) {
            write_all(b->out_fd, reinterpret_cast<const char*>(b->data), b->bytes);
            ::close(b->out_fd);
        }
    }
    g_launch_failed = failed;
    emit("{\"kind\":\"done\",\"blocks\":" + std::to_string(g_spec.block_dim) + ",\"failed\":" + std::to_string(failed) +
         ",\"kernel_us\":" + std::to_string(kernel_us) + "}\n");
    return 0;
}
