"""The verdict on a tensor-list (Foreach) case: the compare stage (`pipeline.compare.compare_case`) on a small task
in the NPUKernelBench layout whose reference is a torch Model over a list and whose ``custom_check_precision`` is
the Foreach tasks' kind (|diff| > rtol * max(1, |ref|) on any element of any tensor fails). The kernel's outputs are
written as the simulator writes a list (one .npy per element); a right answer passes, one element past the task's
tolerance fails, the task's check runs once and reads each element once, and a list without a custom check is
judged element by element by the default rule with the bad element's flat index in the joined list."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

from akgen_lsp.bench import tensorlist
from akgen_lsp.bench.pipeline.compare import compare_case
from akgen_lsp.bench.reference import load_case, task_python
from akgen_lsp.bench.tasks import Task, load_task
from akgen_lsp.sim.runner import Run

torch = pytest.importorskip("torch")  # the shared venv and CI have it (torch CPU)

MODULE = '''
from typing import List
import torch
import torch.nn as nn


class Model(nn.Module):
    def forward(self, x1: List[torch.Tensor], x2: List[torch.Tensor], scalar: torch.Tensor):
        return [torch.addcmul(a, a, b, value=scalar) for a, b in zip(x1, x2)]
'''

PREPARE = '''
import torch


def get_inputs(param, device=None):
    shapes = eval(param.get("input_shape", "[[1]]"))
    dtype = getattr(torch, param.get("dtype", "float16"))
    x1 = [torch.rand(s, dtype=dtype) for s in shapes]
    x2 = [torch.rand(s, dtype=dtype) for s in shapes]
    return x1, x2, torch.tensor(float(param.get("scalar", 1.0)), dtype=dtype)


def get_init_inputs(param, device=None):
    return []
'''

CHECK = '''

CHECKS = []


def custom_check_precision(param, outputs, outputs_new):
    CHECKS.append(param["case_id"])
    rtol = 1 / 512 if param.get("dtype") == "float16" else 1 / 2048 + 1 / 16384
    abs_all, rel_all, ok = [], [], 1
    for out, new in zip(outputs, outputs_new):
        d = torch.abs(out - new)
        abs_all.append(d.view(-1))
        rel_all.append((d / (torch.abs(out) + 1e-7)).view(-1))
        if torch.any(d > rtol * torch.maximum(torch.tensor(1.0), torch.abs(out))):
            ok = 0
    return ok, torch.cat(abs_all), torch.cat(rel_all)
'''

CASES = "case_id;input_shape;dtype;scalar\n0;[[3], [4, 5], [2, 3, 4]];float16;1.5\n1;[[7], [2, 9]];float32;-0.5\n"


def _task(root: Path, custom: bool) -> Task:
    folder = root / "tasks" / "level2" / "Foreach" / ("ListAddcmul" if custom else "ListAddcmulDefault")
    (folder / "validation").mkdir(parents=True)
    (folder / "validation" / "module.py").write_text(MODULE, encoding="utf-8")
    (folder / "validation" / "prepare_inputs.py").write_text(PREPARE + (CHECK if custom else ""), encoding="utf-8")
    (folder / "validation" / "test_cases.csv").write_text(CASES, encoding="utf-8")
    return load_task(folder)


def _judge(task: Task, case_id: int, out_dir: Path, change: dict[tuple[int, int], float] | None = None
           ) -> tuple[Any, list[Any], dict[str, Any]]:
    """compare_case on the kernel's outputs = the reference, with `change` ((element, flat index) -> added value)
    applied; each element saved as the simulator saves a list output."""
    case = task.cases()[case_id]
    data = load_case(task, case)
    (out,) = data.outputs
    assert isinstance(out, tensorlist.TensorList)
    out_dir.mkdir(parents=True, exist_ok=True)
    outputs: dict[str, str] = {}
    for k, item in enumerate(out.items):
        a = np.array(item.array, copy=True)
        for (el, idx), delta in (change or {}).items():
            if el == k:
                a.reshape(-1)[idx] += a.dtype.type(delta)
        p = out_dir / f"y.{k}.npy"
        np.save(p, a)
        outputs[f"{out.name}[{k}]"] = str(p)
    run = Run("ok", [], outputs, {}, None, {})
    raw = {"args": [{"name": out.name, "output": str(out_dir), "dtype": out.dtype}]}
    findings: list[Any] = []
    cr: dict[str, Any] = {}
    cmp = compare_case(task, case, data, run, [("out", out.name, out)], raw, Path("kernel.cpp"), cr, findings)
    return cmp, findings, cr


def test_a_foreach_case_passes_and_one_element_past_the_tasks_tolerance_fails(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AKGEN_BENCH_REF_CACHE", "0")
    # the test counts the task's own check calls in its module, so the task's code runs in this process (the user's
    # AKGEN_SIM_SANDBOX=off); tests/bench/test_ref_box.py runs task code in the box
    monkeypatch.setenv("AKGEN_SIM_SANDBOX", "off")
    task = _task(tmp_path, custom=True)
    reads: list[str] = []
    real_load = np.load

    def counting_load(path: Any, *args: Any, **kwargs: Any) -> Any:
        reads.append(str(path))
        return real_load(path, *args, **kwargs)

    monkeypatch.setattr(np, "load", counting_load)
    cmp, findings, _ = _judge(task, 0, tmp_path / "right")
    assert cmp is not None and cmp.ok and not findings
    assert task_python(task).prepare.CHECKS == [0]  # the task's check ran once
    # each of the three elements is read once: the task's check decided, nothing is read again for the default rule
    assert sorted(Path(p).name for p in reads) == ["y.0.npy", "y.1.npy", "y.2.npy"]

    # fp16, rtol 1/512: 0.01 added to an element of |ref| <= ~3 is past rtol * max(1, |ref|) (<= 0.006)
    cmp, findings, _ = _judge(task, 0, tmp_path / "wrong", {(2, 17): 0.01})
    assert cmp is not None and not cmp.ok and cmp.custom
    (f,) = [f for f in findings if f.code == "BENCH-PRECISION"]
    # the custom check names no element: the first one past the default tolerance is reported, by its flat index
    # in the joined list (3 + 20 elements come before element 2)
    assert cmp.first_bad == 3 + 20 + 17 and "past the default tolerance" in f.message

    # past the default rule (abs and rel > 1e-3) but within the task's 1/512 * max(1, |ref|): the task decides, pass
    ref = np.asarray(load_case(task, task.cases()[0]).outputs[0].items[1].array, np.float64).reshape(-1)
    at = int(np.flatnonzero((np.abs(ref) > 0.1) & (np.abs(ref) < 0.9))[0])
    cmp, findings, _ = _judge(task, 0, tmp_path / "close", {(1, at): 1.5e-3})
    assert cmp is not None and cmp.ok and not findings
    assert 1e-3 < cmp.max_abs < 1 / 512


def test_a_foreach_case_without_custom_check_is_judged_element_by_element(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AKGEN_BENCH_REF_CACHE", "0")
    task = _task(tmp_path, custom=False)
    cmp, findings, _ = _judge(task, 1, tmp_path / "right")
    assert cmp is not None and cmp.ok and not findings
    # float32: 1e-2 on the last element of the second tensor is past 1e-3 abs and rel
    cmp, findings, _ = _judge(task, 1, tmp_path / "wrong", {(1, 17): 1e-2})
    assert cmp is not None and not cmp.ok and not cmp.custom
    assert cmp.first_bad == 7 + 17 and cmp.bad_count == 1
    assert [f.code for f in findings] == ["BENCH-PRECISION"]


def test_the_joined_list_is_made_once_and_not_pickled() -> None:
    items = [np.arange(4, dtype=np.float32), np.arange(6, dtype=np.float32).reshape(2, 3)]
    tl = tensorlist.make_list("x", items, lambda a: (a, str(a.dtype)) if isinstance(a, np.ndarray) else None,
                              _Tensor)
    assert tl.size == 10 and tl.nbytes == 40 and tl.array is tl.array
    tl.items[1].array = np.zeros(2, np.float32)  # an element replaced: joined again
    assert tl.array.tolist() == [0, 1, 2, 3, 0, 0] and tl.size == 6
    import pickle

    assert "_joined" not in pickle.loads(pickle.dumps(tl)).__dict__


class _Tensor:
    def __init__(self, name: str, array: np.ndarray, dtype: str, index: int = -1) -> None:
        self.name, self.array, self.dtype, self.index = name, array, dtype, index


def _original_check(outputs: list[Any], outputs_new: list[Any], max_abs: float, max_rel: float) -> int:
    """NPUKernelBench's framework check as it reads (four finiteness tests per output), for the comparison below."""
    ok = 1
    for o, n in zip(outputs, outputs_new, strict=True):
        a = torch.abs(o - n)
        r = a / (torch.abs(o) + 1e-7)
        if any(bool(torch.any(~torch.isfinite(x))) for x in (o, n, a, r)):
            ok = 0
        if bool(((a > max_abs) & (r > max_rel)).any()):
            ok = 0
    return ok


@pytest.mark.parametrize("dtype", ["float16", "bfloat16", "float32"])
def test_the_framework_check_gives_the_originals_verdict(dtype: str) -> None:
    from akgen_lsp.bench.cpu_torch import check_precision

    dt = getattr(torch, dtype)
    base = [torch.tensor([0.0, 1.0, -2.5, 3.0e-3], dtype=dt), torch.tensor([[4.0, 0.5], [6.0e4, -1.0]], dtype=dt)]
    variants: dict[str, list[Any]] = {"same": [b.clone() for b in base]}
    for name, (k, i, value) in {"inf out": (0, 1, float("inf")), "nan out": (1, 2, float("nan")),
                                "off": (0, 2, -2.49), "small off": (1, 0, 4.0 + 2 ** -8),
                                "at zero": (0, 0, 1e-3), "big at zero": (0, 0, 0.02),
                                "overflow": (1, 2, -6.0e4)}.items():
        v = [b.clone() for b in base]
        v[k].view(-1)[i] = value
        variants[name] = v
    verdicts = {}
    for name, outs in variants.items():
        for ref, new in ((base, outs), (outs, base)):  # non-finite values on either side
            got, a, r = check_precision(ref, new, 1e-4, 1e-4)
            assert got == _original_check(ref, new, 1e-4, 1e-4), (name, dtype)
            assert a.numel() == r.numel() == 8
            verdicts[name] = got
    assert verdicts["same"] == 1 and verdicts["inf out"] == verdicts["nan out"] == verdicts["off"] == 0
