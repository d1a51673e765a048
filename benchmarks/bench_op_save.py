"""Save -> result of an operator of an ops-math-shaped repository through the real server (issue #24's figure).

    python benchmarks/bench_op_save.py [--runs 5] [--checkout /work/main --checkout .] [--cold]

Starts `akgen serve` over stdio with pygls's LanguageClient (as benchmarks/bench_editor_session.py does) on a copy of
our fixture operator repository (tests/sim/ops_repo: math/axpb, its kernel UT registered with AddOpTestCase, its
data scripts), opens op_kernel/axpb.cpp and saves it: the first save of the operator (its UT configured and built by
CMake; what is built once per machine, the toolkit, the simulator's runtime and the UTs' precompiled header, already
in the cache unless --cold: each checkout gets a cache of its own, warmed first by `akgen sim op-test` on another
copy of the operator), then --runs saves each after an
edit (a comment line added at the top: the kernel recompiles every time), each timed from didSave to the end of the
check that published "N/M cases pass" for that version.

Each --checkout (default: this one) is measured in turn with its code first on PYTHONPATH, so a baseline and this
checkout are timed in the same minutes on the same machine: the figures are printed with the load average and the
ratio to the first checkout given. Targets: warm save after an edit <= 1.0 s, first save <= 5 s.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import bench_editor_session
from bench_editor_session import Editor

# -P: the working folder is not put first on sys.path, so PYTHONPATH's checkout is the code that serves (a server
# started from inside another checkout would import that one's akgen_lsp)
bench_editor_session.SERVER = [sys.executable, "-P", "-c", "from akgen_lsp.cli import main; main()", "serve"]

REPO = Path(__file__).resolve().parents[1]
KERNEL = "math/axpb/op_kernel/axpb.cpp"


def load() -> str:
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


async def series(checkout: Path, runs: int, cold: bool, gap: float, pause: float) -> tuple[float, list[float]]:
    root = Path(tempfile.mkdtemp(prefix="akgen-bench-op-"))
    workspace = root / "ops-repo"
    shutil.copytree(REPO / "tests" / "sim" / "ops_repo", workspace)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(checkout), *filter(None, [os.environ.get(
        "PYTHONPATH")])])}
    env["AKGEN_CACHE_DIR"] = str(root / "cache")
    if not cold:  # what every operator shares, built once per machine: made before the measured session
        warm = root / "warm-up"
        shutil.copytree(REPO / "tests" / "sim" / "ops_repo", warm)
        # the SoC of the editor's check: the default arch's (the CLI's default SoC is another A2 one)
        subprocess.run([sys.executable, "-P", "-m", "akgen_lsp", "sim", "op-test", "--soc", "Ascend910B2",
                        str(warm / "math" / "axpb")], env=env, capture_output=True, timeout=1800, check=False)
        subprocess.run([sys.executable, "-P", "-c", "from akgen_lsp.sim.op_rebuild import ensure_ut_pch; "
                        "from akgen_lsp.sim.compiler import find_cxx; ensure_ut_pch(find_cxx(), 'Ascend910B2')"],
                       env=env, capture_output=True, timeout=1800, check=False)  # a no-op on a checkout without it
    editor = Editor(workspace)
    try:
        await editor.start(env)
        uri = editor.open(KERNEL)
        await asyncio.sleep(gap)
        first = await editor.save(uri, timeout=900)
        warm = []
        for i in range(runs):
            editor.edit(uri, 0, f"// edit {i}\n")
            await asyncio.sleep(pause)
            warm.append(await editor.save(uri, timeout=600))
        await editor.stop()
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return first, warm


async def main_async(args: argparse.Namespace) -> None:
    checkouts = [Path(c).resolve() for c in (args.checkout or [str(REPO)])]
    results: list[tuple[Path, float, list[float], str, str]] = []
    for c in checkouts:
        before = load()
        first, warm = await series(c, args.runs, args.cold, args.gap, args.pause)
        results.append((c, first, warm, before, load()))
        print(f"{c}: first save {first:.2f} s; after an edit median {statistics.median(warm):.2f} s "
              f"(min {min(warm):.2f}, max {max(warm):.2f}: {', '.join(f'{x:.2f}' for x in warm)}); "
              f"load average {before} -> {load()}", flush=True)
    if len(results) > 1:
        base = results[0]
        for c, first, warm, _, _ in results[1:]:
            print(f"{c} / {base[0]}: first save x{first / base[1]:.2f}, warm save (median) "
                  f"x{statistics.median(warm) / statistics.median(base[2]):.2f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=5, help="saves after an edit")
    ap.add_argument("--checkout", action="append", help="a checkout whose akgen_lsp runs the server (repeat: "
                    "the first is the baseline of the ratios); default: this one")
    ap.add_argument("--cold", action="store_true", help="an empty build cache (the toolkit and runtime built too)")
    ap.add_argument("--gap", type=float, default=5.0, help="seconds between opening the kernel and its first save")
    ap.add_argument("--pause", type=float, default=0.3, help="seconds from the edit to the save")
    asyncio.run(main_async(ap.parse_args()))


if __name__ == "__main__":
    main()
