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

namespace akgen_sim {

void report(const char* code, Sev sev, const char* msg, const loc_t& loc, const char* error_class, const char* api) {
    BlockCtx& c = ctx();
    // an error and a warning of one code at one line are two findings (npu mode warns where CPU debug stops, and the
    // physical bound at the same line is an error)
    std::string key = std::string(code) + (sev == Sev::ERROR ? "@" : "~@") + loc.file_name() + ":" +
                      std::to_string(loc.line());
    int& count = c.seen[key];
    ++count;
    if (sev == Sev::ERROR) ++c.errors;
    if (count > 1) return;  // one finding per call site and code per block; repeats are counted, not repeated
    ++c.findings;
    write_finding(code, sev == Sev::ERROR ? "error" : sev == Sev::WARNING ? "warning" : "info", msg, loc,
                  static_cast<int>(c.idx), error_class, api);
}

void write_finding(const char* code, const char* severity, std::string_view msg, const loc_t& loc, int block,
                   const char* error_class, const char* api) {
    std::string line = "{\"kind\":\"finding\",\"code\":\"";
    json_escape(line, code);
    line += "\",\"severity\":\"";
    line += severity;
    line += "\",\"message\":\"";
    json_escape(line, msg);
    line += "\",\"file\":\"";
    json_escape(line, loc.file_name());
    line += "\",\"line\":" + std::to_string(loc.line()) + ",\"column\":" + std::to_string(loc.column());
    line += ",\"function\":\"";
    json_escape(line, loc.function_name());
    line += "\"";
    if (block >= 0) line += ",\"block\":" + std::to_string(block);
    if (error_class) {
        line += ",\"error_class\":\"";
        json_escape(line, error_class);
        line += "\"";
    }
    if (api) {
        line += ",\"api\":\"";
        json_escape(line, api);
        line += "\"";
    }
    line += "}\n";
    write_all(events_fd(), line.data(), line.size());
}

// `latency` delays when the result is ready without occupying the pipe (DMA: transfers stream back to back).
double charge(int pipe, double cycles, double ready, const char* name, const loc_t& loc, double latency) {
    BlockCtx& c = ctx();
    c.now_s += cfg().issue_cycles;
    double start = std::max({c.now_s, c.pipe_free[pipe], ready});
    double end = start + cycles;
    c.pipe_free[pipe] = end;
    c.busy[pipe] += cycles;
    if (c.trace.size() < cfg().max_trace_events) {
        c.trace.push_back({pipe, start, cycles, name, static_cast<uint32_t>(loc.line())});
    } else {
        ++c.trace_dropped;
    }
    c.done = std::max(c.done, end + latency);
    return end + latency;
}

// A scalar-only API call (mask setting, GetValue on GM, queue bookkeeping): advances the scalar clock.
void charge_scalar(double cycles) {
    BlockCtx& c = ctx();
    c.now_s += cycles;
    c.busy[P_S] += cycles;
    c.pipe_free[P_S] = std::max(c.pipe_free[P_S], c.now_s);
}

// Vector op cost from the profile: startup (when the pipe was idle) + slope x repeats.
double vec_cycles(const char* op, double repeats, double ready) {
    const OpCost& k = cfg().op(op);
    BlockCtx& c = ctx();
    bool idle = c.pipe_free[P_V] < std::max(c.now_s, ready);
    return (idle ? k.startup : 0.0) + k.slope * repeats;
}

std::vector<std::string>& unsupported_dtypes() {
    static std::vector<std::string> v;  // from the arch profile's limits.unsupported_dtypes
    return v;
}

void check_arch_dtype(const char* dtype, const loc_t& loc) {
    for (const std::string& d : unsupported_dtypes()) {
        if (d == dtype) {
            fail("SIM-DTYPE", fmt("%s is not supported on %s: its vector and cube units have no %s arithmetic; use "
                                  "half or float there, or run on an A2/A3 (Ascend910B) profile", dtype,
                                  cfg().arch.c_str(), dtype), loc, "dtype", "AllocTensor");
        }
    }
}

const char* cost_key(const char* op, int kind) {
    static const char* const suffix[] = {"", "_b16", "_b32", "_int"};
    if (kind < 1 || kind > 3) return op;
    const auto& table = cfg().vec;
    auto it = table.find(std::string(op) + suffix[kind]);
    return it == table.end() ? op : it->first.c_str();  // unordered_map keys stay put
}

// DMA: the pipe is busy for bytes / bandwidth; the data is there `dma_latency_cycles` later.
double charge_dma(int pipe, double bytes, double gibps, double ready, const char* name, const loc_t& loc) {
    return charge(pipe, cfg().bytes_cycles(bytes, gibps), ready, name, loc, cfg().dma_latency_cycles);
}


double vec_charge(const char* op, const char* api, double repeats, Slot* dst,
                         std::initializer_list<Slot*> srcs, const loc_t& loc) {
    double ready = ready_for_write(dst);
    for (Slot* s : srcs) ready = std::max(ready, ready_for_read(s));
    double end = charge(P_V, vec_cycles(op, repeats, ready), ready, api, loc);
    wrote(dst, end);
    for (Slot* s : srcs) read_by(s, end);
    return end;
}

[[noreturn]] void fail(const char* code, const char* msg, const loc_t& loc, const char* error_class, const char* api) {
    report(code, Sev::ERROR, msg, loc, error_class, api);
    throw BlockAbort{};
}

void cpu_debug_check(const char* code, const char* msg, const loc_t& loc, const char* error_class, const char* api) {
    if (cfg().checks == CheckMode::CPU_DEBUG) fail(code, msg, loc, error_class, api);
    std::string m(msg);
    while (!m.empty() && (m.back() == ' ' || m.back() == '.')) m.pop_back();
    m += ". CANN's CPU debug stops the kernel here, but the NPU does not check this, so the simulation goes on as the "
         "NPU would (set sim.checks to cpu-debug to stop here)";
    report(code, Sev::WARNING, m.c_str(), loc, error_class, api);
}

}  // namespace akgen_sim

extern "C" void akgen_sim_entry(void* const* args);
extern "C" void akgen_sim_fill_tiling(int arg, uint8_t* buf, uint64_t cap, const char* kv);
// Vector cores per AI Core of a split (mixed AIC/AIV) launch, from the glue: 0 for the single-pass model (one fiber
// per block), 2 when the kernel was compiled once per core type (one AIC fiber and two AIV fibers per block).
extern "C" const int akgen_sim_mix;

namespace {

using namespace akgen_sim;

constexpr uint64_t kGuard = 4096;
constexpr uint8_t kGuardByte = 0xA5;

struct Arg {
    std::string kind;  // gm | scalar | tiling | list (a TensorList: `elems`, and `data` is its descriptor)
    std::string name;
    std::string path;  // gm input ("-" = zeros)
    std::string mode;  // in | out | inout | workspace
    uint64_t bytes = 0;
    uint64_t alloc_bytes = 0;  // bytes rounded up to 512, as the NPU's allocator does (at least 512)
    std::string text;  // scalar value / tiling key=value list
    uint8_t* alloc = nullptr;
    uint8_t* data = nullptr;
    int out_fd = -1;
    std::vector<uint64_t> dims;  // a list element's shape (written into the list's descriptor)
    std::vector<Arg> elems;      // a list's tensors, each its own GM buffer
    uint64_t expect = 0;         // a list: how many `elem` lines follow
};

struct Spec {
    std::vector<Arg> args;
    int64_t block_dim = 1;
    int64_t tiling_key = 0;
    long cpu_s = 10;
    uint64_t as_bytes = 0, fsize_bytes = 1ull << 30;
    bool seccomp = true, unshare_net = true;
    std::string events_path;
};

// Process state lives in function-local statics: early_setup runs before the dynamic initialisation of this file's
// globals (init priority 101), which would otherwise reset them afterwards.
struct State {
    Spec spec;
    std::vector<void*> argv;
    std::string setup_error;
    bool seccomp_on = false, net_isolated = false;
};
State& state() { static State s; return s; }
#define g_spec (state().spec)
#define g_argv (state().argv)
#define g_setup_error (state().setup_error)
#define g_seccomp_on (state().seccomp_on)
#define g_net_isolated (state().net_isolated)
char g_alt_stack[1 << 16];

std::vector<std::string> split(const std::string& s, char sep, int max_parts = 0) {
    std::vector<std::string> out;
    size_t a = 0;
    while (true) {
        if (max_parts > 0 && static_cast<int>(out.size()) == max_parts - 1) {
            out.push_back(s.substr(a));
            break;
        }
        size_t b = s.find(sep, a);
        if (b == std::string::npos) {
            out.push_back(s.substr(a));
            break;
        }
        out.push_back(s.substr(a, b - a));
        a = b + 1;
    }
    return out;
}

bool read_file(const std::string& path, std::string& out) {
    FILE* f = std::fopen(path.c_str(), "rb");
    if (!f) return false;
    char buf[65536];
    size_t n;
    while ((n = std::fread(buf, 1, sizeof buf, f)) > 0) out.append(buf, n);
    std::fclose(f);
    return true;
}

void emit(const std::string& line) { write_all(events_fd(), line.data(), line.size()); }

void parse_spec(const std::string& text) {
    Config& c = cfg();
    for (const std::string& raw : split(text, '\n')) {
        if (raw.empty() || raw[0] == '#') continue;
        auto w = split(raw, ' ', 2);
        const std::string& k = w[0];
        std::string rest = w.size() > 1 ? w[1] : "";
        auto num = [&]() { return std::strtod(rest.c_str(), nullptr); };
        if (k == "events") g_spec.events_path = rest;
        else if (k == "block_dim") g_spec.block_dim = static_cast<int64_t>(num());
        else if (k == "tiling_key") g_spec.tiling_key = static_cast<int64_t>(num());
        else if (k == "arch") c.arch = rest;
        else if (k == "unsupported_dtype") unsupported_dtypes().push_back(rest);
        else if (k == "checks") {
            if (rest == "npu") c.checks = CheckMode::NPU;
            else if (rest == "cpu-debug") c.checks = CheckMode::CPU_DEBUG;
            else g_setup_error = "the run spec's `checks` is \"" + rest + "\"; it must be npu or cpu-debug";
        }
        else if (k == "ub_bytes") c.ub_bytes = static_cast<uint64_t>(num());
        else if (k == "l1_bytes") c.l1_bytes = static_cast<uint64_t>(num());
        else if (k == "l0a_bytes") c.l0a_bytes = static_cast<uint64_t>(num());
        else if (k == "l0b_bytes") c.l0b_bytes = static_cast<uint64_t>(num());
        else if (k == "l0c_bytes") c.l0c_bytes = static_cast<uint64_t>(num());
        else if (k == "buffers_per_position") c.buffers_per_position = static_cast<int>(num());
        else if (k == "clock_ghz") c.clock_ghz = num();
        else if (k == "dma_latency_cycles") c.dma_latency_cycles = num();
        else if (k == "issue_cycles") c.issue_cycles = num();
        else if (k == "max_trace_events") c.max_trace_events = static_cast<size_t>(num());
        else if (k == "cpu_s") g_spec.cpu_s = static_cast<long>(num());
        else if (k == "as_bytes") g_spec.as_bytes = static_cast<uint64_t>(num());
        else if (k == "fsize_bytes") g_spec.fsize_bytes = static_cast<uint64_t>(num());
        else if (k == "seccomp") g_spec.seccomp = num() != 0;
        else if (k == "unshare_net") g_spec.unshare_net = num() != 0;
        else if (k == "bw") {
            auto p = split(rest, ' ');
            double v = p.size() > 1 ? std::strtod(p[1].c_str(), nullptr) : 0;
            if (v <= 0) continue;
            if (p[0] == "gm_ub") c.bw_gm_ub = v;
            else if (p[0] == "gm_l1") c.bw_gm_l1 = v;
            else if (p[0] == "ub_gm") c.bw_ub_gm = v;
            else if (p[0] == "ub_ub") c.bw_ub_ub = v;
            else if (p[0] == "l0c_gm") c.bw_l0c_gm = v;
            else if (p[0] == "l1_l0a") c.bw_l1_l0a = v;
            else if (p[0] == "l1_l0b") c.bw_l1_l0b = v;
        } else if (k == "cost") {
            auto p = split(rest, ' ');
            if (p.size() >= 3) {
                OpCost oc{std::strtod(p[1].c_str(), nullptr), std::strtod(p[2].c_str(), nullptr)};
                if (p[0] == "default") c.default_vec = oc;
                else c.vec[p[0]] = oc;
            }
        } else if (k == "arg") {
            // arg gm NAME MODE BYTES PATH (MODE in, out, inout, workspace or null: no buffer, a nullptr) |
            // arg scalar NAME VALUE | arg tiling NAME BYTES KV
            auto p = split(rest, ' ', 4);
            Arg a;
            a.kind = p[0];
            a.name = p.size() > 1 ? p[1] : "";
            if (a.kind == "gm" && p.size() >= 4) {
                auto q = split(p[3], ' ', 2);
                a.mode = p[2];
                a.bytes = std::strtoull(q[0].c_str(), nullptr, 10);
                a.path = q.size() > 1 ? q[1] : "-";
            } else if (a.kind == "scalar") {
                a.text = p.size() > 2 ? p[2] + (p.size() > 3 ? " " + p[3] : "") : "0";
            } else if (a.kind == "tiling" && p.size() >= 3) {
                a.bytes = std::strtoull(p[2].c_str(), nullptr, 10);
                a.text = p.size() > 3 ? p[3] : "";
            } else if (a.kind == "list") {
                a.expect = p.size() > 2 ? std::strtoull(p[2].c_str(), nullptr, 10) : 0;
            } else if (a.kind == "ref") {
                // arg ref NAME OTHER: a ref output (CANN's aclnn passes one tensor, or tensor list, for an OpDef
                // input and the output of the same name): the kernel gets OTHER's GM address again
                a.text = p.size() > 2 ? p[2] : "";
            }
            g_spec.args.push_back(a);
        } else if (k == "elem") {
            // elem MODE BYTES NDIM d0 ... PATH: one tensor of the list argument just above
            if (g_spec.args.empty() || g_spec.args.back().kind != "list") {
                g_setup_error = "a tensor-list element line comes before its `arg list` line";
                continue;
            }
            Arg& list = g_spec.args.back();
            Arg e;
            e.kind = "gm";
            e.name = list.name + "[" + std::to_string(list.elems.size()) + "]";
            auto p = split(rest, ' ', 3);
            e.mode = p[0];
            e.bytes = p.size() > 1 ? std::strtoull(p[1].c_str(), nullptr, 10) : 0;
            std::string tail = p.size() > 2 ? p[2] : "0 -";
            uint64_t ndim = std::strtoull(tail.c_str(), nullptr, 10);
            auto q = split(tail, ' ', static_cast<int>(ndim) + 2);
            for (uint64_t d = 0; d < ndim && d + 1 < q.size(); ++d) {
                e.dims.push_back(std::strtoull(q[d + 1].c_str(), nullptr, 10));
            }
            e.path = q.size() > ndim + 1 ? q[ndim + 1] : "-";
            list.elems.push_back(e);
        }
    }
}

#include "sandbox.h"

// ------------------------------------------------------------------------------------------------ crash reports
const char* signal_reason(int sig) {
    switch (sig) {
        case SIGSEGV: return "SIGSEGV (invalid memory access)";
        case SIGBUS: return "SIGBUS (misaligned or unmapped memory access)";
        case SIGFPE: return "SIGFPE (arithmetic error, e.g. integer division by zero)";
        case SIGILL: return "SIGILL (illegal instruction)";
        case SIGABRT: return "SIGABRT (abort: an uncaught exception or a failed assert)";
        case SIGXCPU: return "SIGXCPU (the CPU-time limit was reached: an endless loop?)";
        case SIGTERM: return "SIGTERM (the wall-clock limit was reached: an endless loop or a hang?)";
        case SIGXFSZ: return "SIGXFSZ (the file-size limit was reached)";
        case SIGSYS: return "SIGSYS (a forbidden system call)";
        default: return "a signal";
    }
}

const char* syscall_name(int nr) {
    switch (nr) {
#ifdef SYS_open
        case SYS_open: return "open";
#endif
        case SYS_openat: return "openat";
#ifdef SYS_fork
        case SYS_fork: return "fork";
#endif
#ifdef SYS_vfork
        case SYS_vfork: return "vfork";
#endif
        case SYS_clone: return "clone";
#ifdef SYS_clone3
        case SYS_clone3: return "clone3";
#endif
        case SYS_execve: return "execve";
        case SYS_socket: return "socket";
        case SYS_connect: return "connect";
#ifdef SYS_unlink
        case SYS_unlink: return "unlink";
#endif
        case SYS_unlinkat: return "unlinkat";
        case SYS_kill: return "kill";
#ifdef SYS_creat
        case SYS_creat: return "creat";
#endif
        default: return "syscall";
    }
}

// An integer division by zero in the kernel's scalar code: the NPU's scalar unit does not trap (catlass kernels
// compute `x % tileCountNext` for a next block that does not exist and never use the result), x86's div/idiv do.
// Emulate the NPU: step over the instruction with quotient and remainder 0 (the NPU's values are undefined) and warn
// once, at the last API call before it. False when the faulting instruction is not a div/idiv.
bool skip_int_division(void* ucv) {
    auto* uc = static_cast<ucontext_t*>(ucv);
    greg_t* g = uc->uc_mcontext.gregs;
    const uint8_t* p = reinterpret_cast<const uint8_t*>(g[REG_RIP]);
    size_t i = 0;
    while (i < 4 && (p[i] == 0x66 || p[i] == 0x67 || p[i] == 0xF2 || p[i] == 0xF3 || p[i] == 0x2E || p[i] == 0x3E ||
                     p[i] == 0x26 || p[i] == 0x36 || p[i] == 0x64 || p[i] == 0x65)) {
        ++i;
    }
    if ((p[i] & 0xF0) == 0x40) ++i;  // REX
    const bool byte_form = p[i] == 0xF6;
    if (!byte_form && p[i] != 0xF7) return false;
    ++i;
    const uint8_t modrm = p[i++];
    const int reg = (modrm >> 3) & 7, mod = modrm >> 6, rm = modrm & 7;
    if (reg != 6 && reg != 7) return false;  // /6 div, /7 idiv
    if (mod != 3) {
        if (rm == 4) {
            const uint8_t sib = p[i++];
            if (mod == 0 && (sib & 7) == 5) i += 4;
        }
        if (mod == 1) i += 1;
        else if (mod == 2) i += 4;
        else if (mod == 0 && rm == 5) i += 4;
    }
    g[REG_RAX] = 0;
    if (!byte_form) g[REG_RDX] = 0;
    g[REG_RIP] += static_cast<greg_t>(i);
    static bool warned = false;
    BlockCtx* c = ctx_ptr();
    if (!warned && c) {
        warned = true;
        char buf[2048];
        int n = std::snprintf(buf, sizeof buf,
                              "{\"kind\":\"finding\",\"code\":\"SIM-DIV-ZERO\",\"severity\":\"warning\",\"message\":"
                              "\"an integer division by zero in the kernel's scalar code after the last API call here: "
                              "the NPU does not trap, but the result is undefined (the simulator goes on with 0)\","
                              "\"file\":\"%s\",\"line\":%u,\"column\":%u,\"function\":\"%s\",\"block\":%lld,"
                              "\"error_class\":\"logic\",\"api\":\"%s\"}\n",
                              c->last.file_name(), static_cast<unsigned>(c->last.line()),
                              static_cast<unsigned>(c->last.column()), c->last.function_name(),
                              static_cast<long long>(c->idx), c->last_api);
        if (n > 0) write_all(events_fd(), buf, static_cast<size_t>(n < (int)sizeof buf ? n : (int)sizeof buf - 1));
    }
    return true;
}

extern "C" void on_fatal_signal(int sig, siginfo_t* info, void* ucv) {
    if (sig == SIGFPE && info && info->si_code == FPE_INTDIV && ucv && skip_int_division(ucv)) return;
    BlockCtx* c = ctx_ptr();
    char buf[4096];
    const char* file = "";
    unsigned line = 0, col = 0;
    const char* func = "";
    const char* api = "";
    long long block = -1;
    if (c) {
        file = c->last.file_name();
        line = c->last.line();
        col = c->last.column();
        func = c->last.function_name();
        api = c->last_api;
        block = c->idx;
    }
    const char* kind = sig == SIGSYS ? "forbidden" : (sig == SIGXCPU || sig == SIGTERM) ? "timeout" : "crash";
    int sc = -1;
#ifdef AKGEN_HAVE_SECCOMP
    if (sig == SIGSYS && info) sc = info->si_syscall;
#else
    (void)info;
#endif
    // Strings from source_location are literals without quotes or backslashes in practice; keep the handler simple.
    int n = std::snprintf(buf, sizeof buf,
                          "{\"kind\":\"%s\",\"signal\":%d,\"reason\":\"%s\",\"syscall\":\"%s\",\"syscall_nr\":%d,"
                          "\"block\":%lld,\"file\":\"%s\",\"line\":%u,\"column\":%u,\"function\":\"%s\",\"api\":\"%s\"}\n",
                          kind, sig, signal_reason(sig), sc >= 0 ? syscall_name(sc) : "", sc, block, file, line, col,
                          func, api);
    if (n > 0) write_all(events_fd(), buf, static_cast<size_t>(n < (int)sizeof buf ? n : (int)sizeof buf - 1));
    _exit(sig == SIGSYS ? 4 : (sig == SIGXCPU || sig == SIGTERM) ? 5 : 3);
}

void install_handlers() {
    stack_t ss{};
    ss.ss_sp = g_alt_stack;
    ss.ss_size = sizeof g_alt_stack;
    sigaltstack(&ss, nullptr);
    struct sigaction sa {};
    sa.sa_sigaction = on_fatal_signal;
    sa.sa_flags = SA_SIGINFO | SA_ONSTACK;
    sigemptyset(&sa.sa_mask);
    for (int s : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGXCPU, SIGTERM, SIGXFSZ, SIGSYS}) sigaction(s, &sa, nullptr);
}


uint8_t* alloc_gm(uint64_t bytes, uint8_t*& alloc) {
    uint64_t body = (bytes + 31) / 32 * 32;
    alloc = static_cast<uint8_t*>(std::aligned_alloc(4096, kGuard + body + kGuard));
    if (!alloc) return nullptr;
    std::memset(alloc, kGuardByte, kGuard);
    std::memset(alloc + kGuard + bytes, kGuardByte, body - bytes + kGuard);
    return alloc + kGuard;
}

// One GM buffer (an argument or a tensor-list element): allocated with guard zones, zeroed, its input read, its output
// file opened, registered as a region for the bounds checks. False (and g_setup_error) when that fails.
bool setup_gm(Arg& a) {
    a.alloc_bytes = a.bytes ? (a.bytes + 511) / 512 * 512 : 512;
    a.data = alloc_gm(a.alloc_bytes, a.alloc);
    if (!a.data) {
        g_setup_error = "cannot allocate GM buffer " + a.name;
        return false;
    }
    std::memset(a.data, 0, a.alloc_bytes);
    if (a.kind == "gm" && a.path != "-" && (a.mode == "in" || a.mode == "inout")) {
        std::string blob;
        if (!read_file(a.path, blob)) {
            g_setup_error = "cannot read input " + a.path;
            return false;
        }
        std::memcpy(a.data, blob.data(), blob.size() < a.bytes ? blob.size() : a.bytes);
    }
    if (a.kind == "gm" && a.path != "-" && (a.mode == "out" || a.mode == "inout")) {
        a.out_fd = ::open(a.path.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    }
    gm_regions().push_back({a.data, a.alloc_bytes, a.name, a.bytes});
    return true;
}

// Runs before any constructor of the kernel's code (init priority 101): all I/O setup, then the sandbox.
__attribute__((constructor(101))) void early_setup(int argc, char** argv, char**) {
    if (argc < 2) {
        g_setup_error = "usage: launcher SPEC";
        return;
    }
    std::string text;
    if (!read_file(argv[1], text)) {
        g_setup_error = std::string("cannot read the run spec ") + argv[1];
        return;
    }
    parse_spec(text);
    if (!g_spec.events_path.empty()) {
        int fd = ::open(g_spec.events_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0644);
        if (fd >= 0) events_fd() = fd;
    }
    if (!g_setup_error.empty()) return;
    for (Arg& a : g_spec.args) {
        if (a.kind == "gm" && a.mode == "null") {
            a.data = nullptr;  // an absent optional input: aclnn passes no tensor, so the kernel's GM_ADDR is null
        } else if (a.kind == "gm" || a.kind == "tiling") {
            if (!setup_gm(a)) return;
        } else if (a.kind == "ref") {
            const Arg* target = nullptr;
            for (const Arg& o : g_spec.args) {
                if (&o == &a) break;
                if (o.name == a.text && (o.kind == "gm" || o.kind == "list")) target = &o;
            }
            if (target == nullptr) {
                g_setup_error = "ref argument " + a.name + ": no earlier GM argument named '" + a.text + "'";
                return;
            }
            a.data = target->data;  // the same buffer (a list: the same descriptor, so the same tensors)
            a.bytes = target->bytes;
        } else if (a.kind == "list") {
            if (a.elems.size() != a.expect || a.elems.empty()) {
                g_setup_error = "tensor list " + a.name + ": the spec announces " + std::to_string(a.expect) +
                                " elements but lists " + std::to_string(a.elems.size());
                return;
            }
            for (Arg& e : a.elems) {
                if (!setup_gm(e)) return;
            }
            // The descriptor, in CANN's layout (what AscendC::ListTensorDesc decodes): word 0 = byte offset of the
            // data-pointer array; per tensor k: (dim | k << 32) and its dims; then one data pointer per tensor.
            std::vector<uint64_t> words{0};
            for (size_t k = 0; k < a.elems.size(); ++k) {
                words.push_back(static_cast<uint64_t>(a.elems[k].dims.size()) | (static_cast<uint64_t>(k) << 32));
                for (uint64_t d : a.elems[k].dims) words.push_back(d);
            }
            words[0] = words.size() * sizeof(uint64_t);
            for (const Arg& e : a.elems) words.push_back(reinterpret_cast<uint64_t>(e.data));
            a.kind = "gm";
            a.mode = "in";
            a.path = "-";
            a.bytes = words.size() * sizeof(uint64_t);
            std::string name = a.name;
            a.name += " (tensor-list descriptor)";
            bool ok = setup_gm(a);
            a.kind = "list";
            a.name = name;
            if (!ok) return;
            std::memcpy(a.data, words.data(), a.bytes);
        }
    }
    install_handlers();
    if (g_spec.cpu_s > 0) set_limit(RLIMIT_CPU, static_cast<rlim_t>(g_spec.cpu_s));
    if (g_spec.as_bytes > 0) set_limit(RLIMIT_AS, static_cast<rlim_t>(g_spec.as_bytes));
    if (g_spec.fsize_bytes > 0) set_limit(RLIMIT_FSIZE, static_cast<rlim_t>(g_spec.fsize_bytes));
    set_limit(RLIMIT_CORE, 0);
    set_limit(RLIMIT_NPROC, 0);
    if (g_spec.unshare_net) g_net_isolated = try_unshare_net();
    if (g_spec.seccomp) g_seccomp_on = install_seccomp();
}

// ------------------------------------------------------------------------------------------------ blocks
std::string block_summary(const BlockCtx& c, const char* status, double wall_us) {
    std::string s = "{\"kind\":\"block\",\"block\":" + std::to_string(c.idx) + ",\"status\":\"" + status + "\"";
    double makespan = std::max(c.now_s, c.done);
    for (double f : c.pipe_free) makespan = std::max(makespan, f);
    s += ",\"cycles\":" + std::to_string(makespan);
    s += ",\"busy\":{";
    for (int p = 0; p < P_COUNT; ++p) {
        s += std::string(p ? "," : "") + "\"" + pipe_name(p) + "\":" + std::to_string(c.busy[p]);
    }
    s += "},\"gm_read\":" + std::to_string(c.gm_read) + ",\"gm_write\":" + std::to_string(c.gm_write);
    s += ",\"gm_scalar_read\":" + std::to_string(c.gm_scalar_read) + ",\"gm_scalar_write\":" +
         std::to_string(c.gm_scalar_write);
    s += ",\"ub_used\":" + std::to_string(c.ub_used) + ",\"wall_us\":" + std::to_string(wall_us);
    s += ",\"trace_dropped\":" + std::to_string(c.trace_dropped);
    if (c.core_type != 0) {  // a split launch: which AI Core this fiber's core belongs to, and its kind
        s += ",\"group\":" + std::to_string(c.group) + ",\"core_type\":" + std::to_string(c.core_type);
    }
    s += "}\n";
    return s;
}

std::string block_trace(const BlockCtx& c) {
    std::string s = "{\"kind\":\"trace\",\"block\":" + std::to_string(c.idx) + ",\"events\":[";
    char buf[256];
    bool first = true;
    for (const TraceEvent& e : c.trace) {
        std::snprintf(buf, sizeof buf, "%s[%d,%.1f,%.1f,\"%s\",%u]", first ? "" : ",", e.pipe, e.start, e.dur, e.name,
                      e.line);
        s += buf;
        first = false;
    }
    s += "]}\n";
    return s;
}

void end_of_block_checks(BlockCtx& c) {
    for (const Slot& s : c.slots) {
        if (s.state == SlotState::ALLOCATED || s.state == SlotState::ENQUEUED || s.state == SlotState::DEQUEUED) {
            warn("SIM-QUE-LEAK", "a tensor from this AllocTensor is still held at kernel end (ErrorLeak: no "
                                 "FreeTensor for it)", s.alloc_loc, "memory", "AllocTensor");
        }
    }
    for (int e = 0; e < static_cast<int>(AscendC::HardEvent::MAX); ++e) {
        for (int id = 0; id < 8; ++id) {
            if (c.flag_pending[e][id] > 0) {
                warn("SIM-SYNC-UNPAIRED", fmt("SetFlag on event id %d has no matching WaitFlag before kernel end "
                                              "(ErrorSync2: unpaired SetFlag/WaitFlag)", id), c.flag_loc[e][id],
                     "sync", "SetFlag");
            }
        }
    }
}

double now_us() {
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

// ------------------------------------------------------------------------------------------------ fibers
struct Fiber {
    // FLAGWAIT: parked in CrossCoreWaitFlag until the flag it waits for is set (split launches)
    enum State { NEW, RUNNING, WAITING, FLAGWAIT, DONE } state = NEW;
    int wait_mode = 0, wait_flag = 0;
    bool deadlocked = false;
    ucontext_t uc{};
    BlockCtx ctx;
    uint8_t* stack = nullptr;
    size_t stack_bytes = 0;
    uint8_t* mem = nullptr;  // UB, L1, L0A, L0B, L0C of this block's core
    const char* status = "ok";
    double wall_us = 0;
    loc_t wait_loc{};
};

std::vector<Fiber>*& fibers_ptr() { static std::vector<Fiber>* p = nullptr; return p; }
Fiber*& current_fiber() { static Fiber* f = nullptr; return f; }
ucontext_t& scheduler_context() { static ucontext_t u; return u; }

uint64_t page_up(uint64_t n) { return (n + 4095) / 4096 * 4096; }

void fiber_main() {
    Fiber& f = *current_fiber();
    BlockCtx& c = f.ctx;
    try {
        akgen_sim_entry(g_argv.data());
    } catch (const BlockAbort&) {
        f.status = "aborted";
    } catch (const std::bad_alloc&) {
        report("SIM-ALLOC", Sev::ERROR, "an allocation failed: the kernel asked for more memory than the sandbox "
                                        "allows (device code may not allocate; GM comes from the arguments)",
               c.last, "memory");
        f.status = "aborted";
    } catch (const std::exception& e) {
        report("SIM-EXCEPTION", Sev::ERROR, (std::string("an exception escaped the kernel: ") + e.what()).c_str(),
               c.last, "logic");
        f.status = "aborted";
    }
    f.state = Fiber::DONE;
    // returning resumes uc_link: the scheduler
}

void start_fiber(Fiber& f, const Config& k) {
    // each memory is mapped arena_bytes() large (twice its size): in npu mode InitBuffer may hand out buffers past
    // the physical end (SIM-UB-LIMIT warns), and their addresses must not point into the next memory
    uint64_t ub = page_up(arena_bytes(k.ub_bytes) + 4096), l1 = page_up(arena_bytes(k.l1_bytes)),
             l0a = page_up(arena_bytes(k.l0a_bytes)), l0b = page_up(arena_bytes(k.l0b_bytes)),
             l0c = page_up(arena_bytes(k.l0c_bytes));
    f.mem = static_cast<uint8_t*>(std::aligned_alloc(4096, ub + l1 + l0a + l0b + l0c));
    f.ctx.ub = f.mem;
    f.ctx.l1 = f.mem + ub;
    f.ctx.l0a = f.ctx.l1 + l1;
    f.ctx.l0b = f.ctx.l0a + l0a;
    f.ctx.l0c = f.ctx.l0b + l0b;
    std::memset(f.ctx.ub, 0xFF, k.ub_bytes);  // UB holds garbage on the NPU: all-ones shows up as NaN / -1
    f.stack_bytes = 8u << 20;
    void* st = mmap(nullptr, f.stack_bytes + 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE,
                    -1, 0);
    if (st == MAP_FAILED) {
        std::fprintf(stderr, "akgen sim launcher: cannot map a block stack\n");
        _exit(2);
    }
    mprotect(st, 4096, PROT_NONE);  // guard page: a stack overflow is a SIGSEGV, reported as a crash
    f.stack = static_cast<uint8_t*>(st);
    getcontext(&f.uc);
    f.uc.uc_stack.ss_sp = f.stack + 4096;
    f.uc.uc_stack.ss_size = f.stack_bytes;
    f.uc.uc_link = &scheduler_context();
    makecontext(&f.uc, fiber_main, 0);
}

void free_fiber(Fiber& f) {
    if (f.stack) munmap(f.stack, f.stack_bytes + 4096);
    std::free(f.mem);
    f.stack = nullptr;
    f.mem = nullptr;
}

double block_time(const BlockCtx& c) {
    double t = std::max(c.now_s, c.done);
    for (double p : c.pipe_free) t = std::max(t, p);
    return t;
}

// Every block has reached SyncAll or ended: the waiting ones continue, their clocks aligned to the latest arrival.
void release_barrier(std::vector<Fiber>& fibers) {
    double t = 0;
    const Fiber* first_wait = nullptr;
    for (const Fiber& f : fibers) {
        if (f.state == Fiber::WAITING) {
            t = std::max(t, block_time(f.ctx));
            if (!first_wait) first_wait = &f;
        }
    }
    for (const Fiber& f : fibers) {
        if (f.state == Fiber::DONE && first_wait) {
            BlockCtx tmp;
            tmp.idx = f.ctx.idx;
            ctx_ptr() = &tmp;
            report("SIM-SYNCALL-MISSING",
                   Sev::WARNING,
                   fmt("SyncAll: block %lld ended without reaching this barrier; on the NPU the hardware barrier "
                       "counts every block of the launch, so the others can wait here forever",
                       static_cast<long long>(f.ctx.idx)),
                   first_wait->wait_loc, "sync", "SyncAll");
            ctx_ptr() = nullptr;
            break;
        }
    }
    for (Fiber& f : fibers) {
        if (f.state != Fiber::WAITING) continue;
        f.ctx.now_s = t;
        for (double& p : f.ctx.pipe_free) p = t;
        f.state = Fiber::RUNNING;
    }
}

}  // namespace

bool akgen_sim::sync_all_blocks(const loc_t& loc) {
    Fiber* f = current_fiber();
    if (f == nullptr) return false;
    f->state = Fiber::WAITING;
    f->wait_loc = loc;
    swapcontext(&f->uc, &scheduler_context());
    return true;
}

// ------------------------------------------------------------------------------------------------ cross-core flags
// The A2/A3 model: every core has a counter per flag id; CrossCoreWaitFlag(id) waits until its own counter is
// positive and takes one. CrossCoreSetFlag<mode>(id) signals: mode 2 from the AIC raises the counters of both AIV of
// its AI Core, and once both AIV have set it the AIC's counter rises; mode 1 raises both AIV counters once both AIV of
// the AI Core have set it; mode 0 raises the counter of every core of the caller's type once all of them have set it.
// The waiter's clock moves to when the signal was raised (the setter's pipes done).
namespace {
struct CoreKey {
    int core_type;
    int64_t group;
    int sub;
    int flag;
    bool operator<(const CoreKey& o) const {
        return std::tie(core_type, group, sub, flag) < std::tie(o.core_type, o.group, o.sub, o.flag);
    }
};
struct FlagCount { int64_t n = 0; double t = 0; };
std::map<CoreKey, FlagCount>& flag_counters() { static std::map<CoreKey, FlagCount> m; return m; }
// sets waiting for their partners: key (mode, core_type, group or -1, flag) -> per-core pending sets
std::map<std::tuple<int, int, int64_t, int>, std::map<std::pair<int64_t, int>, FlagCount>>& flag_pending() {
    static std::map<std::tuple<int, int, int64_t, int>, std::map<std::pair<int64_t, int>, FlagCount>> m;
    return m;
}

void raise(int core_type, int64_t group, int sub, int flag, double t) {
    FlagCount& c = flag_counters()[{core_type, group, sub, flag}];
    c.n += 1;
    c.t = std::max(c.t, t);
}

bool flag_ready(const BlockCtx& c, int mode, int flag, double* when) {
    (void)mode;
    auto it = flag_counters().find({c.core_type, c.group, c.sub_idx, flag});
    if (it == flag_counters().end() || it->second.n <= 0) return false;
    if (when) *when = it->second.t;
    return true;
}
}  // namespace

void akgen_sim::cross_core_set(int mode, int flag, const loc_t& loc) {
    BlockCtx& c = ctx();
    if (mode != 0 && mode != 1 && mode != 2) {
        fail("SIM-CROSSCORE-MODE", fmt("CrossCoreSetFlag: modeId %d is not supported on A2/A3 (0, 1 or 2)", mode), loc,
             "api_mismatch", "CrossCoreSetFlag");
    }
    if (mode == 1 && c.core_type != 2) {
        fail("SIM-CROSSCORE-MODE", "CrossCoreSetFlag: modeId 1 synchronises the vector cores of an AI Core; the cube "
             "core cannot take part", loc, "api_mismatch", "CrossCoreSetFlag");
    }
    double t = c.now_s;
    for (double p : c.pipe_free) t = std::max(t, p);  // the flag goes up once the work issued before it is done
    const int subs = akgen_sim_mix > 0 ? akgen_sim_mix : 1;
    if (mode == 2 && c.core_type == 1) {
        for (int s = 0; s < subs; ++s) raise(2, c.group, s, flag, t);
        return;
    }
    // the partners that must all set it: the AIV of this AI Core (modes 1, 2) or every core of this type (mode 0)
    auto& pend = flag_pending()[{mode, c.core_type, mode == 0 ? -1 : c.group, flag}];
    FlagCount& mine = pend[{c.group, c.sub_idx}];
    mine.n += 1;
    mine.t = std::max(mine.t, t);
    const size_t need = mode == 0 ? size_t(c.num) * size_t(c.core_type == 1 ? 1 : subs) : size_t(subs);
    if (pend.size() < need) return;
    double all = 0;
    for (auto& [who, fc] : pend) {
        if (fc.n <= 0) return;
        all = std::max(all, fc.t);
    }
    for (auto& [who, fc] : pend) fc.n -= 1;
    if (mode == 2) {
        raise(1, c.group, 0, flag, all);
    } else if (mode == 1) {
        for (int s = 0; s < subs; ++s) raise(2, c.group, s, flag, all);
    } else {
        for (auto& [who, fc] : pend) raise(c.core_type, who.first, who.second, flag, all);
    }
}

void akgen_sim::cross_core_wait(int mode, int flag, const loc_t& loc) {
    Fiber* f = current_fiber();
    BlockCtx& c = ctx();
    double when = 0;
    while (!flag_ready(c, mode, flag, &when)) {
        if (f == nullptr) return;
        f->state = Fiber::FLAGWAIT;
        f->wait_mode = mode;
        f->wait_flag = flag;
        f->wait_loc = loc;
        swapcontext(&f->uc, &scheduler_context());
        if (f->deadlocked) {
            fail("SIM-CROSSCORE-DEADLOCK",
                 fmt("CrossCoreWaitFlag(%d) waits for a CrossCoreSetFlag that no core will reach: every core of the "
                     "launch is waiting or has ended (on the NPU this hangs until the timeout)", flag),
                 loc, "sync", "CrossCoreWaitFlag");
        }
    }
    flag_counters()[{c.core_type, c.group, c.sub_idx, flag}].n -= 1;
    c.now_s = std::max(c.now_s, when);
}

int main() {
    if (!g_setup_error.empty()) {
        std::fprintf(stderr, "akgen sim launcher: %s\n", g_setup_error.c_str());
        std::string line = "{\"kind\":\"setup_error\",\"message\":\"";
        json_escape(line, g_setup_error);
        emit(line + "\"}\n");
        return 2;
    }
    {
        std::string s = std::string("{\"kind\":\"sandbox\",\"seccomp\":") + (g_seccomp_on ? "true" : "false") +
                        ",\"net_isolated\":" + (g_net_isolated ? "true" : "false") + "}\n";
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
    const int64_t per_block = akgen_sim_mix > 0 ? 1 + akgen_sim_mix : 1;
    std::vector<std::vector<GmWrite>> writes(static_cast<size_t>(g_spec.block_dim * per_block));
    double kernel_us = 0;
    int failed = 0;
    // Blocks run as fibers (one stack and one set of on-chip memories each) in index order; a block runs until it
    // ends or reaches SyncAll, so SyncAll is honoured: once every block has arrived or ended, the waiting ones go on.
    // A split launch (akgen_sim_mix > 0) runs each block as its AI Core: the AIC (GetBlockIdx() = block) and
    // akgen_sim_mix AIV (GetBlockIdx() = block * akgen_sim_mix + GetSubBlockIdx()), each a fiber of its own.
    std::vector<Fiber> fibers(static_cast<size_t>(g_spec.block_dim * per_block));
    for (int64_t b = 0; b < g_spec.block_dim; ++b) {
        for (int64_t r = 0; r < per_block; ++r) {
            Fiber& f = fibers[static_cast<size_t>(b * per_block + r)];
            f.ctx.idx = b;
            f.ctx.num = g_spec.block_dim;
            f.ctx.group = b;
            if (per_block > 1) {
                f.ctx.core_type = r == 0 ? 1 : 2;
                f.ctx.sub_num = akgen_sim_mix;
                f.ctx.sub_idx = r == 0 ? 0 : static_cast<int>(r - 1);
                if (r > 0) f.ctx.idx = b * akgen_sim_mix + (r - 1);
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
    struct W { int region; uint64_t begin, end; int64_t block; loc_t loc; };
    std::vector<W> all;
    for (size_t b = 0; b < writes.size(); ++b) {
        for (const GmWrite& w : writes[b]) all.push_back({w.region, w.begin, w.end, static_cast<int64_t>(b), w.loc});
    }
    std::sort(all.begin(), all.end(), [](const W& x, const W& y) {
        return x.region != y.region ? x.region < y.region : x.begin < y.begin;
    });
    int overlaps = 0;
    for (size_t i = 1; i < all.size() && overlaps < 4; ++i) {
        const W& p = all[i - 1];
        const W& q = all[i];
        if (p.region == q.region && q.begin < p.end && p.block != q.block) {
            BlockCtx tmp;
            tmp.idx = q.block;
            ctx_ptr() = &tmp;
            report("SIM-GM-OVERLAP",
                   Sev::WARNING,
                   fmt("blocks %lld and %lld both write bytes [%llu, %llu) of GM buffer '%s' (overlapping writes from "
                       "different cores: the result depends on their order)", static_cast<long long>(p.block),
                       static_cast<long long>(q.block), static_cast<unsigned long long>(q.begin),
                       static_cast<unsigned long long>(std::min(p.end, q.end)),
                       gm_regions()[static_cast<size_t>(q.region)].name.c_str()),
                   q.loc, "memory", "DataCopy");
            ctx_ptr() = nullptr;
            ++overlaps;
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
    emit("{\"kind\":\"done\",\"blocks\":" + std::to_string(g_spec.block_dim) + ",\"failed\":" + std::to_string(failed) +
         ",\"kernel_us\":" + std::to_string(kernel_us) + "}\n");
    return 0;
}
