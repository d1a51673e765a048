"""Wall time of `akgen check samples/` as a user runs it (target: <= 1 s).

    python benchmarks/bench_check_samples.py [--runs 5] [paths...]

Runs the `akgen` command (the console script next to this Python, else ``python -c``) ``--runs`` times and prints
the median and min wall time, and the time of a bare ``akgen --help`` (interpreter start and imports) for scale.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def akgen_command() -> list[str]:
    script = Path(sys.executable).with_name("akgen")
    if script.exists():
        return [str(script)]
    found = shutil.which("akgen")
    return [found] if found else [sys.executable, "-c", "from akgen_lsp.cli import main; main()"]


def timed(cmd: list[str], runs: int) -> tuple[list[float], subprocess.CompletedProcess[str]]:
    times = []
    proc = None
    for _ in range(runs):
        t0 = time.perf_counter()
        proc = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True)
        times.append(time.perf_counter() - t0)
    assert proc is not None
    return sorted(times), proc


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("paths", nargs="*", default=["samples"])
    args = ap.parse_args()
    akgen = akgen_command()
    times, proc = timed([*akgen, "check", *args.paths], args.runs)
    help_times, _ = timed([*akgen, "--help"], args.runs)
    summary = proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else ""
    print(f"akgen check {' '.join(args.paths)}: median {statistics.median(times):.2f} s, min {times[0]:.2f} s "
          f"over {args.runs} runs (exit {proc.returncode}; target <= 1 s)")
    print(f"  its summary: {summary}")
    print(f"akgen --help: median {statistics.median(help_times):.2f} s (interpreter start and CLI imports)")


if __name__ == "__main__":
    main()
