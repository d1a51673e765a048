"""NPUKernelBench's comparison protocol: the reference runs on the CPU in whatever dtype torch promotes to (Muls: a
bfloat16 x times a float64 ``value`` tensor of shape [1] is float64), the op's output keeps the op's dtype (bf16), and
the task's ``custom_check_precision(row, ref, test)`` gets both as torch tensors in those dtypes."""

from __future__ import annotations

import textwrap
from pathlib import Path

import numpy as np
import pytest

from akgen_lsp.bench.compare import Tolerance, compare_outputs, comparison_finding
from akgen_lsp.bench.npref import f32_to_bf16_bits
from akgen_lsp.bench.reference import load_case
from akgen_lsp.bench.tasks import load_task

torch = pytest.importorskip("torch")

MODULE = '''
import torch
import torch.nn as nn
import kernel_gen_ops


class Model(nn.Module):
    def forward(self, x, value):
        return x * value


class ModelNew(nn.Module):
    def forward(self, x, value):
        return kernel_gen_ops.scale(x, value)
'''

PREPARE = '''
import torch


def get_inputs(param, device=None):
    x = torch.randn(eval(param["shape"]), dtype=getattr(torch, param["dtype"]))
    return x, torch.tensor([float(param["value"])], dtype=float)


def custom_check_precision(param, outputs, outputs_new):
    rtol = 1 / 256 + 1 / 16384  # bfloat16
    diff = torch.abs(outputs - outputs_new)
    ok = 0 if bool(torch.any(diff > rtol * torch.clamp(torch.abs(outputs), min=1.0))) else 1
    return ok, diff.view(-1), (diff / (torch.abs(outputs) + 1e-7)).view(-1)
'''


def _task(tmp_path: Path):
    root = tmp_path / "tasks" / "level1" / "Own" / "Scale"
    (root / "validation").mkdir(parents=True)
    (root / "validation" / "module.py").write_text(textwrap.dedent(MODULE))
    (root / "validation" / "prepare_inputs.py").write_text(textwrap.dedent(PREPARE))
    (root / "validation" / "test_cases.csv").write_text("case_id;shape;dtype;value\n0;[64];bfloat16;1.2\n")
    return load_task(root)


def test_a_bf16_output_is_checked_against_a_float64_reference_as_bf16(tmp_path: Path) -> None:
    task = _task(tmp_path)
    data = load_case(task, task.cases()[0])
    ref = data.outputs[0]
    assert ref.dtype == "float64"  # torch's promotion: bf16 tensor * float64 tensor of shape [1]
    assert data.custom_check is not None
    # the op computes in bf16: its output, rounded to bf16, is within the task's rtol of the float64 reference
    good = f32_to_bf16_bits(ref.array.astype(np.float32))
    assert data.custom_check([good])
    abs_max, _ = data.custom_check.last_stats  # type: ignore[attr-defined]
    assert abs_max < 0.02  # decoded as bf16 values, not as the integers of their bit patterns
    bad = f32_to_bf16_bits(ref.array.astype(np.float32) * np.float32(1.02))
    assert not data.custom_check([bad])
    # the comparison defers to the custom check; the finding says who decided
    cmp = compare_outputs([ref.array], [bad], Tolerance(), ["y"], lambda: data.custom_check([bad]),  # type: ignore[misc]
                          dtypes=["bfloat16"])
    assert not cmp.ok and cmp.custom
    msg = comparison_finding(cmp, "k.cpp", "case 0").message
    assert "custom_check_precision" in msg and "abs diff <= 0.001" not in msg


def test_the_default_rule_is_described_when_no_custom_check_decides() -> None:
    ref = np.array([1.0, 2.0], np.float32)
    cmp = compare_outputs([ref], [ref + np.float32(0.5)], Tolerance())
    assert not cmp.ok and not cmp.custom
    assert "abs diff <= 0.001 or rel diff <= 0.001" in comparison_finding(cmp, "k.cpp", "case 0").message


def test_the_default_check_runs_in_the_outputs_dtype() -> None:
    from akgen_lsp.bench.compare import check_dtype

    assert check_dtype("float16", "float16") == "float16"
    assert check_dtype("float16", "bfloat16") == "float32"
    assert check_dtype("float64", "bfloat16") == "float64"
    assert check_dtype("float32", "float16") == "float32"
    assert check_dtype("int32", "int32") is None
    # where the reference is 0, float16's rel = abs / (0 + 1e-7) overflows once the error passes ~0.008: the
    # original's isfinite(rel) check fails it even under an abs tolerance that float64 arithmetic would accept
    ref = np.array([0.0, 1.0], np.float16)
    out = np.array([0.009, 1.0], np.float16)
    loose = Tolerance(atol=0.01, rtol=1e-3)
    assert not compare_outputs([ref], [out], loose).ok
    assert compare_outputs([ref.astype(np.float32)], [out.astype(np.float32)], loose).ok  # float32: rel is finite
    # and torch agrees (the framework's own arithmetic)
    r, o = torch.from_numpy(ref), torch.from_numpy(out)
    rel = torch.abs(r - o) / (torch.abs(r) + 1e-7)
    assert not bool(torch.isfinite(rel).all())
    # bfloat16 bits on both sides: compared as bf16 values, and equal values pass
    bits = f32_to_bf16_bits(np.array([0.5, -2.0, 3.0], np.float32))
    assert compare_outputs([bits], [bits.copy()], Tolerance(), dtypes=["bfloat16"]).ok
    off = f32_to_bf16_bits(np.array([0.5, -2.0, 3.25], np.float32))
    cmp = compare_outputs([bits], [off], Tolerance(), dtypes=["bfloat16"])
    assert not cmp.ok and cmp.first_bad == 2 and cmp.expected == 3.0 and cmp.actual == 3.25


ABS_MODULE = '''
import torch
import torch.nn as nn
import kernel_gen_ops


class Model(nn.Module):
    def forward(self, x):
        return torch.abs(x)


class ModelNew(nn.Module):
    def forward(self, x):
        return kernel_gen_ops.abs_math(x)
'''

ABS_PREPARE = '''
import torch


def get_inputs(param, device=None):
    return (torch.complex(torch.randn(eval(param["shape"])), torch.randn(eval(param["shape"]))),)


def custom_check_precision(param, outputs, outputs_new):
    diff = torch.abs(outputs - outputs_new)
    ok = 0 if bool(torch.any(diff > 1e-4 * torch.clamp(torch.abs(outputs), min=1.0))) else 1
    return ok, diff.view(-1), (diff / (torch.abs(outputs) + 1e-7)).view(-1)
'''


def test_a_complex_output_keeps_its_imaginary_part_for_the_task_check(tmp_path: Path) -> None:
    """AbsMath's op writes |x| into a complex64 tensor (empty_like(x)); the task's check subtracts that tensor from
    the real reference, so a non-zero imaginary part fails it, as on the NPU."""
    root = tmp_path / "tasks" / "level1" / "Own" / "AbsC"
    (root / "validation").mkdir(parents=True)
    (root / "validation" / "module.py").write_text(textwrap.dedent(ABS_MODULE))
    (root / "validation" / "prepare_inputs.py").write_text(textwrap.dedent(ABS_PREPARE))
    (root / "validation" / "test_cases.csv").write_text("case_id;shape\n0;[16]\n")
    task = load_task(root)
    data = load_case(task, task.cases()[0])
    ref = data.outputs[0].array
    assert ref.dtype == np.float32 and data.custom_check is not None
    assert data.custom_check([ref.astype(np.complex64)])
    assert not data.custom_check([ref.astype(np.complex64) + np.complex64(0.5j)])
