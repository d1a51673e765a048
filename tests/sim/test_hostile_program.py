"""The hostile suite, run-program: a program's host code runs in the program box (its working directory writable,
its own folder readable, nothing else of the machine; no processes, no sockets, no terminal, no parent)."""

from __future__ import annotations

import os
import resource
from pathlib import Path

from akgen_lsp.sim.program import ProgramResult, run_program

from .conftest import needs_gxx
from .hostile import Layout, hostile

pytestmark = [needs_gxx, hostile]

HEAD = """#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "acl/acl.h"

int main()
{
"""


def program(layout: Layout, body: str, **kw: object) -> ProgramResult:
    folder = layout.kernel
    work = folder / "work"
    work.mkdir(exist_ok=True)
    src = folder / "p.asc"
    src.write_text(HEAD + body.replace("SECRET", str(layout.secret)).replace("ESCAPE", str(layout.escape))
                   + "\n    return 0;\n}\n", encoding="utf-8")
    return run_program(src, work, **kw)  # type: ignore[arg-type]


def leaked(layout: Layout, res: ProgramResult) -> bool:
    import json

    return layout.token in json.dumps(res.to_json(), default=str)


def test_host_code_cannot_read_outside_its_folders(layout: Layout) -> None:
    res = program(layout, """
    FILE* f = std::fopen("SECRET", "r");
    char buf[128] = {0};
    if (f) { std::fgets(buf, sizeof buf, f); std::printf("stolen %s", buf); }""")
    assert not leaked(layout, res)
    assert "SIM-PROGRAM-FILE" in {f.code for f in res.findings}  # the file is not there, and the user is told


def test_host_code_cannot_write_outside_its_working_directory(layout: Layout) -> None:
    res = program(layout, """
    FILE* f = std::fopen("ESCAPE", "w");
    if (f) { std::fputs("escaped", f); std::fclose(f); }
    FILE* g = std::fopen("inside.txt", "w");
    if (g) { std::fputs("fine", g); std::fclose(g); }""")
    assert not layout.escape.exists()
    assert (layout.kernel / "work" / "inside.txt").read_text() == "fine" and res.exit_code == 0


def test_host_code_cannot_inject_into_the_terminal(layout: Layout) -> None:
    res = program(layout, """
    const char* cmd = "touch ESCAPE\\n";
    for (const char* c = cmd; *c; ++c) ioctl(1, TIOCSTI, c);""")
    assert not layout.escape.exists()
    assert res.status == "runtime_error" and "SIM-SANDBOX" in {f.code for f in res.findings}


def test_host_code_cannot_start_a_shell(layout: Layout) -> None:
    res = program(layout, """
    int rc = std::system("touch ESCAPE");
    std::printf("system=%d\\n", rc);""")
    assert not layout.escape.exists()
    text = " ".join(f.message for f in res.findings)
    assert res.status == "runtime_error" and ("may not start processes" in text or "the sandbox forbids" in text)


def test_host_code_cannot_read_the_parents_environment(layout: Layout) -> None:
    res = program(layout, f"""
    char path[64];
    std::snprintf(path, sizeof path, "/proc/%d/environ", {os.getpid()});
    for (const char* p : {{(const char*)path, "/proc/1/environ"}}) {{
        char buf[8192] = {{0}};
        int fd = open(p, O_RDONLY);
        ssize_t n = fd >= 0 ? read(fd, buf, sizeof buf - 1) : -1;
        for (ssize_t i = 0; i < n; ++i) if (buf[i] == 0) buf[i] = ' ';
        std::printf("%s=%s\\n", p, buf);
    }}""")
    assert not leaked(layout, res) and "AKGEN_HOSTILE_SECRET" not in res.stdout


def test_host_code_cannot_stop_or_cripple_its_parent(layout: Layout) -> None:
    before = resource.getrlimit(resource.RLIMIT_NOFILE)
    program(layout, """
    kill(getppid(), SIGSTOP);
    struct rlimit one = {1, 1};
    prlimit(getppid(), RLIMIT_NOFILE, &one, nullptr);""")
    assert resource.getrlimit(resource.RLIMIT_NOFILE) == before
    assert Path(f"/proc/{os.getpid()}/stat").read_text().split()[2] != "T"


def test_host_code_printing_gigabytes_is_capped(layout: Layout) -> None:
    res = program(layout, """
    static char line[1 << 16];
    std::memset(line, 'B', sizeof line);
    for (int i = 0; i < 4096; ++i) std::fwrite(line, 1, sizeof line, stdout);""", timeout_s=60)
    assert len(res.stdout) < 3 << 20 and "bytes of output dropped" in res.stdout


def test_host_code_filling_the_disk_is_stopped(layout: Layout, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """32 files of 16 MiB, each below the per-file limit, 512 MiB in all, against a run bound of 32 MiB: the box is killed near the
    bound (docs/security.md, "Resources"), the user is told why, and the working directory keeps only what was
    written by then."""
    import akgen_lsp.sim.program as program_mod

    monkeypatch.setattr(program_mod, "DISK_BYTES", 32 << 20)
    res = program(layout, """
    static char block[1 << 20];
    std::memset(block, 'D', sizeof block);
    for (int f = 0; f < 32; ++f) {
        char name[32];
        std::snprintf(name, sizeof name, "fill%d.bin", f);
        FILE* out = std::fopen(name, "w");
        for (int i = 0; out && i < 16; ++i) { std::fwrite(block, 1, sizeof block, out); std::fflush(out); }
        if (out) std::fclose(out);
    }""", timeout_s=120)
    written = sum(p.stat().st_size for p in (layout.kernel / "work").glob("fill*.bin"))
    print(f"written before the stop: {written >> 20} MiB")
    assert written < 128 << 20, f"{written >> 20} MiB reached the disk"
    assert res.status == "runtime_error" and "SIM-DISK" in {f.code for f in res.findings}, res.findings
    assert any("to the disk in all" in f.message for f in res.findings)
