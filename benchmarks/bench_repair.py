"""The figures of "Fix this build error" (issue 13).

    python benchmarks/bench_repair.py deterministic CORPUS [--split test] [--max-cases 0] [--jobs 2]
    python benchmarks/bench_repair.py list-latency [--runs 50]
    python benchmarks/bench_repair.py verify-cost [--candidates 8] [--task AddMath] [--jobs 2]

- ``deterministic``: `akgen errors bench --fixer deterministic` with the editor's fixes (`repair.bench_fixer`) on a
  synthesis output's held-out split: per class of the injected mistake, the share of broken kernels the deterministic
  fixes restore to passing, how many fixes were offered and how many of those failed the benchmark's own
  verification (the editor's bar: 0).
- ``list-latency``: `akgen serve` over stdio as VS Code, a model configured, a kernel with a task saved with 20 build
  errors; then `textDocument/codeAction` over the whole document with its 20 diagnostics in the context, `--runs`
  times: the median and p95 round trip (target: median <= 20 ms; the list never waits for the model).
- ``verify-cost``: a Level-1 kernel of the bundled suite (its answer), the check worker warm (precompiled header,
  launcher, the task's references, host runner and tiling runs): `--candidates` distinct candidate texts (each a new
  build) checked `--jobs` at once (as a repair checks them, within ``fix.jobs``) through the same `Checker` the
  repair uses, with the cases a repair of a compile error must pass (`verify.required_cases`). Two kinds: a
  candidate that passes (every dtype's build, every case) and one with wrong numbers from its first case (the early
  stop). Per candidate: the wall time of its batch divided by the batch (target <= 1.5 s on 2 cores), the CPU
  seconds of its compilers and runs (the check worker's reaped children: less sensitive to the load of a shared
  machine than wall time), the kernel and host-runner builds it made (new entries of the benchmark's own build
  cache, warmed first: precompiled header, launcher, references), and the
  share outside compile + run (the harness, target <= 15%).
Prints figures; asserts nothing. The load average is printed: the machine's cores may be shared.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))
SUITE = REPO / "akgen_lsp" / "bench" / "suite" / "tasks"
WS = REPO / "tests" / "repair" / "fixtures" / "ws"


def _load() -> str:
    la = os.getloadavg()
    return f"load average {la[0]:.1f} {la[1]:.1f} {la[2]:.1f} on {os.cpu_count()} cores"


# ----------------------------------------------------------------------------------------------- deterministic


def deterministic(args: argparse.Namespace) -> None:
    from akgen_lsp.config import defaults
    from akgen_lsp.errors.repair_bench import run_repair_bench
    from akgen_lsp.repair.bench_fixer import VerifiedFixer

    print(f"corpus {args.corpus}, split {args.split}; {_load()}")
    t0 = time.perf_counter()
    result = run_repair_bench(Path(args.corpus), ["deterministic"], 1, args.split, None, args.jobs, defaults(),
                              fixer_objects={"deterministic": VerifiedFixer(max_cases=args.max_cases or None)},
                              max_cases=args.max_cases or None)
    wall = time.perf_counter() - t0
    rows = result["fixers"]["deterministic"]
    print(f"{result['broken']} broken kernels, {wall:.0f} s")
    print(f"{'class':<20} {'broken':>6} {'restored':>8} {'share':>6} {'offered':>7} {'offered, failed':>15}")
    for cls, r in rows.items():
        offered = r["proposed"]
        failed = r["not_verified"]  # offered by the fixer, not passing the benchmark's own verification
        print(f"{cls:<20} {r['broken']:>6} {r['repaired']:>8} {r['repaired'] / r['broken']:>6.0%} {offered:>7} "
              f"{failed:>15}")
    operator_of = {}
    for line in (Path(args.corpus) / "mutants.jsonl").read_text(encoding="utf-8").splitlines():
        try:
            r = json.loads(line)
        except ValueError:
            continue
        operator_of[r.get("id")] = r.get("operator")
    per_op: dict[str, list[int]] = {}
    for line in (Path(args.corpus) / "repair-bench" / "repair_results.jsonl").read_text().splitlines():
        r = json.loads(line)
        row = per_op.setdefault(str(operator_of.get(r["id"], "?")), [0, 0, 0, 0])
        row[0] += 1
        row[1] += any(c["verified"] for c in r["candidates"])
        row[2] += len(r["candidates"])
        row[3] += sum(1 for c in r["candidates"] if not c["verified"])
    print(f"\n{'mutation':<20} {'broken':>6} {'restored':>8} {'share':>6} {'offered':>7} {'offered, failed':>15}")
    for op, (n, fixed, offered, failed) in sorted(per_op.items()):
        print(f"{op:<20} {n:>6} {fixed:>8} {fixed / n:>6.0%} {offered:>7} {failed:>15}")
    print(json.dumps(rows))


# ----------------------------------------------------------------------------------------------- list latency


async def _list_latency(runs: int) -> None:
    from lsprotocol import types
    from pygls.lsp.client import LanguageClient
    from pytest_lsp import client_capabilities

    from akgen_lsp.model.tiny import write_tiny_gguf

    work = Path(tempfile.mkdtemp(prefix="akgen-bench-repair-"))
    shutil.copytree(WS, work / "ws")
    original = (WS / "abs.cpp").read_text(encoding="utf-8")
    broken = original.replace("            Abs(yLocal, xIn, TILE_LENGTH);\n", "            Abs(yLocal, xIn, TILE_LENGTH);\n"
                              + "".join(f"            int e{i} = missing{i};\n" for i in range(20)))
    kernel = work / "ws" / "abs.cpp"
    kernel.write_text(broken, encoding="utf-8")
    tiny = write_tiny_gguf(work / "repair-model.gguf")
    client = LanguageClient("bench", "0")
    diagnostics: dict[str, list[types.Diagnostic]] = {}

    @client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)
    def on_diagnostics(params: types.PublishDiagnosticsParams) -> None:
        diagnostics[params.uri] = list(params.diagnostics)

    @client.feature(types.WINDOW_LOG_MESSAGE)
    def on_log(params: types.LogMessageParams) -> None:
        pass

    @client.feature(types.WINDOW_WORK_DONE_PROGRESS_CREATE)
    def on_progress(params: types.WorkDoneProgressCreateParams) -> None:
        return None

    await client.start_io(sys.executable, "-c", "from akgen_lsp.cli import main; main()", "serve")
    root = (work / "ws").as_uri()
    await client.initialize_async(types.InitializeParams(
        capabilities=client_capabilities("visual-studio-code"), root_uri=root,
        workspace_folders=[types.WorkspaceFolder(uri=root, name="ws")],
        initialization_options={"model": {"backend": "llama_cpp", "path": str(tiny)}}))
    client.initialized(types.InitializedParams())
    uri = kernel.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        types.TextDocumentItem(uri=uri, language_id="cpp", version=1, text=broken)))
    client.text_document_did_save(types.DidSaveTextDocumentParams(types.TextDocumentIdentifier(uri)))
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        build = [d for d in diagnostics.get(uri, []) if d.source == "akgen-build"]
        if len(build) >= 20:
            break
        await asyncio.sleep(0.1)
    build = [d for d in diagnostics.get(uri, []) if d.source == "akgen-build"]
    await asyncio.sleep(20)  # the verification of the certain fixes ends (it republishes the same diagnostics)
    build = [d for d in diagnostics.get(uri, []) if d.source == "akgen-build"]
    lines = broken.count("\n")
    params = types.CodeActionParams(types.TextDocumentIdentifier(uri), types.Range(types.Position(0, 0),
                                    types.Position(lines, 0)), types.CodeActionContext(diagnostics=build))
    times: list[float] = []
    counts: list[int] = []
    for _ in range(runs):
        t0 = time.perf_counter()
        actions = await client.text_document_code_action_async(params)
        times.append(time.perf_counter() - t0)
        counts.append(sum(1 for a in actions or [] if getattr(a, "title", "").startswith("Fix with")))
    await client.shutdown_async(None)
    client.exit(None)
    await client.stop()
    times.sort()
    print(f"{len(build)} build diagnostics in the context; {counts[-1]} 'Fix with' actions per list; {_load()}")
    print(f"textDocument/codeAction round trip over {runs} runs: median {statistics.median(times) * 1000:.1f} ms, "
          f"p95 {times[int(0.95 * (len(times) - 1))] * 1000:.1f} ms, max {times[-1] * 1000:.1f} ms (target: median "
          "<= 20 ms)")
    shutil.rmtree(work, ignore_errors=True)


def list_latency(args: argparse.Namespace) -> None:
    asyncio.run(_list_latency(args.runs))


# ----------------------------------------------------------------------------------------------- verify cost


def _children_cpu(pid: int) -> float:
    """CPU seconds of the waited-for descendants of `pid` (/proc/PID/stat cutime + cstime): a check job is a fork of
    the worker, and its compilers and sandboxed runs are its children, so each job's CPU lands here when it ends."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[13]) + int(fields[14])) / os.sysconf("SC_CLK_TCK")


def _entries(folder: Path) -> int:
    return sum(1 for p in folder.iterdir() if ".tmp" not in p.name) if folder.is_dir() else 0


async def _verify_cost(n: int, task_name: str, jobs: int) -> None:
    from akgen_lsp.bench.tasks import discover_tasks
    from akgen_lsp.check.worker import CheckWorker, checker_for, plain_settings
    from akgen_lsp.config import defaults
    from akgen_lsp.repair.verify import required_cases
    from akgen_lsp.sim.build_cache import cache_dir

    (task,) = discover_tasks(SUITE, names=[task_name])
    work = Path(tempfile.mkdtemp(prefix="akgen-bench-verify-"))
    # a cache of its own (warmed below), so that the builds counted are this benchmark's, not those of whoever else
    # shares the machine's cache meanwhile
    os.environ["AKGEN_CACHE_DIR"] = str(work / "cache")
    shutil.copytree(task.root, work / task.root.relative_to(SUITE), dirs_exist_ok=True)
    kernel = work / task.answers[0].kernel.relative_to(SUITE)
    text = kernel.read_text(encoding="utf-8")
    settings = defaults()
    worker = CheckWorker()
    checker = checker_for(worker, plain_settings(settings), 300.0)
    builds, hosts = cache_dir() / "builds", cache_dir() / "host"
    broken = text.replace("Add(fz, f[0], f[1], calc);", "Add(fz, f[0], f[1], calc)")  # a compile error to repair
    wrong = text.replace("Add(fz, f[0], f[1], calc);", "Sub(fz, f[0], f[1], calc);")  # wrong numbers from case 0
    try:
        await worker.warm(plain_settings(settings))
        warm = await checker(str(kernel), text)  # references, host runner, tiling runs and the answer's build: warm
        before = await checker(str(kernel), broken) if broken != text else warm
        required = required_cases(before)
        dtypes = sorted({str(c.get("dtype", "")) for c in task.cases()})
        print(f"task {task.id} ({len(text.splitlines())} lines, {warm.cases} case(s) of {len(dtypes)} dtype(s): "
              f"{', '.join(dtypes)}), warm check: {warm.status}; the kernel to repair: {before.status}, required "
              f"cases {list(required)}; {_load()}")
        scenarios = [("passes every case (each dtype's build, every case)", text)]
        if wrong != text:
            scenarios.append(("wrong numbers in its first case (stops there)", wrong))
        for label, body in scenarios:
            rows = []
            for batch in range(0, n, jobs):
                k = min(jobs, n - batch)
                b0, h0, cpu0 = _entries(builds), _entries(hosts), _children_cpu(worker.pid or 0)
                t0 = time.perf_counter()

                async def one(i: int, body: str = body) -> tuple[float, object]:
                    t = time.perf_counter()
                    candidate = body + f"\n// candidate {i} {time.time_ns()}\n"  # a new text: a new build
                    out = await checker(str(kernel), candidate, required)
                    return time.perf_counter() - t, out

                outs = await asyncio.gather(*(one(batch + i) for i in range(k)))
                wall = time.perf_counter() - t0
                cpu = _children_cpu(worker.pid or 0) - cpu0
                compiled, host_compiled = _entries(builds) - b0, _entries(hosts) - h0
                for w, out in outs:
                    tm = dict(out.figures.timings)
                    rows.append({"wall": w, "batch_wall": wall / k, "cpu": cpu / k, "builds": compiled / k,
                                 "hosts": host_compiled / k, "compile": float(tm.get("compile", 0.0)),
                                 "run": float(tm.get("run", 0.0)), "harness": float(tm.get("harness", 0.0)),
                                 "total": float(tm.get("total", 0.0)), "status": out.status,
                                 "ran": len(out.case_ids), "passed": len(out.passed)})

            def med(key: str, rows: list[dict] = rows) -> float:
                return statistics.median(r[key] for r in rows)

            share = statistics.median(r["harness"] / r["total"] for r in rows if r["total"])
            print(f"[{label}] {n} candidates, {jobs} at once: per candidate {med('batch_wall'):.2f} s of wall "
                  f"(each check {med('wall'):.2f} s), {med('cpu'):.2f} s of CPU in its compilers and runs; "
                  f"{med('builds'):.1f} kernel build(s) and {med('hosts'):.1f} host-runner build(s) per candidate, "
                  f"{med('ran'):.0f} case(s) run, {med('passed'):.0f} passed; compile {med('compile'):.2f} s, run "
                  f"{med('run'):.2f} s, harness (outside compile + run) {med('harness'):.3f} s = {share:.1%} "
                  f"(targets: <= 1.5 s, <= 15%); statuses {sorted({r['status'] for r in rows})}; {_load()}")
    finally:
        await worker.close()
        shutil.rmtree(work, ignore_errors=True)


def verify_cost(args: argparse.Namespace) -> None:
    asyncio.run(_verify_cost(args.candidates, args.task, args.jobs))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    d = sub.add_parser("deterministic")
    d.add_argument("corpus")
    d.add_argument("--split", default="test")
    d.add_argument("--max-cases", type=int, default=0)
    d.add_argument("--jobs", type=int, default=2)
    d.set_defaults(fn=deterministic)
    lat = sub.add_parser("list-latency")
    lat.add_argument("--runs", type=int, default=50)
    lat.set_defaults(fn=list_latency)
    v = sub.add_parser("verify-cost")
    v.add_argument("--candidates", type=int, default=8)
    v.add_argument("--task", default="AddMath")
    v.add_argument("--jobs", type=int, default=2, help="candidates checked at once (fix.jobs)")
    v.set_defaults(fn=verify_cost)
    args = ap.parse_args()
    args.fn(args)


if __name__ == "__main__":
    main()
