"""The hostile suite, run time: kernels whose own code attacks the sandbox before `main` (constructors of the
launcher's own priority, 101, which run before its setup and so face only the box; .preinit_array entries; ifunc
resolvers; interposed libc functions) or from the kernel, aiming at files, the parent process, the terminal, the
result channel and the build cache. Each case asserts containment, then what the user sees."""

from __future__ import annotations

import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.sim.build_cache import DIGESTS, cache_dir

from .conftest import needs_gxx
from .hostile import Layout, box_processes, codes, hostile, message_of

pytestmark = [needs_gxx, hostile]


def test_constructor_reading_a_secret_gets_nothing(layout: Layout) -> None:
    res = layout.run(before="""
__attribute__((constructor(101))) static void steal() {
    char buf[256] = {0};
    int fd = open("SECRET", O_RDONLY);
    if (fd >= 0 && read(fd, buf, sizeof buf - 1) > 0) printf("stolen: %s\\n", buf);
    printf("open=%d errno=%d\\n", fd, errno);
}""")
    assert not layout.leaked(res)
    assert res.status == "ok" and "open=-1 errno=2" in res.stdout  # the file is not in the box at all
    assert res.sandbox["confinement"] == "bubblewrap" and res.sandbox["seccomp"] is True


def test_preinit_array_cannot_write_outside(layout: Layout) -> None:
    res = layout.run(before="""
static void early(int, char**, char**) {
    int fd = open("ESCAPE", O_WRONLY | O_CREAT, 0644);
    if (fd >= 0) { write(fd, "escaped", 7); close(fd); }
}
__attribute__((section(".preinit_array"), used)) static void (*early_ptr)(int, char**, char**) = early;""")
    assert not layout.escape.exists()
    assert res.status == "ok" and np.array_equal(np.load(res.outputs["y"]), np.arange(8, dtype=np.float32))


def test_ifunc_resolver_cannot_run_a_shell(layout: Layout) -> None:
    res = layout.run(before="""
extern "C" int impl() { return 0; }
extern "C" void* resolve_impl() {
    execl("/bin/sh", "sh", "-c", "echo escaped > ESCAPE", (char*)nullptr);
    return (void*)impl;
}
extern "C" int hooked() __attribute__((ifunc("resolve_impl")));
__attribute__((constructor)) static void use() { hooked(); }""")
    assert not layout.escape.exists()
    assert res.status == "ok"  # no /bin/sh in a kernel's box: the exec fails and the kernel goes on


def test_interposed_prctl_syscall_setrlimit_unshare_do_not_disarm_the_sandbox(layout: Layout) -> None:
    res = layout.run(before="""
extern "C" int prctl(int, ...) noexcept { return 0; }
extern "C" long syscall(long, ...) noexcept { return 0; }
extern "C" int setrlimit(__rlimit_resource_t, const struct rlimit*) noexcept { return 0; }
extern "C" int unshare(int) noexcept { return 0; }""", body="""
    int fd = open("SECRET", O_RDONLY);
    int out = open("ESCAPE", O_WRONLY | O_CREAT, 0644);
    (void)fd; (void)out;""")
    assert not layout.escape.exists() and not layout.leaked(res)
    assert res.status == "runtime_error"
    assert "forbidden system call (openat)" in message_of(res, "SIM-SANDBOX")  # the launcher's filter is in force
    assert res.sandbox["seccomp"] is True and res.sandbox["confinement"] == "bubblewrap"


def test_stopping_the_parent_does_not_reach_it(layout: Layout) -> None:
    res = layout.run(before="""
__attribute__((constructor(101))) static void stop_parent() {
    kill(getppid(), SIGSTOP);
    kill(-1, SIGSTOP);
    printf("ppid=%d\\n", (int)getppid());
}""")
    assert res.status == "ok" and "ppid=1" in res.stdout  # its parent is the box's own init
    state = Path(f"/proc/{os.getpid()}/stat").read_text().split()[2]
    assert state != "T"


def test_lowering_the_parents_limits_is_refused(layout: Layout) -> None:
    before = resource.getrlimit(resource.RLIMIT_NOFILE)
    res = layout.run(before="""
__attribute__((constructor(101))) static void cripple() {
    struct rlimit one = {1, 1};
    prlimit(getppid(), RLIMIT_NOFILE, &one, nullptr);
}""")
    assert resource.getrlimit(resource.RLIMIT_NOFILE) == before
    assert res.status == "runtime_error" and "before the simulator had started" in message_of(res, "SIM-SANDBOX")


def test_stdin_is_empty(layout: Layout) -> None:
    res = layout.run(before="""
__attribute__((constructor(101))) static void slurp() {
    char buf[16];
    printf("stdin=%zd\\n", read(0, buf, sizeof buf));
}""")
    assert res.status == "ok" and "stdin=0" in res.stdout


def test_terminal_injection_is_stopped(layout: Layout) -> None:
    res = layout.run(before="""
__attribute__((constructor(101))) static void inject() {
    const char* cmd = "touch ESCAPE\\n";
    for (int fd = 0; fd < 3; ++fd) for (const char* c = cmd; *c; ++c) ioctl(fd, TIOCSTI, c);
    int tty = open("/dev/tty", O_RDWR);
    if (tty >= 0) for (const char* c = cmd; *c; ++c) ioctl(tty, TIOCSTI, c);
}""")
    assert not layout.escape.exists()
    assert res.status == "runtime_error" and "SIM-SANDBOX" in codes(res)


def test_forged_finding_outside_the_sources_is_dropped(layout: Layout) -> None:
    res = layout.run(body="""
    const char* fake = "{\\"kind\\":\\"finding\\",\\"code\\":\\"SIM-UB-OOB\\",\\"severity\\":\\"error\\","
                       "\\"message\\":\\"forged\\",\\"file\\":\\"/etc/hosts\\",\\"line\\":7,\\"column\\":1}\\n";
    for (int fd = 3; fd < 64; ++fd) write(fd, fake, strlen(fake));""")
    assert not any(f.span.path == "/etc/hosts" or f.message == "forged" for f in res.findings)
    assert res.status == "runtime_error"
    assert "/etc/hosts" in message_of(res, "SIM-UNTRUSTED-EVENTS")


def test_forged_finding_with_an_unknown_code_is_dropped(layout: Layout) -> None:
    res = layout.run(body="""
    const char* fake = "{\\"kind\\":\\"finding\\",\\"code\\":\\"AKGEN-ESTIMATE\\",\\"severity\\":\\"info\\","
                       "\\"message\\":\\"1/1 cases pass\\",\\"line\\":1}\\n";
    for (int fd = 3; fd < 64; ++fd) write(fd, fake, strlen(fake));""")
    assert "AKGEN-ESTIMATE" not in codes(res)
    assert "unknown code 'AKGEN-ESTIMATE'" in message_of(res, "SIM-UNTRUSTED-EVENTS")


def test_exiting_early_with_a_forged_end_is_not_ok(layout: Layout) -> None:
    res = layout.run(body="""
    const char* done = "{\\"kind\\":\\"done\\",\\"blocks\\":1,\\"failed\\":0,\\"kernel_us\\":1}\\n";
    for (int fd = 3; fd < 64; ++fd) write(fd, done, strlen(done));
    _exit(0);""")
    assert res.status != "ok" and "y" not in res.outputs


def test_gigantic_stdout_is_capped(layout: Layout) -> None:
    res = layout.run(body="""
    static char line[1 << 16];
    memset(line, 'A', sizeof line);
    for (int i = 0; i < 4096; ++i) fwrite(line, 1, sizeof line, stdout);  // 256 MiB""", timeout_s=60)
    assert len(res.stdout) < 3 << 20
    assert "bytes of output dropped" in res.stdout
    assert res.status == "ok"


def test_constructor_sleeping_forever_is_stopped_and_leaves_nothing(layout: Layout,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    runs = layout.root / "runs"  # this test's run folders, which every process of its box names
    runs.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(runs))
    res = layout.run(before="""
__attribute__((constructor(101))) static void nap() { sleep(1000); }""", timeout_s=3)
    assert res.build["run_wall_s"] < 15  # 3 s, then SIGTERM, a second of grace, SIGKILL
    assert res.status == "timeout" and "wall clock" in message_of(res, "SIM-TIMEOUT")
    assert box_processes(str(runs)) == []


def test_sockets_are_refused_in_the_kernel(layout: Layout) -> None:
    res = layout.run(body="""
    int s = socket(AF_INET, SOCK_STREAM, 0);
    (void)s;""")
    assert res.status == "runtime_error" and "socket" in message_of(res, "SIM-SANDBOX")


def test_the_parents_environment_does_not_reach_the_box(layout: Layout) -> None:
    res = layout.run(before="""
__attribute__((constructor(101))) static void environ_of_parents() {
    for (const char* p : {"/proc/1/environ", "/proc/self/environ"}) {
        char buf[4096] = {0};
        int fd = open(p, O_RDONLY);
        ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf - 1) : -1;
        for (ssize_t i = 0; i < n; ++i) if (buf[i] == 0) buf[i] = ' ';
        printf("%s: %s\\n", p, buf);
    }
}""")
    assert not layout.leaked(res) and "AKGEN_HOSTILE_SECRET" not in res.stdout
    assert res.status == "ok"


def test_new_namespaces_are_refused(layout: Layout) -> None:
    res = layout.run(before="""
__attribute__((constructor(101))) static void regain() {
    printf("unshare=%ld\\n", (long)::syscall(SYS_unshare, 0x10000000 /* CLONE_NEWUSER */));
}""")
    assert res.status == "ok" and "unshare=-1" in res.stdout


def test_io_uring_which_would_bypass_the_filter_is_stopped(layout: Layout) -> None:
    res = layout.run(before="""
__attribute__((constructor(101))) static void ring() {
    char params[120] = {0};
    ::syscall(SYS_io_uring_setup, 8, params);
}""")
    assert res.status == "runtime_error" and "SIM-SANDBOX" in codes(res)


def test_ptrace_of_the_parent_is_stopped(layout: Layout) -> None:
    res = layout.run(before="""
__attribute__((constructor(101))) static void attach() { ::syscall(SYS_ptrace, 16 /* PTRACE_ATTACH */, getppid(), 0, 0); }""")
    assert res.status == "runtime_error" and "SIM-SANDBOX" in codes(res)


def test_the_build_cache_is_read_only_in_the_box(layout: Layout) -> None:
    res = layout.run(before="""
__attribute__((constructor(101))) static void poison() {
    char exe[4096] = {0};
    if (readlink("/proc/self/exe", exe, sizeof exe - 1) <= 0) return;
    int fd = open(exe, O_WRONLY | O_TRUNC);
    char* slash = strrchr(exe, '/');
    strcpy(slash + 1, "build.json");
    int meta = open(exe, O_WRONLY | O_TRUNC);
    printf("exe=%d meta=%d errno=%d\\n", fd, meta, errno);
}""")
    assert res.status == "ok" and "exe=-1 meta=-1" in res.stdout
    entry = cache_dir() / "builds" / res.build["key"]
    assert json.loads((entry / "build.json").read_text())["ok"] is True and (entry / DIGESTS).is_file()


def test_a_cache_entry_changed_behind_the_caches_back_is_rebuilt(layout: Layout) -> None:
    first = layout.run(body="(void)0;")
    entry = cache_dir() / "builds" / first.build["key"]
    with (entry / "kernel").open("ab") as fh:  # what a program that escaped an older sandbox did
        fh.write(b"\x00attacker")
    second = layout.run(body="(void)0;")
    assert second.build["cached"] is False and second.status == "ok"
    assert b"attacker" not in (entry / "kernel").read_bytes()


def test_planted_symlink_outputs_are_not_followed(layout: Layout) -> None:
    victim = layout.root / "victim.txt"
    victim.write_text("keep me", encoding="utf-8")
    res = layout.run(before=f"""
__attribute__((constructor(101))) static void plant() {{
    symlink("{victim}", "y.out.bin");
    symlink("{layout.secret}", "x.in.bin.link");
}}""")
    assert victim.read_text(encoding="utf-8") == "keep me" and not layout.leaked(res)
    assert "y" not in res.outputs or np.load(res.outputs["y"]).shape == (8,)


def test_huge_memory_in_a_constructor_is_refused(layout: Layout) -> None:
    res = layout.run(before="""
__attribute__((constructor(101))) static void grab() {
    char* p = static_cast<char*>(malloc(64ull << 30));
    printf("malloc=%s\\n", p ? "yes" : "no");
}""", memory_mb=1024)
    assert res.status == "ok" and "malloc=no" in res.stdout


def test_killing_the_process_that_called_the_sim_kills_the_kernel(layout: Layout) -> None:
    """The check worker, a check subprocess or `akgen sim run` killed while its kernel spins: nothing stays."""
    runs = layout.root / "runs"
    runs.mkdir()
    manifest = layout.manifest(layout.source(body="volatile unsigned long n = 0; while (true) { n = n + 1; }"),
                               timeout_s=300, cpu_s=300)
    caller = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        import tempfile
        tempfile.tempdir = {str(runs)!r}
        from akgen_lsp.sim import run_manifest
        run_manifest({str(manifest)!r})
    """)], env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[2])})
    deadline = time.time() + 240
    while not any(b"spec.txt" in Path(f"/proc/{p}/cmdline").read_bytes() for p in box_processes(str(runs))
                  if Path(f"/proc/{p}").exists()) and time.time() < deadline:
        time.sleep(0.2)
    assert box_processes(str(runs)), "the kernel never started"
    os.kill(caller.pid, signal.SIGKILL)
    caller.wait()
    deadline = time.time() + 15
    while box_processes(str(runs)) and time.time() < deadline:
        time.sleep(0.1)
    assert box_processes(str(runs)) == []


def test_an_input_read_in_place_is_read_only_and_alone_in_the_box(layout: Layout) -> None:
    # the launcher reads x.npy where it is (sim.runner.npy_data_offset): the box shows that one file, read-only, and
    # nothing else of the kernel's folder
    planted = layout.kernel / "beside.txt"
    planted.write_text(layout.token, encoding="utf-8")
    x_npy = layout.kernel / "x.npy"
    res = layout.run(before=f"""
__attribute__((constructor(101))) static void touch_inputs() {{
    int w = open("{layout.kernel / 'x.npy'}", O_WRONLY | O_TRUNC);
    printf("write=%d errno=%d\\n", w, errno);
    printf("readable=%d\\n", open("{layout.kernel / 'x.npy'}", O_RDONLY) >= 0);
    int r = open("{planted}", O_RDONLY);
    printf("beside=%d errno=%d\\n", r, errno);
}}""")
    assert not layout.leaked(res)
    assert res.status == "ok", [(f.code, f.message) for f in res.findings]
    assert "readable=1" in res.stdout and "write=-1 errno=30" in res.stdout  # EROFS: bound read-only
    assert "beside=-1 errno=2" in res.stdout
    assert np.array_equal(np.load(x_npy), np.arange(8, dtype=np.float32))  # the user's input is unchanged
    assert np.array_equal(np.load(res.outputs["y"]), np.arange(8, dtype=np.float32))
