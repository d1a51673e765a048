"""The hostile suite, every case with its time: "N contained, 0 escaped" (issue 10).

    python benchmarks/hostile_suite.py [-k EXPR]

Runs the tests marked `hostile` (tests/sim/test_hostile_*.py: compile time, run time, manifests, run-program;
tests/sandbox: the box; tests/server/test_hostile_server.py: framing and cancellation; and the trust model's suite,
`TRUST_PATHS`: repositories, other users, transports, caches, the terminal, task code, resources, resumed runs;
`--only old|trust` picks one) with pytest, one line per
case (its time, contained or ESCAPED with the reason), then the totals, the processes left behind by the suite
(bwrap, kernels, compilers under its temp folders: must be 0) and the suite's peak memory (the tool's own, with the
kernels' output capped). A case that fails is counted as escaped: each asserts containment first, then the finding
the user sees.
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PATHS = ["tests/sim/test_hostile_compile.py", "tests/sim/test_hostile_run.py", "tests/sim/test_hostile_manifest.py",
         "tests/sim/test_hostile_program.py", "tests/sandbox", "tests/server/test_hostile_server.py"]
# the trust model's suite (issue 25, docs/security.md): repositories, other users, transports, caches, the terminal,
# task code, resources, resumed runs
TRUST_PATHS = ["tests/test_trust.py", "tests/test_safety.py", "tests/cli/test_serve.py", "tests/cli/test_terminal.py",
               "tests/server/test_hostile_files.py", "tests/ascendc/test_hostile_lint.py", "tests/bench/test_ref_box.py",
               "tests/generate/test_seal.py", "tests/generate/test_generate_cli.py", "tests/editors/test_nvim_root.py",
               "tests/check/test_worker.py", "tests/model/test_openai.py",
               "tests/errors/test_hostile_export.py", "tests/server/test_hostile_document.py"]


def leftovers(marker: str) -> list[str]:
    """Processes whose command line names the suite's temp folder."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if marker in cmd and int(pid) != os.getpid():
            found.append(f"{pid} {cmd[:120]}")
    return found


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("-k", help="only the cases matching this pytest expression")
    ap.add_argument("--only", choices=("old", "trust"), help="only the kernel suite (old) or the trust suite")
    args = ap.parse_args()
    paths = {"old": PATHS, "trust": TRUST_PATHS}.get(args.only or "", [*PATHS, *TRUST_PATHS])
    work = Path(tempfile.mkdtemp(prefix="akgen-hostile-suite-"))
    junit = work / "junit.xml"
    cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-m", "hostile", f"--junitxml={junit}",
           f"--basetemp={work / 'tmp'}", *paths, *(["-k", args.k] if args.k else [])]
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True,
                          env={**os.environ, "TMPDIR": str(work), "PYTHONPATH": str(REPO)})
    total = time.perf_counter() - t0
    if not junit.is_file():
        print(proc.stdout[-3000:], proc.stderr[-3000:], sep="\n")
        return 2
    contained = escaped = 0
    slowest: list[tuple[float, str]] = []
    for case in ET.parse(junit).getroot().iter("testcase"):
        name = f"{case.get('classname', '').replace('.', '/')}.py::{case.get('name')}"
        seconds = float(case.get("time") or 0)
        problem = next((c for c in case if c.tag in ("failure", "error")), None)
        skipped = next((c for c in case if c.tag == "skipped"), None)
        if skipped is not None:
            print(f"  skipped    {seconds:6.2f} s  {name}: {skipped.get('message', '')}")
            continue
        if problem is None:
            contained += 1
            print(f"  contained  {seconds:6.2f} s  {name}")
        else:
            escaped += 1
            print(f"  ESCAPED    {seconds:6.2f} s  {name}: {(problem.get('message') or '')[:200]}")
        slowest.append((seconds, name))
    time.sleep(1.0)
    left = leftovers(str(work))
    peak_mib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    print(f"{contained} contained, {escaped} escaped in {total:.0f} s "
          f"(slowest: {max(slowest)[0]:.1f} s, {max(slowest)[1]})" if slowest else "no case ran")
    print(f"processes left by the suite: {len(left)}" + "".join(f"\n  {p}" for p in left))
    print(f"peak memory of the suite's own process (kernels' output capped): {peak_mib:.0f} MiB")
    return 0 if escaped == 0 and not left and slowest else 1


if __name__ == "__main__":
    sys.exit(main())
