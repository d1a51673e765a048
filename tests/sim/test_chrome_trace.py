"""The Chrome trace of a run (sim.cost.chrome_trace) is JSON that Perfetto reads: one process per core, one thread
per pipe, every event with its API, block, line and file; names from the box's events are escaped and events with
non-finite times (a forged events file) are left out, so the file stays valid JSON."""

from __future__ import annotations

import json
import math

from akgen_lsp.ascendc.arch import load_arch
from akgen_lsp.sim.cost import PIPES, chrome_trace


def test_the_trace_is_json_with_one_thread_per_pipe_and_core() -> None:
    profile = load_arch("Ascend910B2")
    blocks = [{"block": 0, "cycles": 1850.0, "busy": {}}, {"block": 1, "cycles": 1850.0, "busy": {}}]
    traces = {0: [[3, 0.0, 185.0, "DataCopy", 50], [1, 185.0, 370.0, 'Add "x"\n', 52]],
              1: [[3, 0.0, 185.0, "DataCopy", 50], [3, float("nan"), 1.0, "Forged", 1]]}
    data = json.loads(chrome_trace(traces, blocks, profile, "/ws/add.cpp"))
    xs = [e for e in data["traceEvents"] if e["ph"] == "X"]
    assert [e["name"] for e in xs] == ["DataCopy", 'Add "x"\n', "DataCopy"]
    assert all(e["args"]["file"] == "/ws/add.cpp" and math.isfinite(e["ts"]) for e in xs)
    first = xs[0]
    assert first["pid"] == 0 and first["tid"] == 3 and first["args"] == {"block": 0, "line": 50, "file": "/ws/add.cpp"}
    assert math.isclose(xs[1]["ts"], 185.0 / (profile.clock_ghz * 1e3), rel_tol=1e-5)
    assert math.isclose(xs[1]["dur"], 370.0 / (profile.clock_ghz * 1e3), rel_tol=1e-5)
    threads = {(e["pid"], e["tid"]): e["args"]["name"] for e in data["traceEvents"] if e["name"] == "thread_name"}
    assert threads == {(0, 3): PIPES[3], (0, 1): PIPES[1], (1, 3): PIPES[3]}
    assert {e["args"]["name"] for e in data["traceEvents"] if e["name"] == "process_name"} == {
        "core 0 (estimate)", "core 1 (estimate)"}
    assert data["displayTimeUnit"] == "ns" and "estimate" in data["otherData"]["note"]
