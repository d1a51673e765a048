"""Task code in the box (docs/security.md, "Task code"): a task's ``prepare_inputs.py``, ``reference_np.py`` or
``module.py`` (and a workspace task's ``reference`` expression, generated into such a module) run in a sandboxed
Python, never in the tool's own process: the same bubblewrap box as kernels (the `tool` view: /usr, this Python and
its packages read-only, the task's folder read-only, a private scratch folder writable; no network, no home, the
box's process and memory limits).

What comes out is data only: a JSON description and ``.npy`` arrays, read with ``allow_pickle=False`` and sizes
bounded; nothing the box wrote is unpickled. The verdict is computed outside from the arrays (bench/compare.py); a
task's own ``custom_check_precision`` runs in a box too and gives only pass/fail and two numbers. What task code
prints stays in the box's captured output: it never reaches the tool's stdout.

`compute_case` is the parent side; `child` (started as `CHILD`) the box's side.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from akgen_lsp.bench import tensorlist
from akgen_lsp.bench.compare import Tolerance
from akgen_lsp.bench.tasks import Case, Task

MAX_META_BYTES = 16 << 20
TIMEOUT_S = 300.0
MEMORY = 16 << 30


# ------------------------------------------------------------------------------------------------ the data format


def _encode(obj: Any, arrays: list[np.ndarray], ref: Any) -> Any:
    if isinstance(obj, ref.Tensor):
        return {
            "T": {
                "name": obj.name,
                "dtype": obj.dtype,
                "index": obj.index,
                "absent": obj.absent,
                "array": _encode(obj.array, arrays, ref),
                "expected": _encode(obj.expected, arrays, ref),
            }
        }
    if isinstance(obj, tensorlist.TensorList):
        return {
            "L": {
                "items": [_encode(t, arrays, ref) for t in obj.items],
                "index": obj.index,
                "name": obj.name,
                "expected": _encode(obj.expected, arrays, ref),
                "write_dtype": obj.write_dtype,
            }
        }
    if isinstance(obj, Tolerance):
        return {"tol": [obj.atol, obj.rtol, obj.mode]}
    if isinstance(obj, np.ndarray):
        arrays.append(np.ascontiguousarray(obj))
        return {"A": len(arrays) - 1}
    if isinstance(obj, np.generic):
        return obj.item()
    if isinstance(obj, (list, tuple)):
        return {"list" if isinstance(obj, list) else "tuple": [_encode(x, arrays, ref) for x in obj]}
    if isinstance(obj, dict):
        return {"dict": {str(k): _encode(v, arrays, ref) for k, v in obj.items()}}
    if obj is None or isinstance(obj, (bool, int, str)):
        return obj
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else {"float": repr(obj)}
    if hasattr(obj, "item") and not hasattr(obj, "shape"):
        return _encode(obj.item(), arrays, ref)
    return {"repr": repr(obj)[:200]}


def _decode(obj: Any, folder: Path, ref: Any) -> Any:
    if not isinstance(obj, dict):
        if isinstance(obj, list):
            raise ValueError("a bare list in the box's answer")
        return obj
    if len(obj) != 1:
        raise ValueError("a malformed value in the box's answer")
    ((tag, v),) = obj.items()
    if tag == "T":
        t = ref.Tensor(
            str(v["name"]),
            _decode(v["array"], folder, ref),
            str(v["dtype"]),
            int(v["index"]),
            absent=bool(v["absent"]),
        )
        t.expected = _decode(v["expected"], folder, ref)
        return t
    if tag == "L":
        lst = tensorlist.TensorList(
            [_decode(x, folder, ref) for x in v["items"]], int(v["index"]), write_dtype=v["write_dtype"]
        )
        lst.expected = _decode(v["expected"], folder, ref)
        if v["name"]:
            lst.name = str(v["name"])
        return lst
    if tag == "tol":
        return Tolerance(float(v[0]), float(v[1]), str(v[2]))
    if tag == "A":
        path = folder / f"a{int(v)}.npy"
        if not path.is_file() or path.is_symlink():
            raise ValueError("an array the box's answer names is missing")
        return np.load(path, allow_pickle=False)
    if tag == "list":
        return [_decode(x, folder, ref) for x in v]
    if tag == "tuple":
        return tuple(_decode(x, folder, ref) for x in v)
    if tag == "dict":
        return {str(k): _decode(x, folder, ref) for k, x in v.items()}
    if tag == "float":
        return float(v)
    if tag == "repr":
        return str(v)
    raise ValueError(f"an unknown value kind {tag!r} in the box's answer")


# ------------------------------------------------------------------------------------------------ the child side


def child(reference: Any, mode: str, root: str, case_json: str, out: str, names_json: str) -> None:
    """The box's side: compute the case with `reference` (the module akgen_lsp.bench.reference, handed in so that
    this module does not import it) and write the answer into `out`."""
    from akgen_lsp.bench.tasks import load_task

    folder = Path(out)
    task = load_task(Path(root))
    case = Case(json.loads(case_json))
    input_names, output_names = json.loads(names_json)
    arrays: list[np.ndarray] = []
    try:
        data, _ref = reference._compute_case(task, case, input_names, output_names)
    except reference.Skip as exc:
        answer: dict[str, Any] = {"skip": str(exc)}
    except reference.ReferenceError_ as exc:
        answer = {"error": str(exc)}
    else:
        if mode == "custom":
            outs = [
                np.load(folder / f"out{i}.npy", allow_pickle=False)
                for i in range(int(os.environ["AKGEN_OUTS"]))
            ]
            if data.custom_check is None:
                answer = {"error": "the task has no custom_check_precision"}
            else:
                ok = data.custom_check(outs)
                stats = getattr(data.custom_check, "last_stats", None)
                answer = {"ok": bool(ok), "stats": list(stats) if stats else None}
        else:
            flops = None
            tp = reference.task_python(task)
            if tp.prepare is not None and hasattr(tp.prepare, "flops"):
                try:
                    flops = [
                        float(tp.prepare.flops(case)),
                        "cube" if getattr(tp.prepare, "USES_CUBE", False) else "vector",
                    ]
                except Exception:  # the task's own code: the default estimate outside
                    flops = None
            enc = reference
            answer = {
                "data": {
                    "inputs": _encode(data.inputs, arrays, enc),
                    "attrs": _encode(data.attrs, arrays, enc),
                    "outputs": _encode(data.outputs, arrays, enc),
                    "tolerance": _encode(data.tolerance, arrays, enc),
                    "notes": [str(n) for n in data.notes],
                    "n_raw": data.n_raw,
                    "call_view": _encode(data.call_view, arrays, enc),
                    "custom": data.custom_check is not None,
                    "flops": flops,
                }
            }
    for i, a in enumerate(arrays):
        np.save(folder / f"a{i}.npy", a, allow_pickle=False)
    tmp = folder / "answer.json.tmp"
    tmp.write_text(json.dumps(answer), encoding="utf-8")
    tmp.replace(folder / "answer.json")


# ------------------------------------------------------------------------------------------------ the parent side


def _roots() -> list[Path]:
    """What the box reads: this Python and its packages (venv, base installation), and akgen_lsp itself."""
    here = (
        Path(__file__).resolve().parents[2]
    )  # the folder that holds akgen_lsp (a checkout or site-packages)
    exe = Path(sys.executable)
    roots = [exe.parent.parent, exe.resolve().parents[1], Path(sys.prefix), Path(sys.base_prefix), here]
    roots += [
        Path(p)
        for p in sys.path
        if (
            p
            and Path(p).is_dir()
            and Path(p).is_absolute()
            and not str(p).startswith(("/tmp", "/home", "/root/.cache"))
        )
        or p == str(here)
    ]
    out: list[Path] = []
    for r in roots:
        r = Path(r).resolve()
        if r not in out and r != Path("/"):
            out.append(r)
    return out


CHILD = (
    "import sys\nfrom akgen_lsp.bench import ref_box, reference\nref_box.child(reference, *sys.argv[1:6])\n"
)


def _run(
    ref: Any,
    mode: str,
    task: Task,
    case: Case,
    input_names: Sequence[str],
    output_names: Sequence[str],
    outs: Sequence[np.ndarray] = (),
) -> tuple[dict[str, Any], Path]:
    from akgen_lsp.sandbox import RUN_DISK_BYTES, Limits, Policy, run_confined

    ReferenceError_ = ref.ReferenceError_

    scratch = Path(tempfile.mkdtemp(prefix="akgen-ref-"))
    for i, o in enumerate(outs):
        np.save(scratch / f"out{i}.npy", np.ascontiguousarray(o), allow_pickle=False)
    env = {
        "PYTHONPATH": str(Path(__file__).resolve().parents[2]),
        "HOME": str(scratch),
        "TMPDIR": "/tmp",
        "PYTHONDONTWRITEBYTECODE": "1",
        "OMP_NUM_THREADS": "1",
        "MKL_NUM_THREADS": "1",
        "AKGEN_BENCH_REF_CACHE": "0",
        "AKGEN_IN_REF_BOX": "1",
        "AKGEN_OUTS": str(len(outs)),
        "PYTHONHASHSEED": "0",
    }
    argv = [
        sys.executable,
        "-c",
        CHILD,
        mode,
        str(task.root),
        json.dumps(dict(case)),
        str(scratch),
        json.dumps([list(input_names), list(output_names)]),
    ]
    policy = Policy(
        "tool",
        Limits(
            wall_s=TIMEOUT_S,
            cpu_s=TIMEOUT_S,
            as_bytes=MEMORY,
            fsize_bytes=4 << 30,
            nproc=256,
            disk_bytes=RUN_DISK_BYTES,
        ),
        read_only=[*_roots(), Path(task.root).resolve()],
        writable=[scratch],
        cwd=scratch,
        env=env,
        devices=[Path("/dev/urandom")],
    )  # torch and numpy seed from it
    try:
        res = run_confined(argv, policy)
        answer_path = scratch / "answer.json"
        if res.disk_exceeded:
            raise ReferenceError_(
                f"{task.validation}: the task's code wrote more than {RUN_DISK_BYTES >> 20} MiB to "
                "the disk and was stopped; a reference writes its arrays only"
            )
        if (
            not answer_path.is_file()
            or answer_path.is_symlink()
            or answer_path.stat().st_size > MAX_META_BYTES
        ):
            tail = res.output.strip().splitlines()[-3:]
            why = "; ".join(tail) if tail else f"exit status {res.returncode}"
            raise ReferenceError_(f"{task.validation}: the task's code failed in the sandbox ({why})")
        answer = json.loads(answer_path.read_text(encoding="utf-8"))
    except BaseException:
        shutil.rmtree(scratch, ignore_errors=True)
        raise
    return answer, scratch


def compute_case(
    ref: Any, task: Task, case: Case, input_names: Sequence[str] = (), output_names: Sequence[str] = ()
) -> Any:
    """`reference._compute_case` run in the box: (the case's data, None). Raises Skip or ReferenceError_. `ref` is
    the module akgen_lsp.bench.reference (handed in: this module does not import it)."""
    CaseData, ReferenceError_, Skip = ref.CaseData, ref.ReferenceError_, ref.Skip

    answer, scratch = _run(ref, "data", task, case, input_names, output_names)
    try:
        if "skip" in answer:
            raise Skip(str(answer["skip"]))
        if "error" in answer:
            raise ReferenceError_(str(answer["error"]))
        d = answer["data"]
        try:
            data = CaseData(
                case,
                _decode(d["inputs"], scratch, ref),
                _decode(d["attrs"], scratch, ref),
                _decode(d["outputs"], scratch, ref),
                _decode(d["tolerance"], scratch, ref),
                notes=[str(n) for n in d["notes"]],
                n_raw=int(d["n_raw"]),
            )
            data.call_view = _decode(d["call_view"], scratch, ref)
        except (KeyError, TypeError, ValueError, OSError) as exc:
            raise ReferenceError_(
                f"{task.validation}: the sandboxed reference's answer cannot be read ({exc})"
            ) from None
        if d.get("flops"):
            data.flops = (float(d["flops"][0]), str(d["flops"][1]))
        if d.get("custom"):
            data.custom_check = custom_check(ref, task, case, input_names, output_names)
        return data, None
    finally:
        shutil.rmtree(scratch, ignore_errors=True)


def custom_check(
    ref: Any, task: Task, case: Case, input_names: Sequence[str], output_names: Sequence[str]
) -> Any:
    """The task's ``custom_check_precision`` as a function of the kernel's outputs, run in a box each time."""

    def check(outs: Sequence[np.ndarray]) -> bool:
        answer, scratch = _run(ref, "custom", task, case, input_names, output_names, outs)
        shutil.rmtree(scratch, ignore_errors=True)
        stats = answer.get("stats")
        check.last_stats = (float(stats[0]), float(stats[1])) if stats else None  # type: ignore[attr-defined]
        return answer.get("ok") is True

    return check
