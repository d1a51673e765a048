// akgen sim: the sandbox pieces shared by the kernel launcher and the host (TilingFunc) runner: seccomp allow-list,
// network unshare, rlimits. Included inside an anonymous namespace of each runner.
//
// Defence in depth only: the boundary is the box the Python side starts the process in (akgen_lsp/sandbox: namespaces,
// a read-only view, its own seccomp filter and rlimits, all in force before the first instruction). These calls go
// straight to the kernel (`raw_syscall`: inline `syscall`, internal linkage), so a kernel that defines its own
// `prctl`, `syscall`, `setrlimit` or `unshare` cannot replace them, and what they report is never what the result
// says about the sandbox (the Python side says that).
#pragma once

#if defined(__x86_64__)
inline long raw_syscall(long n, long a = 0, long b = 0, long c = 0, long d = 0, long e = 0, long f = 0) {
    long ret;
    register long r10 __asm__("r10") = d;
    register long r8 __asm__("r8") = e;
    register long r9 __asm__("r9") = f;
    __asm__ volatile("syscall"
                     : "=a"(ret)
                     : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
                     : "rcx", "r11", "memory");
    return ret;
}
#else
inline long raw_syscall(long n, long a = 0, long b = 0, long c = 0, long d = 0, long e = 0, long f = 0) {
    return syscall(n, a, b, c, d, e, f);
}
#endif

#ifdef AKGEN_HAVE_SECCOMP
bool install_seccomp_list(const int* allowed, int n);

// The one allow-list: what a kernel run needs (the launcher, the host runner), and what a program's host code needs
// besides to use the file system (its ReadFile / WriteFile: program_main.cpp). fork, exec and sockets are in neither.
#define AKGEN_SECCOMP_RUN_CALLS                                                                                       \
    SYS_read, SYS_write, SYS_close, SYS_fstat, SYS_lseek, SYS_mmap, SYS_mprotect, SYS_munmap, SYS_brk,                \
        SYS_rt_sigaction, SYS_rt_sigprocmask, SYS_rt_sigreturn, SYS_pread64, SYS_pwrite64, SYS_readv, SYS_writev,     \
        SYS_sched_yield, SYS_mremap, SYS_madvise, SYS_getpid, SYS_exit, SYS_gettimeofday, SYS_getrlimit,              \
        SYS_sigaltstack, SYS_gettid, SYS_time, SYS_futex, SYS_clock_gettime, SYS_clock_getres, SYS_clock_nanosleep,   \
        SYS_nanosleep, SYS_exit_group, SYS_tgkill, SYS_newfstatat, SYS_getrandom, SYS_prlimit64, SYS_rseq,            \
        SYS_set_robust_list, SYS_getuid, SYS_geteuid, SYS_getgid, SYS_getegid, SYS_fsync, SYS_fdatasync
#define AKGEN_SECCOMP_FILE_CALLS                                                                                      \
    SYS_open, SYS_openat, SYS_stat, SYS_lstat, SYS_access, SYS_faccessat, SYS_fcntl, SYS_getcwd, SYS_mkdir,           \
        SYS_mkdirat, SYS_dup, SYS_dup2, SYS_dup3, SYS_ioctl, SYS_statx, SYS_readlink, SYS_readlinkat,                 \
        SYS_getdents64, SYS_ftruncate, SYS_fadvise64, SYS_chdir

// The filter of a kernel run; with `host_files`, of a program whose host code uses the file system.
bool install_seccomp(bool host_files = false) {
    static const int run[] = {AKGEN_SECCOMP_RUN_CALLS};
    static const int program[] = {AKGEN_SECCOMP_RUN_CALLS, AKGEN_SECCOMP_FILE_CALLS};
    return host_files ? install_seccomp_list(program, sizeof(program) / sizeof(program[0]))
                      : install_seccomp_list(run, sizeof(run) / sizeof(run[0]));
}

// A seccomp filter that allows exactly the `n` system calls in `allowed` (x86-64 only; anything else traps).
bool install_seccomp_list(const int* allowed, int n) {
    std::vector<sock_filter> f;
    f.push_back(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, arch)));
    f.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 1, 0));
    f.push_back(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_KILL_PROCESS));
    f.push_back(BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(seccomp_data, nr)));
    f.push_back(BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 1));  // x32 ABI: refuse
    f.push_back(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP));
    for (int i = 0; i < n; ++i) {
        f.push_back(BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, static_cast<uint32_t>(allowed[i]), 0, 1));
        f.push_back(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW));
    }
    f.push_back(BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_TRAP));
    sock_fprog prog{static_cast<unsigned short>(f.size()), f.data()};
    if (raw_syscall(SYS_prctl, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) return false;
    return raw_syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, reinterpret_cast<long>(&prog)) == 0;
}
#else
bool install_seccomp(bool = false) { return false; }
bool install_seccomp_list(const int*, int) { return false; }
#endif

bool try_unshare_net() {
#ifdef CLONE_NEWNET
    if (raw_syscall(SYS_unshare, CLONE_NEWNET) == 0) return true;
#ifdef CLONE_NEWUSER
    if (raw_syscall(SYS_unshare, CLONE_NEWUSER | CLONE_NEWNET) == 0) return true;
#endif
#endif
    return false;
}

void set_limit(int res, rlim_t v) {
    rlimit r{v, v};
    if (res == RLIMIT_CPU) r.rlim_max = v + 2;  // soft limit sends SIGXCPU first: reported with the last API call
    raw_syscall(SYS_prlimit64, 0, res, reinterpret_cast<long>(&r), 0);
}
