// akgen sim program runtime: the launcher piece linked into single-source `.asc` programs (`akgen sim run-program`).
//
// A program has its own main() (the host code), so this file reuses the kernel launcher (launcher.cpp: block fibers,
// findings, cost model, overlap checks) with its main() renamed, and runs it once per kernel launch:
// akgen_sim::program_launch_blocks sets the block count, points the launcher's entry at the launch's body and runs
// the launcher's block loop; the host continues after every block has ended.
//
// Setup (before any code of the program): the run spec comes from $AKGEN_SIM_SPEC (memory sizes, cost tables, the
// events file, limits), written by akgen_lsp/sim/program.py. The sandbox is the launcher's (rlimits, no core files,
// no new processes, network unshared, seccomp) except that the host code may use the file system (its ReadFile /
// WriteFile): open, stat, mkdir and friends are allowed; fork/exec/sockets are not. A failed open or stat of a file
// the program reads is reported as a finding (SIM-PROGRAM-FILE) with the working directory, since host code often
// goes on with garbage after it.
#include <dlfcn.h>
#include <fcntl.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstdarg>
#include <functional>

#include "kernel_operator.h"
#include "akgen_sim/acl_runtime.h"

#define main akgen_sim_launcher_main
#include "launcher.cpp"
#undef main

namespace {

std::function<void()>& program_body() {
    static std::function<void()> f;
    return f;
}

int64_t& launch_count() {
    static int64_t n = 0;
    return n;
}

// A direct run: the program was started by a person (a binary the toolkit's CMake build made, run by the sample's
// run.sh), not by akgen with a run spec. Findings are printed on stderr (and written as JSON lines to
// $AKGEN_SIM_EVENTS when set), the configuration is the toolkit's spec of the SOC the kernel was built for, and no
// limits or seccomp filter are applied: it is the user's own process.
bool& direct_mode() {
    static bool on = false;
    return on;
}

std::string& default_spec() {
    static std::string path;
    return path;
}

bool& spec_loaded() {
    static bool done = false;
    return done;
}

void load_default_spec() {
    if (spec_loaded() || default_spec().empty()) return;
    spec_loaded() = true;
    std::string text;
    if (!read_file(default_spec(), text)) {
        std::fprintf(stderr, "akgen sim: cannot read the toolkit's run spec %s: the default 910B configuration is "
                     "used; run `akgen sim toolkit --print-path` again to rebuild the toolkit\n", default_spec().c_str());
        return;
    }
    parse_spec(text);
    const char* checks = std::getenv("AKGEN_SIM_CHECKS");
    if (checks != nullptr && std::strcmp(checks, "cpu-debug") == 0) cfg().checks = CheckMode::CPU_DEBUG;
}

bool& files_watched() {
    static bool on = false;
    return on;
}

// A file the host code could not open or stat: one finding per path.
void report_missing(const char* path, bool for_write, int err) {
    if (!files_watched() || path == nullptr) return;
    static std::vector<std::string> seen;
    for (const std::string& s : seen) {
        if (s == path) return;
    }
    seen.emplace_back(path);
    char cwd[1024] = "";
    if (::getcwd(cwd, sizeof cwd) == nullptr) cwd[0] = 0;
    std::string msg = std::string("the program could not ") + (for_write ? "create" : "read") + " the file '" + path +
                      "' (" + std::strerror(err) + "; working directory " + cwd + "): ";
    msg += for_write ? "create its folder first, or run the program with --workdir set to the folder its paths are "
                       "relative to"
                     : "generate its input first (an example's scripts/gen_data.py, run in the working directory), or "
                       "pass --workdir to the folder that has it";
    std::string line = "{\"kind\":\"finding\",\"code\":\"SIM-PROGRAM-FILE\",\"severity\":\"error\",\"message\":\"";
    json_escape(line, msg);
    line += "\",\"error_class\":\"host\",\"api\":\"";
    line += for_write ? "open" : "read";
    line += "\"}\n";
    emit(line);
    if (direct_mode()) std::fprintf(stderr, "akgen sim: warning: %s [SIM-PROGRAM-FILE]\n", msg.c_str());
}

}  // namespace

// ------------------------------------------------------------------------------------------------ file watch
// The host's own calls (and libstdc++'s) reach these first; they forward to the C library and report a missing file.
extern "C" {
int open(const char* path, int flags, ...) {
    mode_t mode = 0;
    if (flags & (O_CREAT | O_TMPFILE)) {
        va_list ap;
        va_start(ap, flags);
        mode = static_cast<mode_t>(va_arg(ap, int));
        va_end(ap);
    }
    int fd = static_cast<int>(syscall(SYS_openat, AT_FDCWD, path, flags, mode));
    if (fd < 0) {
        int err = errno;
        if (err == ENOENT) report_missing(path, (flags & O_CREAT) != 0, err);
        errno = err;
    }
    return fd;
}
int open64(const char* path, int flags, ...) {
    mode_t mode = 0;
    if (flags & (O_CREAT | O_TMPFILE)) {
        va_list ap;
        va_start(ap, flags);
        mode = static_cast<mode_t>(va_arg(ap, int));
        va_end(ap);
    }
    return open(path, flags, mode);
}
FILE* fopen(const char* path, const char* mode) {
    using fn = FILE* (*)(const char*, const char*);
    static fn real = reinterpret_cast<fn>(dlsym(RTLD_NEXT, "fopen"));
    FILE* f = real ? real(path, mode) : nullptr;
    if (f == nullptr && errno == ENOENT) {
        int err = errno;
        report_missing(path, mode && mode[0] != 'r', err);
        errno = err;
    }
    return f;
}
FILE* fopen64(const char* path, const char* mode) { return fopen(path, mode); }
int stat(const char* path, struct stat* st) {
    int r = static_cast<int>(syscall(SYS_newfstatat, AT_FDCWD, path, st, 0));
    if (r != 0 && errno == ENOENT) {
        int err = errno;
        report_missing(path, false, err);
        errno = err;
    }
    return r;
}
}

// ------------------------------------------------------------------------------------------------ setup
__attribute__((constructor(102))) void akgen_program_setup() {
    // the launcher's own constructor ran first without a spec (a program is started without arguments)
    g_setup_error.clear();
    const char* spec = std::getenv("AKGEN_SIM_SPEC");
    if (spec == nullptr || !*spec) {
        direct_mode() = true;
        print_findings() = true;
        events_fd() = -1;
        const char* events = std::getenv("AKGEN_SIM_EVENTS");
        if (events != nullptr && *events) {
            int fd = ::open(events, O_WRONLY | O_CREAT | O_APPEND, 0644);
            if (fd >= 0) events_fd() = fd;
        }
        g_spec.args.clear();
        install_handlers();
        set_limit(RLIMIT_CORE, 0);
        files_watched() = true;
        return;
    }
    {
        std::string text;
        if (!read_file(spec, text)) {
            std::fprintf(stderr, "akgen sim program: cannot read the run spec %s\n", spec);
            _exit(2);
        }
        parse_spec(text);
        if (!g_spec.events_path.empty()) {
            int fd = ::open(g_spec.events_path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0644);
            if (fd >= 0) events_fd() = fd;
        }
    }
    if (!g_setup_error.empty()) {
        std::fprintf(stderr, "akgen sim program: %s\n", g_setup_error.c_str());
        _exit(2);
    }
    g_spec.args.clear();
    install_handlers();
    if (g_spec.cpu_s > 0) set_limit(RLIMIT_CPU, static_cast<rlim_t>(g_spec.cpu_s));
    if (g_spec.as_bytes > 0) set_limit(RLIMIT_AS, static_cast<rlim_t>(g_spec.as_bytes));
    if (g_spec.fsize_bytes > 0) set_limit(RLIMIT_FSIZE, static_cast<rlim_t>(g_spec.fsize_bytes));
    set_limit(RLIMIT_CORE, 0);
    set_limit(RLIMIT_NPROC, 0);
    if (g_spec.unshare_net) g_net_isolated = try_unshare_net();
    if (g_spec.seccomp) g_seccomp_on = install_seccomp(/*host_files=*/true);  // sandbox.h: the launcher's list + files
    files_watched() = true;
}

// ------------------------------------------------------------------------------------------------ launches
extern "C" void akgen_sim_entry(void* const* args) {
    (void)args;
    if (!program_body()) return;
    try {
        program_body()();
    } catch (...) {
        ++akgen_sim::program_stream_errors();  // a failed check ended the block: the stream reports an exception
        throw;
    }
    if (akgen_sim::ctx().errors > 0) ++akgen_sim::program_stream_errors();
}
extern "C" void akgen_sim_fill_tiling(int arg, uint8_t* buf, uint64_t cap, const char* kv) {
    (void)arg;
    (void)buf;
    (void)cap;
    (void)kv;
}
extern "C" const int akgen_sim_mix = 0;

bool akgen_sim::program_default_spec(const char* path) {
    if (default_spec().empty() && path != nullptr) default_spec() = path;
    return true;
}

int32_t akgen_sim::program_core_type() {
    const BlockCtx& c = ctx();
    if (c.core_type != 0) return c.core_type;
    return task_type() == KERNEL_TYPE_AIC_ONLY ? 1 : 2;
}

extern "C" bool akgen_sim_yield_block() {
    Fiber* f = current_fiber();
    if (f == nullptr) return false;
    // Park as a flag waiter whose flag is already up: the scheduler resumes it in its next round, and a block parked
    // this way keeps a SyncAll from being released without it (the scheduler releases the barrier only after a
    // round in which no flag waiter could run).
    constexpr int kYieldFlag = 1 << 20;
    BlockCtx& c = f->ctx;
    FlagCount& fc = flag_counters()[{c.core_type, c.group, c.sub_idx, kYieldFlag}];
    fc.n += 1;
    f->state = Fiber::FLAGWAIT;
    f->wait_mode = 0;
    f->wait_flag = kYieldFlag;
    swapcontext(&f->uc, &scheduler_context());
    flag_counters()[{c.core_type, c.group, c.sub_idx, kYieldFlag}].n -= 1;
    ++c.epoch;  // racecheck: it waited for the others
    return true;
}

// ------------------------------------------------------------------------------------------------ main
// The program is started without arguments (so the launcher's own constructor never mistakes one for its spec); its
// arguments come in $AKGEN_SIM_ARGS, separated by \x1f, and its main() (renamed akgen_user_main by the rewrite) is
// called through akgen_program_entry, which the rewritten program defines.
int akgen_program_entry(int argc, char** argv);

int main(int argc, char** argv) {
    static std::vector<std::string> words;
    static std::vector<char*> av;
    words.emplace_back(argc > 0 ? argv[0] : "program");
    const char* packed = std::getenv("AKGEN_SIM_ARGS");
    if (packed != nullptr && *packed) {
        std::string all(packed);
        size_t a = 0;
        while (true) {
            size_t b = all.find('\x1f', a);
            words.push_back(all.substr(a, b == std::string::npos ? std::string::npos : b - a));
            if (b == std::string::npos) break;
            a = b + 1;
        }
    }
    for (std::string& w : words) av.push_back(w.data());
    av.push_back(nullptr);
    return akgen_program_entry(static_cast<int>(words.size()), av.data());
}

void akgen_sim::program_launch_blocks(int64_t block_dim, const std::function<void()>& body, const loc_t& loc,
                                      int mix) {
    int64_t n = ++launch_count();
    std::string line = "{\"kind\":\"launch\",\"launch\":" + std::to_string(n) + ",\"blocks\":" +
                       std::to_string(block_dim) + ",\"mix\":" + std::to_string(mix) + ",\"file\":\"";
    json_escape(line, loc.file_name());
    line += "\",\"line\":" + std::to_string(loc.line()) + "}\n";
    emit(line);
    if (block_dim <= 0 || block_dim > 65535) {
        akgen_sim::acl::host_finding("SIM-LAUNCH", "error",
                                     "the kernel launch asks for " + std::to_string(block_dim) +
                                         " blocks: blockDim must be 1 to 65535 (the launch fails and nothing runs)",
                                     loc, "launch");
        ++akgen_sim::program_stream_errors();
        return;
    }
    if (direct_mode()) load_default_spec();
    g_setup_error.clear();
    g_spec.args.clear();
    g_spec.block_dim = block_dim;
    g_spec.mix = mix > 0 ? mix : 0;
    program_body() = body;
    // the launcher's block loop: fibers, end-of-block checks, overlapping GM writes, a "done" event
    akgen_sim_launcher_main();
    program_body() = nullptr;
    akgen_sim::acl::check_guards(loc);
    if (direct_mode()) {
        const Config& k = cfg();
        std::fprintf(stderr, "akgen sim: launch %lld at %s:%u: %lld block%s%s, %d failed; %.2f us on %s (estimate, the "
                     "busiest core)\n", static_cast<long long>(n), loc.file_name(), static_cast<unsigned>(loc.line()),
                     static_cast<long long>(block_dim), block_dim == 1 ? "" : "s",
                     mix > 0 ? (mix == 2 ? " (MIX: 1 AIC + 2 AIV each)" : " (MIX: 1 AIC + 1 AIV each)") : "",
                     g_launch_failed, g_launch_cycles / (k.clock_ghz * 1e3), k.arch);
    }
}
