"""bench/torchlike: a workspace task's PyTorch reference expression evaluated with NumPy, so the plain install (no
torch) checks a kernel on save; torch only for what the evaluator does not have, with the fix said."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.bench import npref, torchlike

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "samples"

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib


def _sample_tasks() -> list[dict]:
    tasks = []
    for toml in sorted(SAMPLES.rglob("akgen.toml")):
        tasks.extend(t for t in tomllib.loads(toml.read_text()).get("task", []) if "reference" in t)
    return tasks


def _inputs(task: dict, rng: np.random.Generator) -> dict[str, np.ndarray]:
    out = {}
    case = (task.get("cases") or [{}])[0]
    for spec in task["inputs"]:
        shape = spec.get("shape") or case["shape"]
        dtype = spec.get("dtype") or case["dtype"]
        out[spec["name"]] = npref.cast(rng.standard_normal(shape).astype(np.float32), dtype)
    return out


def test_every_sample_reference_evaluates_with_numpy() -> None:
    """Each [[task]] reference of the samples' akgen.toml files evaluates without torch, to an array of the
    declared output dtype (and shape, where declared)."""
    rng = np.random.default_rng(0)
    tasks = _sample_tasks()
    assert len(tasks) >= 10
    for task in tasks:
        out = torchlike.evaluate(task["reference"], _inputs(task, rng), task.get("params", {}))
        want = task["outputs"][0].get("dtype") or task["cases"][0]["dtype"]
        got = "bfloat16" if isinstance(out, npref.Bf16) else str(out.dtype)
        assert got == want, (task["name"], got)


def test_torch_dtype_rules() -> None:
    h = np.array([1.0, 2.0, 65504.0], dtype=np.float16)
    f = np.array([0.5, 0.25, 1.0], dtype=np.float32)
    assert torchlike.evaluate("x + y", {"x": h, "y": h}, {}).dtype == np.float16
    assert np.isinf(torchlike.evaluate("x + y", {"x": h, "y": h}, {})[2])  # computed then rounded: overflow
    assert torchlike.evaluate("a * x", {"x": h}, {"a": 0.5}).dtype == np.float16  # a number does not widen
    assert torchlike.evaluate("x + y", {"x": h, "y": f}, {}).dtype == np.float32
    assert torchlike.evaluate("x.float()", {"x": h}, {}).dtype == np.float32
    i = np.array([3, -3], dtype=np.int32)
    assert torchlike.evaluate("x * 1.5", {"x": i}, {}).dtype == np.float32
    assert torchlike.evaluate("x / 2", {"x": i}, {}).tolist() == [1.5, -1.5]
    assert torchlike.evaluate("x.sum(dim=-1)", {"x": np.ones((3, 4), np.float32)}, {}).tolist() == [4.0] * 3
    vals = torchlike.evaluate("x.max(dim=1).values", {"x": np.arange(6, dtype=np.float32).reshape(2, 3)}, {})
    assert vals.tolist() == [2.0, 5.0]
    b = npref.cast(np.array([1.0, 3.0], np.float32), "bfloat16")
    out = torchlike.evaluate("x * 2", {"x": b}, {})
    assert isinstance(out, npref.Bf16) and npref.bf16_bits_to_f32(out).tolist() == [2.0, 6.0]


def test_what_is_not_there_is_named() -> None:
    with pytest.raises(torchlike.Unsupported, match=r"torch\.fft"):
        torchlike.evaluate("torch.fft.fft(x)", {"x": np.ones(4, np.float32)}, {})
    with pytest.raises(torchlike.Unsupported, match=r"\.nanmedian\(\)"):
        torchlike.evaluate("x.nanmedian()", {"x": np.ones(4, np.float32)}, {})


def test_same_values_as_torch() -> None:
    torch = pytest.importorskip("torch")
    rng = np.random.default_rng(1)
    for task in _sample_tasks():
        inputs = _inputs(task, rng)
        ours = torchlike.evaluate(task["reference"], inputs, task.get("params", {}))
        env = {"torch": torch, **task.get("params", {})}
        for name, x in inputs.items():
            env[name] = torch.from_numpy(np.ascontiguousarray(x))
        theirs = eval(task["reference"], {"__builtins__": {}}, env)
        got = ours.astype(np.float64)
        want = theirs.double().numpy()
        tol = 1e-2 if ours.dtype == np.float16 else 1e-4
        assert np.allclose(got, want, rtol=tol, atol=tol), task["name"]


_NO_TORCH = """
import json, sys
sys.modules["torch"] = None  # `import torch` fails and find_spec("torch") is None: the plain install
from akgen_lsp.check.kernel import check_kernel
from akgen_lsp.config import defaults
result = check_kernel(sys.argv[1], defaults())
figures = result.figures
print(json.dumps({"status": figures.status, "passed": figures.passed_cases, "cases": figures.cases,
                  "estimate_us": figures.estimate_us, "messages": [f.message for f in result.findings],
                  "torch": sys.modules.get("torch") is not None}))
"""


def _check_without_torch(kernel: Path, tmp_path: Path) -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "AKGEN_BENCH_REF_CACHE_DIR": str(tmp_path / "refcache")}
    out = subprocess.run([sys.executable, "-c", _NO_TORCH, str(kernel)], capture_output=True, text=True, env=env,
                         timeout=300, check=False)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout.strip().splitlines()[-1])


def test_a_sample_kernel_passes_without_torch(tmp_path: Path) -> None:
    """The add sample (a workspace task whose reference is `x + y`) compiles, runs and passes with no torch."""
    got = _check_without_torch(SAMPLES / "kernels" / "add_custom.cpp", tmp_path)
    assert (got["status"], got["passed"], got["cases"]) == ("pass", 1, 1), got
    assert got["estimate_us"] and not got["torch"]


def test_a_reference_that_needs_torch_says_how_to_get_it(tmp_path: Path) -> None:
    """A workspace task's reference that uses what the NumPy evaluator lacks (torch.fft), where torch is not
    installed: the reference module akgen generates for the task skips the check with the fix (the CPU torch, its
    size first). The module runs in the check's box, with the same Python as here: it is called directly, with
    torch hidden, since the box's Python of this test machine has torch."""
    from akgen_lsp.check.kernel import _REFERENCE

    (tmp_path / "spec.json").write_text(json.dumps({
        "reference": "torch.fft.fft(x).real", "params": {},
        "inputs": [{"name": "x", "shape": [64], "dtype": "float32"}], "outputs": [{"name": "z"}]}))
    (tmp_path / "task_reference.py").write_text(_REFERENCE)
    code = ("import sys\nsys.modules['torch'] = None\nsys.path.insert(0, sys.argv[1])\n"
            "import numpy as np\nfrom akgen_lsp.bench.reference import Skip\nimport task_reference\n"
            "try:\n    task_reference.reference(None, np.zeros(64, np.float32))\nexcept Skip as exc:\n"
            "    print('SKIP', exc)\nelse:\n    print('RAN')\n")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, env=env,
                         timeout=120, check=False)
    said = out.stdout
    assert out.returncode == 0 and said.startswith("SKIP"), out.stdout + out.stderr
    assert "torch.fft" in said and "about 190 MB" in said and "download.pytorch.org/whl/cpu" in said, said
