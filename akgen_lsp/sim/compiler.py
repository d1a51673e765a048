"""The C++ compiler of the sim toolchain: where our headers and launcher live, the base flags, finding and
identifying g++, and running it (a scrubbed environment, its own session, a time limit)."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
from pathlib import Path

SIM_DIR = Path(__file__).resolve().parent
INCLUDE_DIR = SIM_DIR / "include"
LAUNCHER_SRC = SIM_DIR / "launcher" / "launcher.cpp"
BASE_FLAGS = ("-std=c++20", "-Og", "-ftree-vectorize", "-fdiagnostics-color=never", "-fno-diagnostics-show-caret", "-fmax-errors=30",
              "-fdiagnostics-parseable-fixits",
              "-DASCENDC_CPU_DEBUG", "-D__NPU_ARCH__=2201")
# Not __CCE_KT_TEST__: CANN defines it only for its CPU-debug (tikicpulib) builds, and kernels gate NPU-only code on it
# (GroupNormSwish's DataCopyPad/Cast sit in `#ifndef __CCE_KT_TEST__`); the sim runs the NPU's code path. The host
# launch wrappers some kernels keep under the same guard (`k<<<blockDim, l2ctrl, stream>>>(...)`) are made plain
# calls in the shadow copy (`blank_host_launches`): dead host code for the sim, as it is for the kernel.
HEADER_SUFFIXES = (".h", ".hpp", ".inc", ".hh")


class ToolchainError(RuntimeError):
    """The toolchain itself cannot work (no compiler, unwritable cache); the message says what to do."""



def find_cxx() -> str:
    cxx = os.environ.get("AKGEN_CXX") or shutil.which("g++")
    if not cxx:
        raise ToolchainError("g++ not found: install GCC 11 or newer (Debian/Ubuntu: `apt-get install g++`), or set "
                             "AKGEN_CXX to a C++20 compiler")
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
        out = subprocess.run([cxx, "-print-file-name=include"], capture_output=True, text=True, timeout=30).stdout
        if out.strip():
            dirs.append(Path(out.strip()))
    except (OSError, subprocess.SubprocessError, ToolchainError):
        pass
    return any((d / name).is_file() for d in dirs)



def run_compiler(cmd: list[str], timeout: float, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout, cwd=cwd,
                              env=compiler_env(), start_new_session=True)
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(cmd, 124, "", f"error: the compiler took more than {timeout:.0f} s")
    except OSError as exc:
        raise ToolchainError(f"cannot run {cmd[0]}: {exc}") from None


def compiler_env() -> dict[str, str]:
    keep = ("PATH", "HOME", "LANG", "TMPDIR")
    env = {k: os.environ[k] for k in keep if k in os.environ}
    env["LC_ALL"] = "C"
    return env

