"""The C++ compiler of the sim toolchain: where our headers and launcher live, the base flags, finding and
identifying g++, and running it on untrusted source in the sandbox's compiler box (akgen_lsp/sandbox): it reads only
the system's toolchain, our headers, the folders the build names and writes only its output folder, with a memory,
CPU-time and wall-clock limit and the whole process tree (cc1plus, as, ld) killed at the limit."""

from __future__ import annotations

import functools
import os
import shutil
import signal
import subprocess
from collections.abc import Sequence
from pathlib import Path

from akgen_lsp.sandbox import GiB, Limits, Policy, SandboxUnavailable, run_confined

SIM_DIR = Path(__file__).resolve().parent
INCLUDE_DIR = SIM_DIR / "include"
LAUNCHER_SRC = SIM_DIR / "launcher" / "launcher.cpp"


def _host_flags() -> tuple[str, ...]:
    """-mf16c where this x86-64 CPU has the F16C conversions: half <-> float in one instruction (types.h), the same
    bits as the simulator's own code. Builds are cached per machine and these flags are part of every build key."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            flags = next((ln.split(":", 1)[1].split() for ln in f if ln.startswith("flags")), [])
    except OSError:
        return ()
    return ("-mf16c",) if "f16c" in flags and "avx" in flags else ()


HOST_FLAGS = _host_flags()
# The optimisation of every simulator build (kernels, programs, the toolkit's CMake builds): the kernel's C++ is the
# simulator's inner loop (an -O0 Matmul runs 2.4x slower), and -Og keeps it debuggable.
OPT_FLAGS = ("-Og", "-ftree-vectorize", *HOST_FLAGS)
BASE_FLAGS = (
    "-std=c++20",
    *OPT_FLAGS,
    "-fdiagnostics-color=never",
    "-fno-diagnostics-show-caret",
    "-fmax-errors=30",
    "-fdiagnostics-parseable-fixits",
    "-DASCENDC_CPU_DEBUG",
    "-D__NPU_ARCH__=2201",
)
# Not __CCE_KT_TEST__: CANN defines it only for its CPU-debug (tikicpulib) builds, and kernels gate NPU-only code on it
# (GroupNormSwish's DataCopyPad/Cast sit in `#ifndef __CCE_KT_TEST__`); the sim runs the NPU's code path. The host
# launch wrappers some kernels keep under the same guard (`k<<<blockDim, l2ctrl, stream>>>(...)`) are made plain
# calls in the shadow copy (`blank_host_launches`): dead host code for the sim, as it is for the kernel.
HEADER_SUFFIXES = (".h", ".hpp", ".inc", ".hh")


class ToolchainError(RuntimeError):
    """The toolchain itself cannot work (no compiler, unwritable cache, no sandbox); the message says what to do."""


def find_cxx() -> str:
    cxx = os.environ.get("AKGEN_CXX") or shutil.which("g++")
    if not cxx:
        raise ToolchainError(
            "g++ not found: install GCC 11 or newer (Debian/Ubuntu: `apt-get install g++`), or set "
            "AKGEN_CXX to a C++20 compiler"
        )
    return cxx


@functools.lru_cache(maxsize=4)
def compiler_id(cxx: str) -> str:
    try:
        out = subprocess.run([cxx, "--version"], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError) as exc:
        raise ToolchainError(f"cannot run the compiler {cxx}: {exc}") from None
    return out.splitlines()[0] if out else cxx


@functools.lru_cache(maxsize=256)
def is_system_header(name: str) -> bool:
    """Whether `name` is a header of the C/C++ system include folders (the compiler's own, /usr/include)."""
    if name.startswith((".", "/")) or ".." in name:
        return False
    dirs = [Path("/usr/include"), Path("/usr/local/include")]
    try:
        cxx = find_cxx()
        out = subprocess.run(
            [cxx, "-print-file-name=include"], capture_output=True, text=True, timeout=30
        ).stdout
        if out.strip():
            dirs.append(Path(out.strip()))
    except (OSError, subprocess.SubprocessError, ToolchainError):
        pass
    return any((d / name).is_file() for d in dirs)


COMPILE_MEMORY_BYTES = (
    4 * GiB
)  # address space of each compiler process (cc1plus on our biggest kernels: ~1.5 GiB)


def run_compiler(
    cmd: list[str], timeout: float, out_dir: Path, read: Sequence[Path] = ()
) -> subprocess.CompletedProcess[str]:
    """Run the compiler command `cmd` in the compiler box, in `out_dir` (its only writable folder), reading our sim
    folder and `read` besides the system. Returns what it printed as stderr; exit status 124 past `timeout`."""
    policy = Policy(
        "compiler",
        Limits(wall_s=timeout, cpu_s=timeout, as_bytes=COMPILE_MEMORY_BYTES, fsize_bytes=2 * GiB),
        read_only=[SIM_DIR, *read],
        writable=[out_dir],
        cwd=out_dir,
        env=compiler_env(),
        tmp_bytes=1 * GiB,
    )
    try:
        res = run_confined(cmd, policy, extra_system=toolchain_roots(cmd[0]))
    except SandboxUnavailable as exc:
        raise ToolchainError(str(exc)) from None
    except (OSError, RuntimeError) as exc:
        raise ToolchainError(f"cannot run {cmd[0]}: {exc}") from None
    if res.timed_out:
        return subprocess.CompletedProcess(
            cmd,
            124,
            "",
            res.output + f"\nerror: the compiler took more than "
            f"{timeout:.0f} s and was stopped (with every process it started)",
        )
    out_of_limits = (
        "virtual memory exhausted",
        "out of memory",
        "signal terminated program",
        "CPU time limit",
    )
    if res.signal in (signal.SIGKILL, signal.SIGXCPU) or any(s in res.output for s in out_of_limits):
        res.output += (
            "\nerror: the compiler ran out of its limits (memory "
            f"{COMPILE_MEMORY_BYTES >> 30} GiB, CPU {timeout:.0f} s): a template or include bomb?"
        )
    return subprocess.CompletedProcess(cmd, res.returncode, "", res.output)


@functools.lru_cache(maxsize=8)
def toolchain_roots(exe: str) -> tuple[Path, ...]:
    """The installation folder of a compiler outside /usr (a GCC under /opt), which its box must see."""
    found = shutil.which(exe) or exe
    real = Path(found).resolve()
    if real.parts[1:2] in (("usr",), ("bin",), ("sbin",)) or len(real.parents) < 3:
        return ()
    return (real.parents[1],)


def compiler_env() -> dict[str, str]:
    """The compiler's whole environment (nothing of the caller's: no HOME, no TMPDIR outside the box)."""
    return {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C", "LC_ALL": "C", "TMPDIR": "/tmp"}
