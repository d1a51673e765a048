"""The NPU runner's pure-Python parts, on the CPU: output parsing, the case spec, the timing loop, and the real
runner script driven end to end with torch on the CPU behind a stand-in torch_npu; and its answer when torch_npu is
missing (as it is here)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.bench.cann import npu_runner as npu
from akgen_lsp.bench.cann.runner import (
    PREFIX,
    RUNNER_SCRIPT,
    call_params,
    case_spec,
    parse_runner_output,
    runner_env,
    runner_spec,
)
from akgen_lsp.bench.compare import Tolerance
from akgen_lsp.bench.reference import CaseData, Tensor
from akgen_lsp.bench.tasks import Case


def test_parse_runner_output_ignores_cann_noise() -> None:
    text = "\n".join([
        "[INFO] ASCENDCL(1234,python):2026-11-29-22:40:01.000.000 [acl.cpp:120] init",
        PREFIX + json.dumps({"event": "case", "case_id": 0, "status": "ok", "outputs": ["/o.npy"], "kernel_ms": 0.5}),
        PREFIX + "{not json",
        PREFIX + json.dumps({"event": "case", "case_id": 3, "status": "error", "error": "RuntimeError: x"}),
        PREFIX + json.dumps({"event": "done"}),
    ])
    out = parse_runner_output(text)
    assert out.done and out.fatal is None and sorted(out.cases) == [0, 3]
    assert out.cases[0]["kernel_ms"] == 0.5 and out.cases[3]["status"] == "error"
    assert len(out.malformed) == 1
    fatal = parse_runner_output(PREFIX + json.dumps({"event": "fatal", "error": "cannot import torch_npu"}))
    assert fatal.fatal == "cannot import torch_npu" and not fatal.done and not fatal.cases


def _data() -> CaseData:
    x = np.arange(12, dtype=np.float16).reshape(3, 4)
    bf = np.arange(4, dtype=np.uint16)
    return CaseData(Case({"case_id": 7}), [Tensor("in0", x, "float16"), Tensor("in2", bf, "bfloat16")],
                    {"in1": np.float32(0.5), "init0": 3, "init10": 4, "init2": 5},
                    [Tensor("out0", x + x, "float16")], Tolerance())


def test_case_spec_keeps_argument_order_and_saves_inputs(tmp_path: Path) -> None:
    data = _data()
    assert call_params(data) == [("tensor", "in0"), ("scalar", "in1"), ("tensor", "in2")]
    spec = case_spec(7, data, tmp_path / "c7")
    assert spec["case_id"] == 7
    assert [list(a) for a in spec["args"]] == [["tensor", "dtype"], ["value"], ["tensor", "dtype"]]
    assert spec["args"][1]["value"] == 0.5 and spec["args"][2]["dtype"] == "bfloat16"
    assert np.array_equal(np.load(spec["args"][0]["tensor"]), data.inputs[0].array)
    assert spec["init"] == [3, 5, 4]  # init0, init2, init10: numeric order
    assert spec["outputs"] == [{"name": "out0", "shape": [3, 4], "dtype": "float16",
                                "path": str(tmp_path / "c7" / "out0.npu.npy")}]
    json.dumps(spec)  # the spec is JSON


def test_runner_env_and_spec(tmp_path: Path) -> None:
    env = runner_env(tmp_path / "vendors" / "customize", {"ASCEND_CUSTOM_OPP_PATH": "/old", "PATH": "/bin"})
    assert env["ASCEND_CUSTOM_OPP_PATH"] == f"{tmp_path / 'vendors' / 'customize'}:/old"
    assert env["LD_LIBRARY_PATH"] == str(tmp_path / "vendors" / "customize" / "op_api" / "lib")
    s = runner_spec([], tmp_path, "add_math", "returns", None, device_index=2)
    assert s["device"] == "npu:2" and s["repeats"] == 100 and s["warmup"] == 1 and s["module"] == "kernel_gen_ops"


class _Clock:
    def __init__(self) -> None:
        self.t = 0.0
        self.calls = 0
        self.syncs = 0


def test_time_calls_uses_events_around_the_repeats() -> None:
    clock = _Clock()

    class Event:
        def __init__(self) -> None:
            self.at = 0.0

        def record(self) -> None:
            self.at = clock.t

        def elapsed_time(self, end: Event) -> float:
            return end.at - self.at

    def call() -> None:
        clock.calls += 1
        clock.t += 2.0  # each call takes 2 ms of "device" time

    def sync() -> None:
        clock.syncs += 1

    ms = npu.time_calls(call, Event, sync, warmup=3, repeats=10)
    assert ms == pytest.approx(2.0) and clock.calls == 13 and clock.syncs == 2


def _fake_env(tmp_path: Path) -> dict[str, str]:
    pkg = tmp_path / "fakepy" / "torch_npu"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text(
        "import time, types\nimport torch\n\n"
        "class _E:\n    def __init__(self, enable_timing=False):\n        self.t = 0.0\n"
        "    def record(self):\n        self.t = time.perf_counter()\n"
        "    def elapsed_time(self, end):\n        return (end.t - self.t) * 1000.0\n\n"
        "torch.npu = types.SimpleNamespace(Event=_E, synchronize=lambda: None, set_device=lambda i: None)\n")
    return {**os.environ, "PYTHONPATH": str(tmp_path / "fakepy")}


def test_runner_script_end_to_end_on_cpu(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    mod = tmp_path / "build"
    mod.mkdir()
    # a task-style pybind: returns the output (bf16 input widened, scaled by the scalar, back to fp16)
    (mod / "kernel_gen_ops.py").write_text(
        "import torch\n\ndef my_op(x, s, b):\n    return (x.float() * s + b.float().sum()).to(torch.float16)\n")
    (tmp_path / "module.py").write_text(
        "import torch\n\nclass Model(torch.nn.Module):\n    def __init__(self, *init):\n        super().__init__()\n"
        "    def forward(self, x, s, b):\n        return x * s\n")
    bad = CaseData(Case({"case_id": 1}), [Tensor("in0", np.ones((2, 2), np.float16), "float16"),
                                          Tensor("in2", np.zeros(2, np.uint16), "bfloat16")],
                   {"in1": "not a number"}, [Tensor("out0", np.ones((2, 2), np.float16), "float16")], Tolerance())
    cases = [case_spec(7, _data(), tmp_path / "c7"), case_spec(1, bad, tmp_path / "c1")]
    cases[0]["outputs"][0]["shape"] = [3, 4]
    spec = runner_spec(cases, mod, "my_op", "returns", tmp_path / "module.py", repeats=5, device="cpu")
    spec_path = tmp_path / "spec.json"
    spec_path.write_text(json.dumps(spec))
    res = subprocess.run([sys.executable, str(RUNNER_SCRIPT), str(spec_path)], capture_output=True, text=True,
                         env=_fake_env(tmp_path), timeout=120)
    out = parse_runner_output(res.stdout)
    assert res.returncode == 0 and out.done, res.stdout + res.stderr
    ok = out.cases[7]
    assert ok["status"] == "ok" and ok["kernel_ms"] > 0 and ok["reference_ms"] > 0 and ok["note"] is None
    # bf16 [0,1,2,3] as raw bits are tiny subnormals: the sum is ~0, so the output is x * 0.5
    got = np.load(ok["outputs"][0])
    assert got.dtype == np.float16 and np.allclose(got, np.arange(12).reshape(3, 4) * 0.5, atol=1e-3)
    assert out.cases[1]["status"] == "error" and "TypeError" in out.cases[1]["error"]


def test_runner_script_without_torch_npu_says_so(tmp_path: Path) -> None:
    spec_path = tmp_path / "spec.json"
    spec_path.write_text(json.dumps(runner_spec([], tmp_path, "f", "returns", None)))
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    res = subprocess.run([sys.executable, str(RUNNER_SCRIPT), str(spec_path)], capture_output=True, text=True,
                         env=env, timeout=120)
    out = parse_runner_output(res.stdout)
    assert res.returncode == npu.EXIT_FATAL and out.fatal and "cannot import torch_npu" in out.fatal
    bad = subprocess.run([sys.executable, str(RUNNER_SCRIPT), str(tmp_path / "missing.json")], capture_output=True,
                         text=True, timeout=60)
    assert bad.returncode == 2 and "cannot read the runner spec" in (parse_runner_output(bad.stdout).fatal or "")


def test_runner_calls_through_model_new(tmp_path: Path) -> None:
    pytest.importorskip("torch")
    mod = tmp_path / "build"
    mod.mkdir()
    (mod / "kernel_gen_ops.py").write_text("def twice(x):\n    return x + x\n")
    (tmp_path / "module.py").write_text(
        "import torch\n\nclass Model(torch.nn.Module):\n    def forward(self, x):\n        return x * 2\n\n"
        "class ModelNew(torch.nn.Module):\n    def forward(self, x):\n        import kernel_gen_ops\n"
        "        return kernel_gen_ops.twice(x)\n")
    data = CaseData(Case({"case_id": 0}), [Tensor("in0", np.arange(6, dtype=np.float32), "float32")], {},
                    [Tensor("out0", np.arange(6, dtype=np.float32) * 2, "float32")], Tolerance())
    spec = runner_spec([case_spec(0, data, tmp_path / "c0")], mod, "twice", "model_new", tmp_path / "module.py",
                       repeats=2, device="cpu")
    (tmp_path / "spec.json").write_text(json.dumps(spec))
    res = subprocess.run([sys.executable, str(RUNNER_SCRIPT), str(tmp_path / "spec.json")], capture_output=True,
                         text=True, env=_fake_env(tmp_path), timeout=120)
    rec = parse_runner_output(res.stdout).cases[0]
    assert rec["status"] == "ok", res.stdout + res.stderr
    assert np.array_equal(np.load(rec["outputs"][0]), np.arange(6, dtype=np.float32) * 2)
