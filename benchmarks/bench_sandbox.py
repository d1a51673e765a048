"""What the sandbox costs (issue 10's targets: <= 20 ms median from the call to the kernel launcher's main; the add
sample's save -> diagnostics not slower by more than 10%).

    python benchmarks/bench_sandbox.py [--runs 30] [--saves 8] [--baseline-tree PATH]

1. Start to kernel main: a kernel of 8 floats (what the box itself costs) and the add sample's kernel
   (samples/kernels/add_custom.cpp at its task's shape) built once, then run `--runs` times each with sim.sandbox
   "on" and "off" in turn; the launcher stamps CLOCK_MONOTONIC at the top of its main (`Run.to_main_s`, measured
   from the call to run the box), and the whole run's wall time is printed too.
2. Save -> diagnostics: a real `akgen serve` over stdio on the samples workspace; samples/kernels/add_custom.cpp is
   opened and saved `--saves` times (check_on_save = "always"), timed from didSave to the publishDiagnostics that
   carries the run's estimate. Once with sim.sandbox "on", once "off", and, with `--baseline-tree`, once with the
   server of another checkout (the tree before the sandbox) for the before/after figure.
"""

from __future__ import annotations

import argparse
import json
import os
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "samples"
ADD = SAMPLES / "kernels" / "add_custom.cpp"


# ------------------------------------------------------------------------------------------------ 1. start to main


TINY = """#include "kernel_operator.h"
extern "C" __global__ __aicore__ void tiny(GM_ADDR x, GM_ADDR y)
{
    AscendC::GlobalTensor<float> xg, yg;
    xg.SetGlobalBuffer((__gm__ float*)x, 8);
    yg.SetGlobalBuffer((__gm__ float*)y, 8);
    for (int i = 0; i < 8; ++i) yg.SetValue(i, xg.GetValue(i));
}
"""


def _case(work: Path, name: str) -> Path:
    """A manifest in `work`: the tiny kernel (8 floats: what the box costs) or the add sample at its task's shape."""
    import numpy as np

    if name == "tiny":
        (work / "tiny.cpp").write_text(TINY, encoding="utf-8")
        np.save(work / "x.npy", np.arange(8, dtype=np.float32))
        data = {"sources": ["tiny.cpp"], "kernel": "tiny", "args": [
            {"name": "x", "input": "x.npy"}, {"name": "y", "output": "y.npy", "dtype": "float32", "shape": [8]}]}
    else:
        n = 48 * 128 * 512
        np.save(work / "x.npy", np.ones(n, np.float16))
        np.save(work / "y.npy", np.ones(n, np.float16))
        shutil.copy(ADD, work / ADD.name)
        data = {"sources": [ADD.name], "kernel": "add_custom", "block_dim": 48, "args": [
            {"name": "x", "input": "x.npy"}, {"name": "y", "input": "y.npy"},
            {"name": "z", "output": "z.npy", "dtype": "float16", "shape": [n]},
            {"name": "workspace", "workspace_bytes": 0}, {"name": "tiling", "workspace_bytes": 0}]}
    (work / "m.json").write_text(json.dumps(data), encoding="utf-8")
    return work / "m.json"


def start_to_main(runs: int) -> None:
    from akgen_lsp.sandbox import use_mode
    from akgen_lsp.sim import SimToolchain, load_manifest
    from akgen_lsp.sim.toolchain import options_for

    tool = SimToolchain()
    for name in ("tiny", "add"):
        work = Path(tempfile.mkdtemp(prefix="akgen-bench-sandbox-"))
        m = load_manifest(_case(work, name))
        build = tool.compile(m.sources, options_for(m))
        if not build.ok:
            sys.exit(f"the {name} kernel does not build: {[f.message for f in build.findings]}")
        main: dict[str, list[float]] = {"on": [], "off": []}
        wall: dict[str, list[float]] = {"on": [], "off": []}
        for i in range(2 * runs + 2):
            mode = ("on", "off")[i % 2]
            with use_mode(mode):
                run = tool.run(build, m, work / "out")
            if run.status != "ok":
                sys.exit(f"the {name} kernel failed with the sandbox {mode}: {[f.message for f in run.findings]}")
            if i >= 2 and run.to_main_s is not None:  # the first round warms the page cache
                main[mode].append(run.to_main_s * 1e3)
                wall[mode].append(run.wall_s * 1e3)
        shutil.rmtree(work, ignore_errors=True)
        on, off = statistics.median(main["on"]), statistics.median(main["off"])
        what = ("a kernel of 8 floats (the box's own cost)" if name == "tiny" else
                "the add sample (48 blocks, 3 Mi halfs: its inputs are read before main)")
        print(f"start to kernel main, {what}, median of {runs}: sandbox on {on:.1f} ms, off {off:.1f} ms, "
              f"difference {on - off:.1f} ms" + (" (target: on <= 20 ms)" if name == "tiny" else ""))
        print(f"  whole run: on {statistics.median(wall['on']):.1f} ms, off {statistics.median(wall['off']):.1f} ms")


# ------------------------------------------------------------------------------------------------ 2. save -> diagnostics


class Client:
    """A minimal LSP client over a server's stdio: requests, notifications, and answers to the server's requests."""

    def __init__(self, argv: list[str], env: dict[str, str]) -> None:
        self.proc = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, env=env, cwd=SAMPLES)
        self.buf = b""
        self.next_id = 0

    def send(self, msg: dict[str, Any]) -> None:
        body = json.dumps(msg).encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()

    def request(self, method: str, params: Any) -> Any:
        self.next_id += 1
        rid = self.next_id
        self.send({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})
        while True:
            msg = self.read(60.0)
            if msg.get("id") == rid and "method" not in msg:
                return msg.get("result")

    def notify(self, method: str, params: Any) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params})

    def read(self, timeout: float) -> dict[str, Any]:
        assert self.proc.stdout is not None
        deadline = time.monotonic() + timeout
        while True:
            if b"\r\n\r\n" in self.buf:
                head, rest = self.buf.split(b"\r\n\r\n", 1)
                n = int(head.split(b"Content-Length:")[1].split(b"\r\n")[0])
                if len(rest) >= n:
                    self.buf = rest[n:]
                    msg = json.loads(rest[:n])
                    if "method" in msg and "id" in msg:  # a request of the server: answer it plainly
                        result: Any = [None] if msg["method"] == "workspace/configuration" else None
                        self.send({"jsonrpc": "2.0", "id": msg["id"], "result": result})
                    return msg
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError("the server did not answer")
            ready, _, _ = select.select([self.proc.stdout], [], [], left)
            if ready:
                chunk = os.read(self.proc.stdout.fileno(), 1 << 16)
                if not chunk:
                    raise EOFError("the server exited")
                self.buf += chunk

    def close(self) -> None:
        try:
            self.request("shutdown", None)
            self.notify("exit", None)
            self.proc.wait(10)
        except (TimeoutError, EOFError, OSError, subprocess.TimeoutExpired):
            self.proc.kill()


def save_to_diagnostics(tree: Path, sandbox: str, saves: int) -> list[float]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    client = Client([sys.executable, "-c", "from akgen_lsp.cli import main; main()", "serve"], env)
    try:
        options = {"sim": {"sandbox": sandbox}, "check_on_save": "always", "lint": {"debounce_ms": 20}}
        if sandbox == "baseline":
            options = {"check_on_save": True, "lint": {"debounce_ms": 20}}
        client.request("initialize", {"processId": os.getpid(), "rootUri": SAMPLES.as_uri(),
                                      "capabilities": {"experimental": {"akgenStatus": True}},
                                      "initializationOptions": options})
        client.notify("initialized", {})
        uri = ADD.as_uri()
        client.notify("textDocument/didOpen", {"textDocument": {"uri": uri, "languageId": "cpp", "version": 1,
                                                                "text": ADD.read_text(encoding="utf-8")}})
        times = []
        for i in range(saves + 1):
            t0 = time.perf_counter()
            client.notify("textDocument/didSave", {"textDocument": {"uri": uri}})
            while True:  # the check's end: akgen/status says its state, after its diagnostics were published
                msg = client.read(300.0)
                check = (msg.get("params") or {}).get("check") if msg.get("method") == "akgen/status" else None
                if check and check.get("uri") == uri and check.get("state") not in ("running", None):
                    if check["state"] != "passed":
                        sys.exit(f"the check of the add sample did not pass: {check}")
                    break
            if i:  # the first save builds (a cold cache is not what this measures)
                times.append((time.perf_counter() - t0) * 1e3)
        return times
    finally:
        client.close()


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=30)
    ap.add_argument("--saves", type=int, default=8)
    ap.add_argument("--baseline-tree", type=Path, help="a checkout whose server is 'before' (no sandbox)")
    ap.add_argument("--skip-runs", action="store_true")
    args = ap.parse_args()
    if not args.skip_runs:
        start_to_main(args.runs)
    rows = [("sandbox on", REPO, "on"), ("sandbox off", REPO, "off")]
    if args.baseline_tree:
        rows.insert(0, (f"before ({args.baseline_tree})", args.baseline_tree, "baseline"))
    medians = {}
    for label, tree, mode in rows:
        times = save_to_diagnostics(tree, mode, args.saves)
        medians[label] = statistics.median(times)
        print(f"save -> diagnostics of samples/kernels/add_custom.cpp, {label}: median {medians[label]:.0f} ms "
              f"(min {min(times):.0f}, max {max(times):.0f}, {len(times)} saves)")
    ref = next(iter(medians)) if args.baseline_tree else "sandbox off"
    print(f"  sandbox on / {ref}: {medians['sandbox on'] / medians[ref]:.2f}x (target: <= 1.10x)")


if __name__ == "__main__":
    main()
