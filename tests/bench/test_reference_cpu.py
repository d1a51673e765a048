"""The CPU compatibility of task references: integer random draws, and the op call ModelNew makes."""

from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import pytest

from akgen_lsp.bench.reference import install_cpu_shims, load_case
from akgen_lsp.bench.tasks import load_task

torch = pytest.importorskip("torch")


def test_integer_random_draws_work_on_the_cpu() -> None:
    install_cpu_shims()
    torch.manual_seed(0)
    a = torch.rand(64, dtype=torch.int32) * 9 + 1  # ClipByValue: uniform [0, 1) cast to int -> 0, then 1
    assert a.dtype == torch.int32 and bool((a == 1).all())
    b = torch.empty(1000, dtype=torch.int64).uniform_(0, 10)
    assert b.dtype == torch.int64 and int(b.min()) >= 0 and int(b.max()) <= 9 and len(set(b.tolist())) > 5
    c = torch.randn(1000, dtype=torch.int8)
    assert c.dtype == torch.int8 and int(c.abs().max()) >= 1
    d = torch.empty(10, dtype=torch.int16).normal_(5.0, 0.1)
    assert bool((d >= 4).all()) and bool((d <= 5).all())
    torch.manual_seed(3)  # float draws are untouched: the same numbers as unpatched torch
    x = torch.rand(4)
    torch.manual_seed(3)
    assert torch.equal(x, torch.rand.__wrapped__(4))


MODULE = '''
import torch
import torch.nn as nn
import kernel_gen_ops


class Model(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, x, s):
        return (x * self.scale).to_dense()


class ModelNew(nn.Module):
    def __init__(self, scale):
        super().__init__()
        self.scale = scale

    def forward(self, x, s):
        return kernel_gen_ops.scale_sparse(x.coalesce().indices(), x.coalesce().values(), self.scale, 4)
'''

PREPARE = '''
import torch


def get_inputs(param, device=None):
    idx = torch.tensor([[0, 2], [1, 3]])
    vals = torch.tensor([1.0, 2.0])
    return [torch.sparse_coo_tensor(idx, vals, (4, 4)), 7]


def get_init_inputs(param, device=None):
    return [torch.tensor([3.0])]
'''


def test_a_sparse_input_reaches_the_kernel_as_model_new_passes_it(tmp_path: Path) -> None:
    root = tmp_path / "tasks" / "level2" / "Own" / "ScaleSparse"
    (root / "validation").mkdir(parents=True)
    (root / "validation" / "module.py").write_text(textwrap.dedent(MODULE))
    (root / "validation" / "prepare_inputs.py").write_text(textwrap.dedent(PREPARE))
    (root / "validation" / "test_cases.csv").write_text("case_id;shape\n0;[4, 4]\n")
    task = load_task(root)
    data = load_case(task, task.cases()[0])
    assert [(t.dtype, t.array.shape) for t in data.inputs] == [("int64", (2, 2)), ("float32", (2,)),
                                                              ("float32", (1,))]
    assert data.attrs["in3"] == 4 and data.n_raw == 4
    assert data.outputs[0].array.shape == (4, 4) and float(data.outputs[0].array[2, 3]) == 6.0
    assert type(sys.modules.get("kernel_gen_ops")).__name__ != "_CaptureOps"  # the stand-in is restored


def test_check_precision_matches_npukernelbench_framework() -> None:
    from akgen_lsp.bench.cpu_torch import check_precision

    ref = torch.tensor([0.0, 1.0, 2.0], dtype=torch.float16)
    ok, a, r = check_precision(ref, ref.clone(), 1e-3, 1e-3)
    assert ok == 1 and a.dtype == torch.float16 and float(a.max()) == 0.0
    off = ref.clone()
    off[0] = 0.01  # in float16, 0.01 / (0 + 1e-7) overflows: the original's isfinite(rel) check fails it
    ok, a, r = check_precision([ref], [off], 1.0, 1.0)
    assert ok == 0 and not bool(torch.isfinite(r).all())
    b = torch.tensor([True, False])
    ok, a, _ = check_precision(b, b.clone(), 1e-3, 1e-3)
    assert ok == 1 and a.dtype == torch.int32
