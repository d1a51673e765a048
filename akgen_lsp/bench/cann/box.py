"""The box the cann toolchain's tools run in (msopgen, build.sh and the cmake / bisheng it starts, the .run
installer, the NPU runner's Python): akgen_lsp/sandbox's `tool` profile, since they compile and run the candidate.

What a box sees, read-only: the system's /usr, the CANN install (ASCEND_HOME_PATH), the driver and its /etc files
where they exist, every folder the environment's path variables name (PATH, LD_LIBRARY_PATH, PYTHONPATH,
ASCEND_*: what CANN's set_env.sh sets), the runner's Python (its venv and base prefix) and the runner script;
read-write: the candidate's project folder (its HOME too, for tool caches and CANN's logs) and the folders
`AKGEN_CANN_EXTRA_PATHS` names (colon-separated: an install spread over several roots, a shared log folder); the
NPU device files for the runner. No address-space limit (NPU runtimes reserve large virtual ranges); the stage's
time limit kills the whole tree.
"""

from __future__ import annotations

import contextlib
import glob
from collections.abc import Mapping, Sequence
from pathlib import Path

from akgen_lsp.bench.cann.project import Command
from akgen_lsp.bench.cann.runner import RUNNER_SCRIPT
from akgen_lsp.sandbox import GiB, Limits, Policy

PATH_VARS = (
    "PATH",
    "LD_LIBRARY_PATH",
    "PYTHONPATH",
    "ASCEND_HOME_PATH",
    "ASCEND_TOOLKIT_HOME",
    "ASCEND_OPP_PATH",
    "ASCEND_AICPU_PATH",
    "ASCEND_CUSTOM_OPP_PATH",
    "TOOLCHAIN_HOME",
    "ASCEND_DRIVER_PATH",
)
EXTRA_VAR = "AKGEN_CANN_EXTRA_PATHS"
SYSTEM = (
    "/usr/local/Ascend",
    "/etc/ascend_install.info",
    "/etc/ascend_driver.conf",
    "/etc/ascend_filelist.info",
    "/usr/local/dcmi",
)
DEVICES = ("/dev/davinci_manager", "/dev/devmm_svm", "/dev/hisi_hdc", "/dev/davinci[0-9]*")


def python_roots(python: str, depth: int = 0) -> list[Path]:
    """The folders a Python needs: its venv (the folder above its bin/), the installation it was made from, and for
    a wrapper script (conda's, a shim) the same for the interpreter its `#!` line names."""
    exe = Path(python)
    roots = [exe.parent.parent]
    with contextlib.suppress(OSError, IndexError):
        roots.append(exe.resolve().parents[1])
    with contextlib.suppress(OSError, ValueError):
        with exe.open("rb") as fh:
            first = fh.readline(512)
        if first.startswith(b"#!") and depth < 2:
            interpreter = first[2:].decode().split()[0]
            roots += python_roots(interpreter, depth + 1)
    return roots


def env_paths(env: Mapping[str, str]) -> list[Path]:
    """The absolute folders the environment's path variables name (a file names its folder)."""
    out: list[Path] = []
    for var in PATH_VARS:
        for part in env.get(var, "").split(":"):
            p = Path(part)
            if part and p.is_absolute() and p.exists():
                out.append(p if p.is_dir() else p.parent)
    return out


def extra_paths(env: Mapping[str, str]) -> list[Path]:
    return [Path(p) for p in env.get(EXTRA_VAR, "").split(":") if p and Path(p).is_absolute()]


def tool_policy(
    cmd: Command,
    env: Mapping[str, str],
    timeout_s: float,
    python: str,
    read: Sequence[Path] = (),
    npu: bool = False,
) -> Policy:
    """The box of one cann command (`npu`: the runner, with the NPU devices)."""
    home = cmd.cwd / ".home"
    home.mkdir(parents=True, exist_ok=True)
    devices = (
        [Path(d) for pattern in DEVICES for d in glob.glob(pattern)] + [Path("/dev/urandom")] if npu else []
    )
    return Policy(
        "tool",
        Limits(wall_s=timeout_s, cpu_s=None, as_bytes=None, fsize_bytes=16 * GiB, nofile=65536, nproc=4096),
        read_only=[
            *python_roots(python),
            *env_paths(env),
            *(Path(p) for p in SYSTEM),
            RUNNER_SCRIPT.parent,
            *read,
        ],
        writable=[cmd.cwd, *extra_paths(env)],
        devices=devices,
        cwd=cmd.cwd,
        env={**env, "HOME": str(home), "TMPDIR": "/tmp"},
        tmp_bytes=4 * GiB,
    )
