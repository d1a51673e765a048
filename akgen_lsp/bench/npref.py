"""Numpy helpers for the bundled suite's ``validation/*.py``: inputs in fp16/bf16/fp32 without torch, bfloat16 as
raw bits, rounding of float32 results to the output dtype (round to nearest even, as CAST_RINT), and the
NPUKernelBench tolerances per dtype.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from akgen_lsp.bench.compare import Tolerance


class Bf16(np.ndarray):
    """A bfloat16 array held as its raw uint16 bit patterns (numpy has no bfloat16)."""

    def __new__(cls, bits: np.ndarray) -> Bf16:
        return np.asarray(bits, dtype=np.uint16).view(cls)


def f32_to_bf16_bits(x: np.ndarray) -> np.ndarray:
    """Round float32 to bfloat16 (nearest even; NaN stays NaN) and return the bits."""
    a = np.ascontiguousarray(x, dtype=np.float32)
    u = a.view(np.uint32).astype(np.uint64)
    rounded = ((u + 0x7FFF + ((u >> 16) & 1)) >> 16).astype(np.uint16)
    nan = np.isnan(a)
    if nan.any():
        rounded = np.where(nan, np.uint16(0x7FC0), rounded)
    return rounded.astype(np.uint16)


def bf16_bits_to_f32(bits: np.ndarray) -> np.ndarray:
    return (np.asarray(bits, dtype=np.uint16).astype(np.uint32) << 16).view(np.float32)


def dtype_name(dtype: str) -> str:
    d = str(dtype).lower()
    return {
        "float": "float32",
        "half": "float16",
        "fp16": "float16",
        "bf16": "bfloat16",
        "fp32": "float32",
    }.get(d, d)


def cast(x: np.ndarray, dtype: str) -> np.ndarray:
    """float32 values -> an array of `dtype` (Bf16 for bfloat16), rounding to nearest even."""
    d = dtype_name(dtype)
    x = np.asarray(x, dtype=np.float32)
    if d == "bfloat16":
        return Bf16(f32_to_bf16_bits(x))
    if d == "bool":
        return x != 0
    return x.astype(d)


def f32(a: Any) -> np.ndarray:
    """Any input array as float32 values."""
    if isinstance(a, Bf16):
        return bf16_bits_to_f32(np.asarray(a).view(np.uint16))
    return np.asarray(a).astype(np.float32)


def randn(shape: Sequence[int], dtype: str, scale: float = 1.0) -> np.ndarray:
    return cast(np.random.standard_normal(tuple(shape)).astype(np.float32) * scale, dtype)


def uniform(shape: Sequence[int], dtype: str, low: float, high: float) -> np.ndarray:
    return cast(np.random.uniform(low, high, tuple(shape)).astype(np.float32), dtype)


def tolerance(dtype: str) -> Tolerance:
    """NPUKernelBench's per-dtype custom tolerance: fail if |diff| > rtol * max(1, |ref|)."""
    d = dtype_name(dtype)
    if d == "float16":
        return Tolerance(rtol=1 / 512, mode="scaled")
    if d == "bfloat16":
        return Tolerance(rtol=1 / 256 + 1 / 16384, mode="scaled")
    if d in ("bool", "int8", "uint8", "int32", "int64"):
        return Tolerance(mode="exact")
    return Tolerance(rtol=1 / 2048 + 1 / 16384, mode="scaled")


def matmul_tolerance(dtype: str, k: int) -> Tolerance:
    """NPUKernelBench's tolerance for its matmul tasks (level3 GMM): fail if |diff| > rtol * max(1, |ref|), with rtol
    doubled once the reduction length k reaches 2048. Looser than `tolerance` because a kernel's accumulation order
    (K split into base blocks, bias first) differs from numpy's, and for bfloat16 the element-wise rtol is below one
    ulp for |ref| >= 1, so a single rounding flip would fail the case."""
    general, long_k = {"float16": (1 / 256, 1 / 128), "bfloat16": (1 / 128, 1 / 64)}.get(
        dtype_name(dtype), (1 / 2048, 1 / 512)
    )
    return Tolerance(rtol=long_k if int(k) >= 2048 else general, mode="scaled")


def elements(shape: Sequence[int]) -> int:
    n = 1
    for d in shape:
        n *= int(d)
    return n


def layer_norm(x: np.ndarray, gamma: np.ndarray, beta: np.ndarray, eps: float) -> np.ndarray:
    """Layer norm over the last dim in float32, in the order a kernel computes it: mean, centre, biased variance,
    rstd = 1 / sqrt(var + eps), (x - mean) * rstd * gamma + beta."""
    x = np.asarray(x, dtype=np.float32)
    n = np.float32(x.shape[-1])
    xc = x - x.sum(axis=-1, keepdims=True, dtype=np.float32) / n
    var = (xc * xc).sum(axis=-1, keepdims=True, dtype=np.float32) / n
    rstd = np.float32(1) / np.sqrt(var + np.float32(eps))
    return xc * rstd * gamma + beta


def rms_norm(x: np.ndarray, gamma: np.ndarray, eps: float) -> np.ndarray:
    """RMS norm over the last dim in float32: rstd = 1 / sqrt(mean(x^2) + eps), x * rstd * gamma."""
    x = np.asarray(x, dtype=np.float32)
    ms = (x * x).sum(axis=-1, keepdims=True, dtype=np.float32) / np.float32(x.shape[-1])
    return x * (np.float32(1) / np.sqrt(ms + np.float32(eps))) * gamma
