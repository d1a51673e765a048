"""The box itself (akgen_lsp/sandbox), with real bubblewrap: what a boxed command sees, its limits before it runs,
the whole tree killed at the time limit or with its caller, the output cap, and the refusal where it cannot start."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
import uuid
from pathlib import Path

import pytest

from akgen_lsp import sandbox
from akgen_lsp.config import defaults
from akgen_lsp.sandbox import Limits, Policy, SandboxUnavailable, run_confined, sandbox_warning
from akgen_lsp.sandbox.capture import CappedOutput

pytestmark = pytest.mark.hostile


def sh(script: str, profile: str = "compiler", **kw: object) -> sandbox.Confined:
    limits = kw.pop("limits", Limits(wall_s=20))
    return run_confined(["/bin/sh", "-c", script], Policy(profile, limits, **kw))  # type: ignore[arg-type]


def alive_with(marker: str) -> list[int]:
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            if marker.encode() in Path(f"/proc/{pid}/cmdline").read_bytes():
                found.append(int(pid))
        except OSError:
            continue
    return found


def test_the_box_sees_no_home_no_etc_and_a_clear_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AKGEN_TEST_SECRET", "s3cret")
    res = sh("ls /; ls /root /home /etc/passwd 2>&1; env; id -u; cat /proc/1/environ | tr '\\0' ' '")
    assert "s3cret" not in res.output and "HOME=" not in res.output
    assert "cannot access '/root': No such file" in res.output
    assert "cannot access '/etc/passwd': No such file" in res.output
    assert res.sandbox["namespaces"] == ["user", "mount", "pid", "net", "ipc", "uts", "cgroup"]


def test_only_the_writable_folders_can_be_written(tmp_path: Path) -> None:
    ro, rw = tmp_path / "ro", tmp_path / "rw"
    ro.mkdir()
    rw.mkdir()
    res = sh(f"touch {ro}/a; touch {rw}/b; touch /usr/c; echo done", read_only=[ro], writable=[rw])
    assert not (ro / "a").exists() and (rw / "b").exists() and "done" in res.output
    assert "Read-only file system" in res.output


def test_limits_are_in_force_before_the_command_runs() -> None:
    res = sh("ulimit -v; ulimit -t; ulimit -f; ulimit -n; ulimit -c",
             limits=Limits(wall_s=20, cpu_s=7, as_bytes=1 << 30, fsize_bytes=1 << 20, nofile=64))
    assert res.output.split() == ["1048576", "7", "2048", "64", "0"]


def test_the_time_limit_kills_the_whole_tree() -> None:
    marker = f"akgen-tree-{uuid.uuid4().hex}"
    t0 = time.perf_counter()
    res = sh(f"(sleep 300; echo {marker}) & (sh -c 'sleep 301 # {marker}' &) ; sleep 302 # {marker}",
             limits=Limits(wall_s=2))
    assert res.timed_out and time.perf_counter() - t0 < 15
    time.sleep(0.5)
    assert alive_with(marker) == []


def test_killing_the_caller_kills_the_box(tmp_path: Path) -> None:
    marker = f"akgen-orphan-{uuid.uuid4().hex}"
    script = textwrap.dedent(f"""
        from akgen_lsp.sandbox import Limits, Policy, run_confined
        print("go", flush=True)
        run_confined(["/bin/sh", "-c", "sleep 300 # {marker}"], Policy("compiler", Limits(wall_s=300)))
    """)
    caller = subprocess.Popen([sys.executable, "-c", script], stdout=subprocess.PIPE, text=True,
                              env={**os.environ, "PYTHONPATH": str(Path(sandbox.__file__).parents[2])})
    assert caller.stdout is not None and caller.stdout.readline().strip() == "go"
    deadline = time.time() + 20
    while not alive_with(marker) and time.time() < deadline:
        time.sleep(0.1)
    assert alive_with(marker), "the boxed command never started"
    os.kill(caller.pid, signal.SIGKILL)
    caller.wait()
    deadline = time.time() + 10
    while alive_with(marker) and time.time() < deadline:
        time.sleep(0.1)
    assert alive_with(marker) == []


def test_output_is_capped_to_its_head_and_tail() -> None:
    res = sh("echo FIRST; yes x | head -c 3000000; echo LAST",
             limits=Limits(wall_s=20, output_bytes=4096))
    assert res.output.startswith("FIRST") and res.output.rstrip().endswith("LAST")
    assert res.dropped > 2_900_000 and f"{res.dropped} bytes of output dropped" in res.output


def test_capped_output_keeps_the_exact_ends() -> None:
    cap = CappedOutput(4)
    for chunk in (b"ab", b"cdef", b"ghij", b"klmn"):
        cap.feed(chunk)
    assert cap.head == b"abcd" and cap.text().endswith("klmn") and cap.dropped == 6


def test_a_runtime_box_has_no_shell_and_no_processes(tmp_path: Path) -> None:
    res = run_confined(["/bin/sh", "-c", "echo hi"], Policy("kernel", Limits(wall_s=10)))
    assert res.returncode != 0 and "hi" not in res.output  # /bin is not in a kernel's view


def test_sandbox_off_still_bounds_time_and_output_and_says_so() -> None:
    res = run_confined(["/bin/sh", "-c", "sleep 100"], Policy("compiler", Limits(wall_s=1)), mode="off")
    assert res.timed_out and res.sandbox["confinement"].startswith("none")
    settings = defaults().with_overrides({"sim": {"sandbox": "off"}}, "akgen.toml")
    warning = sandbox_warning(settings)
    assert warning is not None and '"off"' in warning and "akgen.toml" in warning


def test_missing_bubblewrap_refuses_with_how_to_install_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", str(tmp_path))  # a machine without bwrap
    sandbox.probe.cache_clear()
    try:
        with pytest.raises(SandboxUnavailable) as info:
            sh("true")
        assert "apt-get install bubblewrap" in str(info.value) and 'sim.sandbox = "off"' in str(info.value)
        warning = sandbox_warning(defaults())
        assert warning is not None and "bubblewrap (bwrap) is not installed" in warning
    finally:
        monkeypatch.undo()
        sandbox.probe.cache_clear()
    assert sandbox_warning(defaults()) is None



def _as_other_user(code: str) -> str:
    """Run Python `code` (with this checkout's akgen_lsp) as a second, unprivileged user: the kernel exempts root from
    RLIMIT_NPROC, so the process limit is tried as the users it protects."""
    import shutil

    from trust_helpers import other_uid

    uid = other_uid()
    site = next(p for p in sys.path if p.endswith("site-packages"))
    python = shutil.which("python3", path="/usr/bin:/bin")
    if python is None or shutil.which("setpriv") is None:
        pytest.skip("needs /usr/bin/python3 and setpriv")
    repo = Path(__file__).resolve().parents[2]
    res = subprocess.run(["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", "env", "-i",
                          "PATH=/usr/bin:/bin", "HOME=/tmp", f"PYTHONPATH={repo}:{site}", python, "-c", code],
                         capture_output=True, text=True, timeout=120, cwd="/tmp")
    return res.stdout + res.stderr


BOMB = ("from akgen_lsp.sandbox import Limits, Policy, run_confined\n"
        "r = run_confined(['/bin/sh', '-c', 'i=0; while [ $i -lt 400 ]; do sleep 30 & i=$((i+1)); done; "
        "echo spawned $i; kill 0'], Policy('compiler', Limits(wall_s=30, nproc=64)))\n"
        "print('OUT', repr(r.output), r.sandbox['rlimits']['nproc'])\n")


def test_a_box_cannot_spawn_processes_without_end() -> None:
    """A fork bomb stops at the box's process limit (RLIMIT_NPROC, counted in the box's own user namespace), not at
    the machine's pid limit."""
    out = _as_other_user(BOMB)
    assert "Cannot fork" in out and "spawned 400" not in out and " 64" in out, out


def test_the_process_limit_counts_the_box_only() -> None:
    """With more than 64 processes of the user running outside, a box of nproc=64 still starts its commands."""
    code = ("import subprocess\nfrom akgen_lsp.sandbox import Limits, Policy, run_confined\n"
            "outside = [subprocess.Popen(['sleep', '30']) for _ in range(80)]\n"
            "r = run_confined(['/bin/sh', '-c', 'sh -c \"echo inner\"; echo outer'], "
            "Policy('compiler', Limits(wall_s=30, nproc=64)))\n"
            "[p.kill() for p in outside]\nprint('OUT', repr(r.output))\n")
    out = _as_other_user(code)
    assert "inner" in out and "outer" in out, out
