"""The cost estimate against published measurements: run each kernel of benchmarks/data/sim_calibration.csv on the
simulator and print estimate / measured per kernel, the median and worst error, and whether each documented
before/after pair comes out in the measured order.

    python benchmarks/sim_calibration.py PATH/TO/asc-devkit [--only ID ...] [--json OUT.json] [--python PY]

The data file holds msprof Task Duration times that CANN 9's best-practice examples (hicann/asc-devkit,
examples/01_simd_cpp_api/05_best_practices) quote in their READMEs for Atlas A2 training parts, one row per
example case (SCENARIO_NUM, COPY_DST), with the source section. Each case is run as its README says: a copy of the
example folder, its scripts/gen_data.py with the README's arguments, the `.asc` program on the simulator
(`run_program` with the case's compile definitions and the row's SoC) and its verify_result.py when it has one. The
estimate is the program's (the sum of its launches', the busiest core of each). The error of a kernel is
max(est/measured, measured/est); a pair is ordered right when the estimate puts the two cases in the order the
measurements do.
"""

from __future__ import annotations

import argparse
import csv
import json
import shutil
import statistics
import sys
import tempfile
import time
from dataclasses import asdict, dataclass
from pathlib import Path

from sim_devkit_examples import PYTHON, readme_command, run_script

from akgen_lsp.sim.program import run_program

DATA = Path(__file__).resolve().parent / "data" / "sim_calibration.csv"


@dataclass
class Point:
    id: str
    example: str
    defines: dict[str, str]
    vars: dict[str, str]
    soc: str
    shape: str
    measured_us: float
    compare_with: str
    source: str
    estimate_us: float | None = None
    bound: str = ""
    status: str = ""
    verified: str = "-"
    error: str = ""
    seconds: float = 0.0


def _kv(text: str) -> dict[str, str]:
    return dict(item.split("=", 1) for item in text.split())


def load(path: Path = DATA) -> list[Point]:
    rows = csv.DictReader(ln for ln in path.read_text(encoding="utf-8").splitlines() if not ln.startswith("#"))
    return [Point(r["id"], r["example"], _kv(r["defines"]), _kv(r["vars"]), r["soc"], r["shape"],
                  float(r["measured_us"]), r["compare_with"], r["source"]) for r in rows]


def run_point(p: Point, devkit: Path, work: Path, timeout: float) -> None:
    t0 = time.perf_counter()
    folder = devkit / "examples" / "01_simd_cpp_api" / p.example
    dst = work / p.id
    shutil.copytree(folder, dst, ignore=shutil.ignore_patterns("figures", "build"))
    build = dst / "build"
    build.mkdir()
    try:
        gen = dst / "scripts" / "gen_data.py"
        if gen.is_file():
            rc, out = run_script(gen, readme_command(folder, "gen_data.py", p.vars) or [], build, timeout)
            if rc != 0:
                p.status, p.error = "gen_data", out.strip().splitlines()[-1] if out.strip() else f"exit {rc}"
                return
        asc = sorted(dst.glob("*.asc"))[0]
        res = run_program(asc, build, arch=p.soc, defines=p.defines, timeout_s=timeout, cpu_s=timeout,
                          memory_mb=8192)
        p.status = res.status
        if res.estimate:
            p.estimate_us, p.bound = res.estimate.get("us"), res.estimate.get("bound") or ""
        if res.status != "ok":
            f = next((f for f in res.findings if f.severity.name == "ERROR"), None)
            p.error = f"{f.code} {f.message}"[:160] if f else res.status
        ver = dst / "scripts" / "verify_result.py"
        if res.status == "ok" and ver.is_file():
            args = readme_command(folder, "verify_result.py", p.vars) or ["output/output.bin", "output/golden.bin"]
            rc, out = run_script(ver, args, build)
            p.verified = "yes" if rc == 0 and "fail" not in out.lower() else "no"
    finally:
        shutil.rmtree(dst, ignore_errors=True)  # the inputs are hundreds of MB
        p.seconds = round(time.perf_counter() - t0, 1)


def error_factor(p: Point) -> float | None:
    if not p.estimate_us or p.estimate_us <= 0:
        return None
    r = p.estimate_us / p.measured_us
    return max(r, 1 / r)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("asc_devkit", type=Path, help="path of an asc-devkit checkout")
    ap.add_argument("--only", action="append", default=[], help="run only these ids (and their pair partners)")
    ap.add_argument("--data", type=Path, default=DATA, help="the table of published measurements")
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds per kernel (default 600)")
    ap.add_argument("--json", type=Path, help="also write the rows as JSON here")
    ap.add_argument("--python", default=sys.executable, help="the Python that runs the examples' scripts")
    a = ap.parse_args()
    PYTHON[:] = [a.python]
    if not (a.asc_devkit / "examples" / "01_simd_cpp_api").is_dir():
        print(f"{a.asc_devkit}: not an asc-devkit checkout (no examples/01_simd_cpp_api); give its path",
              file=sys.stderr)
        return 2
    points = load(a.data)
    if a.only:
        keep = set(a.only) | {p.compare_with for p in points if p.id in a.only}
        points = [p for p in points if p.id in keep]
    work = Path(tempfile.mkdtemp(prefix="akgen-calib-"))
    print(f"{'id':6} {'soc':11} {'measured us':>12} {'estimate us':>12} {'est/meas':>8} {'bound':6} {'verified':8} "
          f"shape / error")
    try:
        for p in points:
            run_point(p, a.asc_devkit, work, a.timeout)
            ratio = f"{p.estimate_us / p.measured_us:8.2f}" if p.estimate_us else f"{'-':>8}"
            est = f"{p.estimate_us:12.2f}" if p.estimate_us else f"{'-':>12}"
            print(f"{p.id:6} {p.soc:11} {p.measured_us:12.2f} {est} {ratio} {p.bound[:6]:6} {p.verified:8} "
                  f"{p.shape}{'  ' + p.status + ': ' + p.error if p.error else ''}", flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    errs = [e for e in (error_factor(p) for p in points) if e is not None]
    print()
    print(f"published points: {len(points)}; estimated: {len(errs)}")
    if errs:
        worst = max((p for p in points if error_factor(p)), key=lambda p: error_factor(p) or 0)
        print(f"error factor max(est/meas, meas/est): median {statistics.median(errs):.2f}x, worst "
              f"{max(errs):.2f}x ({worst.id}); within 1.5x: {sum(e <= 1.5 for e in errs)}/{len(errs)}")
    by_id = {p.id: p for p in points}
    pairs = [(by_id[p.compare_with], p) for p in points if p.compare_with in by_id]
    right = 0
    for before, after in pairs:
        if before.estimate_us is None or after.estimate_us is None:
            verdict = "not estimated"
        else:
            ok = (after.measured_us < before.measured_us) == (after.estimate_us < before.estimate_us) \
                and after.estimate_us != before.estimate_us
            right += ok
            verdict = "right" if ok else "WRONG"
        print(f"pair {before.id} -> {after.id}: measured {before.measured_us:.2f} -> {after.measured_us:.2f} us, "
              f"estimate {before.estimate_us or 0:.2f} -> {after.estimate_us or 0:.2f} us: {verdict}")
    print(f"pairs ordered right: {right}/{len(pairs)}")
    if a.json:
        a.json.write_text(json.dumps([asdict(p) for p in points], indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
