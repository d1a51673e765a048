"""Build and run public CANN operator samples with their own CMakeLists and run.sh on the simulator's CANN toolkit.

    python benchmarks/sim_cann_samples.py PATH [PATH ...] [--soc Ascend910B1] [--only NAME] [--json OUT.json]
                                          [--keep DIR] [--python PY]

A sample is a folder with a `run.sh`, a `CMakeLists.txt` and a CPU-mode CMake file (`cmake/cpu_lib.cmake`: CANN's
kernel-launch samples, `<<<>>>` / ACLRT_LAUNCH_KERNEL on the NPU and ICPU_RUN_KF on the CPU); PATH is searched for
them (a `build` folder is not). Each is copied to a temporary folder (nothing is written into the checkout) and run exactly as its README
says: `bash run.sh -r cpu -v SOC` (`-r npu` when the README documents only that mode) with `ASCEND_INSTALL_PATH` set to `akgen sim toolkit --print-path`, so its own
CMakeLists configures and builds (cmake, make, install) against the toolkit, its scripts/gen_data.py writes the
input and golden data, the built binary runs the kernels on the simulator and its scripts/verify_result.py compares
the output with the golden data. No file of a sample is changed; a sample the toolkit cannot build unchanged counts
as failed, with the step and the first error line. The table gives per sample: configured, built, ran, verified,
the simulator's findings (error lines the binary printed) and the first error.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import asdict, dataclass
from pathlib import Path

from akgen_lsp.sim.toolkit import ensure_toolkit, environment


@dataclass
class Row:
    sample: str
    mode: str = "cpu"
    configured: str = "-"
    built: str = "-"
    ran: str = "-"
    verified: str = "-"
    findings: int = 0
    error: str = ""
    seconds: float = 0.0


def sample_dirs(roots: list[Path]) -> list[tuple[str, Path]]:
    """Every folder under the roots with run.sh, CMakeLists.txt and cmake/cpu_lib.cmake (CPU-mode kernel launch)."""
    out: list[tuple[str, Path]] = []
    for root in roots:
        for cpu in sorted(root.rglob("cmake/cpu_lib.cmake")):
            folder = cpu.parent.parent
            if "build" in folder.relative_to(root).parts:
                continue
            if (folder / "run.sh").is_file() and (folder / "CMakeLists.txt").is_file():
                out.append((str(folder.relative_to(root)) if folder != root else folder.name, folder))
    return out


def socs_of(run_sh: Path) -> list[str]:
    """The SoC names the sample's run.sh accepts (its VERSION_LIST), empty when it checks none."""
    text = run_sh.read_text(encoding="utf-8", errors="replace")
    m = re.search(r'VERSION_LIST="([^"]*)"', text, re.S)
    return m.group(1).replace("\\", " ").split() if m else []


def run_mode(folder: Path) -> str:
    """The run mode the README runs the sample in: cpu when it documents `run.sh -r cpu` (or lists cpu among the
    modes), else npu when it documents only `-r npu` (such a main includes the generated aclrtlaunch header, which
    only an NPU-mode build has); both build and run on the simulator's toolkit."""
    readme = folder / "README.md"
    text = readme.read_text(encoding="utf-8", errors="replace") if readme.is_file() else ""
    if re.search(r"run\.sh\s+-r\s+cpu|\[\s*cpu\s*/|RUN_MODE\W[^\n]*\bcpu\b", text) or "-r npu" not in text:
        return "cpu"
    return "npu"


def first_error(log: str) -> str:
    for pat in (r"^.*: error: .*$", r"^CMake Error.*$", r"^.*undefined reference.*$", r"^.*Error.*$",
                r"^.*\b(fail|FAIL|error)\b.*$"):
        m = re.search(pat, log, re.M)
        if m:
            return m.group(0).strip()
    return ""


def step_reached(log: str) -> tuple[str, str, str]:
    """(configured, built, ran) read from the run.sh output."""
    configured = "yes" if "Build files have been written" in log else "no"
    built = "yes" if re.search(r"^\[100%\] Built target|Linking CXX executable", log, re.M) else "no"
    ran = "yes" if "akgen sim: launch" in log else "no"
    return configured, (built if configured == "yes" else "-"), (ran if built == "yes" else "-")


def run_sample(name: str, folder: Path, work: Path, soc: str, env: dict[str, str], timeout: float) -> Row:
    row = Row(name)
    t0 = time.perf_counter()
    dst = work / name.replace("/", "__")
    shutil.copytree(folder, dst, ignore=shutil.ignore_patterns("build", "out", "input", "output"), symlinks=True)
    accepted = socs_of(dst / "run.sh")
    chosen = soc if not accepted or soc in accepted else next((s for s in accepted if "910B" in s), accepted[0])
    try:
        row.mode = run_mode(dst)
        res = subprocess.run(["bash", "run.sh", "-r", row.mode, "-v", chosen], cwd=dst, env=env,
                             capture_output=True, text=True, timeout=timeout)
        log, rc = res.stdout + res.stderr, res.returncode
    except subprocess.TimeoutExpired as e:
        log = (e.stdout or b"").decode(errors="replace") if isinstance(e.stdout, bytes) else (e.stdout or "")
        rc = 124
    (work / f"{dst.name}.log").write_text(log, encoding="utf-8")
    row.configured, row.built, row.ran = step_reached(log)
    row.findings = len(re.findall(r"^\S+:\d+:\d+: error: .*\[SIM-", log, re.M))
    # the verdict of verify_result.py (the simulator's own lines, "akgen sim: ... 0 failed", are not it)
    tail = "\n".join([ln for ln in log.splitlines() if not ln.startswith("akgen sim:")][-15:]).lower()
    passed = rc == 0 and re.search(r"\bpass(ed)?\b|success", tail) is not None and "fail" not in tail
    if row.ran == "yes":
        row.verified = "yes" if passed else "no"
    if not passed:
        row.error = "timeout" if rc == 124 else first_error(log) or f"run.sh exit {rc}"
    row.seconds = round(time.perf_counter() - t0, 1)
    return row


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("paths", type=Path, nargs="+", help="folders holding CANN samples (searched for them)")
    ap.add_argument("--soc", default="Ascend910B1", help="the SoC passed to run.sh -v (when the sample accepts it)")
    ap.add_argument("--only", action="append", default=[], help="run only samples whose name contains this")
    ap.add_argument("--json", type=Path, help="also write the rows as JSON here")
    ap.add_argument("--keep", type=Path, help="keep the working copies and logs under this folder")
    ap.add_argument("--timeout", type=float, default=900.0, help="seconds per sample (default 900)")
    ap.add_argument("--python", default=sys.executable,
                    help="the Python that run.sh starts as python3 (needs numpy)")
    a = ap.parse_args()
    missing = [t for t in ("cmake", "make", "bash") if shutil.which(t) is None]
    if missing:
        print(f"{' and '.join(missing)} not installed: install them (apt-get install cmake make)", file=sys.stderr)
        return 2
    samples = [(n, p) for n, p in sample_dirs(a.paths) if not a.only or any(o in n for o in a.only)]
    if not samples:
        print("no CANN sample (a folder with run.sh, CMakeLists.txt and cmake/cpu_lib.cmake) under "
              + ", ".join(map(str, a.paths)), file=sys.stderr)
        return 2
    root = ensure_toolkit()
    pybin = Path(tempfile.mkdtemp(prefix="akgen-py-"))
    # run.sh says `python3 scripts/gen_data.py`: a script, not a link (a link to a venv's python is not that venv)
    (pybin / "python3").write_text(f'#!/bin/sh\nexec "{a.python}" "$@"\n', encoding="utf-8")
    (pybin / "python3").chmod(0o755)
    env = {**os.environ, **environment(root), "ASCEND_INSTALL_PATH": str(root)}
    env["PATH"] = f"{pybin}{os.pathsep}{env['PATH']}"
    work = a.keep or Path(tempfile.mkdtemp(prefix="akgen-cann-"))
    work.mkdir(parents=True, exist_ok=True)
    rows: list[Row] = []
    t0 = time.perf_counter()
    print(f"toolkit: {root}")
    print(f"{'sample':84} {'mode':4} {'conf':4} {'built':5} {'ran':4} {'verified':8} {'finds':5}  first error")
    try:
        for name, folder in samples:
            row = run_sample(name, folder, work, a.soc, env, a.timeout)
            rows.append(row)
            print(f"{name:84} {row.mode:4} {row.configured:4} {row.built:5} {row.ran:4} {row.verified:8} {row.findings:5}  "
                  f"{row.error[:140]}", flush=True)
    finally:
        shutil.rmtree(pybin, ignore_errors=True)
        if a.keep is None:
            shutil.rmtree(work, ignore_errors=True)
    n = len(rows)
    ok = sum(r.verified == "yes" for r in rows)
    print()
    print(f"samples: {n}; configured {sum(r.configured == 'yes' for r in rows)}/{n}, built "
          f"{sum(r.built == 'yes' for r in rows)}/{n}, ran {sum(r.ran == 'yes' for r in rows)}/{n}, "
          f"matched their golden data {ok}/{n} ({100 * ok / n:.0f}%); changed to build: none (run unchanged, a "
          f"sample that needs a change counts as failed: {n - ok}/{n})")
    print(f"wall: {time.perf_counter() - t0:.0f} s")
    for why, k in Counter(r.error.split(":")[0] if r.error else "" for r in rows if r.verified != "yes").most_common():
        print(f"failed {k}: {why}")
    if a.json:
        a.json.write_text(json.dumps([asdict(r) for r in rows], indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
