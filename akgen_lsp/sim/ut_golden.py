"""The golden check of a kernel unit test that has no compare script of its own: its launches' buffers, dumped by
tikicpulib's ICPU_RUN_KF (AKGEN_UT_DUMP), against the operator's tests/assets/golden.py.

Run in the box with the tests' Python (numpy, no akgen import):

    python3 ut_golden.py DUMP_DIR GOLDEN_PY KERNEL_NAME SPEC_JSON

SPEC_JSON: {"params": kernel parameter names in order, "inputs": the op definition's input names (or null),
"dtypes": {param: numpy dtype name}}. Prints one JSON object: {"verdict": "match" | "mismatch" | "not-compared",
"detail": a sentence, "launches": how many launches were compared}.

The rule: the kernel's parameters are the op's inputs, then its outputs (then workspace and tiling). The inputs' bytes
before the launch are handed to the golden function (its __golden__["kernel"][KERNEL_NAME] entry, else
`<kernel>_golden`) as flat arrays of their dtype, with input_dtypes / output_dtypes / short_soc_version keywords; its
result (an array, or one per output) is compared with each output's bytes after the launch, up to the last element
the launch changed (a test may allocate padded buffers; elements past the last changed one are not compared), within
a tolerance per dtype (float16 1e-3, bfloat16 4e-3, float32 1e-4 relative and absolute; integers and bool exact;
NaN equals NaN). Only elementwise launches are compared: every input and output of one element count, and a golden
function whose source does not work on shapes (axis, dim, shape, reshape, transpose, ...): flat arrays stand for
tensors whose shapes the launch does not show. A golden function that needs an argument the test does not show (an
attribute) is not compared either.
"""

from __future__ import annotations

import importlib.util
import inspect
import json
import re
import sys
from pathlib import Path
from typing import Any

import numpy as np

TOL = {"float16": 1e-3, "bfloat16": 4e-3, "float32": 1e-4, "float64": 1e-6}
SKIP = {"workspace", "tiling", "usrworkspace", "user_workspace", "workspacegm", "tilinggm"}


def _dtype(name: str) -> Any:
    if name == "bfloat16":
        import ml_dtypes  # type: ignore[import-not-found]

        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype(name)


def _golden_fn(path: Path, kernel: str) -> Any:
    spec = importlib.util.spec_from_file_location("akgen_op_golden", path)
    if spec is None or spec.loader is None:
        raise RuntimeError(f"cannot load {path}")
    mod = importlib.util.module_from_spec(spec)
    sys.path.insert(0, str(path.parent))
    spec.loader.exec_module(mod)
    table = getattr(mod, "__golden__", {}) or {}
    name = (table.get("kernel") or {}).get(kernel) if isinstance(table, dict) else None
    fn = getattr(mod, name or f"{kernel}_golden", None)
    if fn is None:
        raise RuntimeError(f"golden.py has no golden function for kernel {kernel}")
    return fn


def _launches(dump: Path, kernel: str) -> dict[int, dict[int, int]]:
    out: dict[int, dict[int, int]] = {}
    tsv = dump / "launches.tsv"
    if not tsv.is_file():
        return out
    for line in tsv.read_text(encoding="utf-8", errors="replace").splitlines():
        parts = line.split("\t")
        if len(parts) == 4 and parts[2] == kernel:
            out.setdefault(int(parts[0]), {})[int(parts[1])] = int(parts[3])
    return out


def _close(got: np.ndarray, want: np.ndarray, dtype: str) -> tuple[bool, str]:
    if dtype in TOL:
        g, w = got.astype(np.float64), want.astype(np.float64)
        tol = TOL[dtype]
        ok = np.isclose(g, w, rtol=tol, atol=tol, equal_nan=True)
    else:
        ok = got == want
    bad = np.flatnonzero(~ok)
    if bad.size == 0:
        return True, ""
    i = int(bad[0])
    return (
        False,
        f"{bad.size} of {got.size} elements differ (first at {i}: got {got[i]!r}, golden {want[i]!r})",
    )


def check(dump: Path, golden: Path, kernel: str, spec: dict[str, Any]) -> dict[str, Any]:
    params = [p for p in spec.get("params", [])]
    dtypes: dict[str, str] = spec.get("dtypes", {})
    launches = _launches(dump, kernel)
    if not launches:
        return {
            "verdict": "not-compared",
            "detail": f"the UT launched no {kernel} with GmAlloc buffers",
            "launches": 0,
        }
    try:
        fn = _golden_fn(golden, kernel)
    except Exception as exc:  # a broken golden.py is a verdict, not a crash
        return {"verdict": "not-compared", "detail": f"golden.py does not load: {exc}", "launches": 0}
    sig = inspect.signature(fn)
    positional = [
        p for p in sig.parameters.values() if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)
    ]
    data = [p for p in params if p.lower() not in SKIP]
    inputs = spec.get("inputs")
    n_in = len(inputs) if inputs else sum(1 for p in positional if p.default is p.empty)
    if n_in == 0 or n_in >= len(data):
        return {
            "verdict": "not-compared",
            "detail": f"cannot tell {kernel}'s inputs from its outputs",
            "launches": 0,
        }
    try:
        source = inspect.getsource(fn)
    except (OSError, TypeError):
        source = ""
    shaped = re.findall(
        r"\b(axis|axes|dim|dims|shape|shapes|reshape|transpose|permute|broadcast_to)\b", source
    )
    if shaped:
        return {
            "verdict": "not-compared",
            "launches": 0,
            "detail": f"golden.py works on shapes ({shaped[0]}), which the UT's launch does not show",
        }
    needed = [p.name for p in positional[n_in:] if p.default is p.empty]
    if needed:
        return {
            "verdict": "not-compared",
            "launches": 0,
            "detail": f"golden.py needs {', '.join(needed)}, which the UT's launch does not show",
        }
    missing = [p for p in data if p not in dtypes]
    if missing:
        return {
            "verdict": "not-compared",
            "launches": 0,
            "detail": f"no dtype for {', '.join(missing)} (no -DDTYPE_{missing[0].upper()}= in AddOpTestCase)",
        }
    compared, problems = 0, []
    for launch, args in sorted(launches.items()):
        idx = {name: params.index(name) for name in data}
        if any(args.get(idx[name], -1) < 0 for name in data):
            continue  # a buffer was not dumped (not GmAlloc memory, or too large)
        try:
            ins = [
                np.fromfile(dump / f"{launch}.{idx[n]}.0.bin", dtype=_dtype(dtypes[n])) for n in data[:n_in]
            ]
            outs = data[n_in:]
            sizes = {a.size for a in ins} | {args[idx[n]] // _dtype(dtypes[n]).itemsize for n in outs}
            if len(sizes) != 1:  # not an elementwise launch: golden.py would need the tensors' shapes
                return {
                    "verdict": "not-compared",
                    "launches": compared,
                    "detail": f"{kernel}'s inputs and outputs differ in size ({sorted(sizes)[:4]}): the golden "
                    "needs their shapes, which the launch does not show",
                }
            res = fn(
                *ins,
                input_dtypes=[dtypes[n] for n in data[:n_in]],
                output_dtypes=[dtypes[n] for n in outs],
                short_soc_version="Ascend910B",
            )
        except Exception as exc:  # so is a golden function that fails
            return {
                "verdict": "not-compared",
                "detail": f"golden.py raised {type(exc).__name__}: {exc}"[:300],
                "launches": compared,
            }
        results = list(res) if isinstance(res, (tuple, list)) else [res]
        outputs_seen = 0
        for name, want in zip(outs, results, strict=False):
            dt = _dtype(dtypes[name])
            before = np.fromfile(dump / f"{launch}.{idx[name]}.0.bin", dtype=dt)
            after = np.fromfile(dump / f"{launch}.{idx[name]}.1.bin", dtype=dt)
            diff = np.flatnonzero(
                (before.view(np.uint8) != after.view(np.uint8)).reshape(-1, dt.itemsize).any(axis=1)
            )
            if diff.size == 0:
                continue  # the launch wrote nothing here (or exactly what was there): nothing to compare
            outputs_seen += 1
            want_flat = np.asarray(want).astype(dt).ravel()
            n = min(int(diff[-1]) + 1, after.size, want_flat.size)
            ok, why = _close(after[:n], want_flat[:n], dtypes[name])
            if not ok:
                problems.append(f"launch {launch}, output {name}: {why}")
        compared += outputs_seen > 0
    if compared == 0:
        return {
            "verdict": "not-compared",
            "launches": 0,
            "detail": "no launch had all its buffers dumped and an output the kernel changed",
        }
    if problems:
        return {"verdict": "mismatch", "detail": "; ".join(problems[:3]), "launches": compared}
    return {
        "verdict": "match",
        "detail": f"{compared} launch(es) of {kernel} match golden.py",
        "launches": compared,
    }


def main(argv: list[str]) -> int:
    dump, golden, kernel, spec = Path(argv[1]), Path(argv[2]), argv[3], json.loads(argv[4])
    print(json.dumps(check(dump, golden, kernel, spec)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv))
