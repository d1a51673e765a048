"""Pull kernel code out of a model's answer.

Accepted, in order (NPUKernelBench's `framework/kernel_parser.py` accepts the first two):
1. ``<kernel_impl> ... </kernel_impl>`` (static / kernel-only mode), with or without a fenced block inside;
2. the dynamic-mode sections ``================== op_host/<op>_tiling.h ==================`` followed by a fenced
   block, likewise for ``op_host/<op>.cpp`` and ``op_kernel/<op>.cpp``;
3. fenced code blocks (```` ```cpp ````, ```` ```c++ ````, bare ```` ``` ````): the one that defines the kernel entry
   (``__global__`` / ``extern "C"``), else the longest;
4. text that already is C++ (has ``__global__`` or ``#include``).
A ``<think> ... </think>`` block is removed first.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_THINK = re.compile(r"<think>.*?</think>", re.DOTALL | re.IGNORECASE)
_KERNEL_IMPL = re.compile(r"<kernel_impl>(.*?)</kernel_impl>", re.DOTALL)
_FENCE = re.compile(r"```[ \t]*([A-Za-z0-9_+#-]*)[^\n]*\n(.*?)```", re.DOTALL)
_CPP_LANGS = {"", "cpp", "c++", "cc", "cxx", "c", "h", "hpp"}


@dataclass(frozen=True)
class Extracted:
    kernel: str
    host: str | None = None
    tiling_header: str | None = None
    how: str = ""


class ExtractError(ValueError):
    """No kernel could be found in the answer."""


def _inner_code(text: str) -> str:
    m = _FENCE.search(text)
    return (m.group(2) if m else text).strip()


def _section(text: str, title: str) -> str | None:
    pat = re.compile(r"=+\s*" + re.escape(title) + r"\s*=+\s*\n\s*```[^\n]*\n(.*?)```", re.DOTALL)
    m = pat.search(text)
    return m.group(1).strip() if m else None


def extract_answer(text: str, op: str | None = None) -> Extracted:
    """The kernel (and, in dynamic mode, the host and tiling header) from a model answer; raises ExtractError."""
    body = _THINK.sub("", text or "")
    # An unfinished <think> (no closing tag) leaves nothing after it worth parsing.
    if "<think>" in body.lower() and "</think>" not in body.lower():
        body = body[: body.lower().index("<think>")]
    m = _KERNEL_IMPL.search(body)
    if m:
        code = _inner_code(m.group(1))
        if code:
            return Extracted(code, how="kernel_impl")
    if op:
        kernel = _section(body, f"op_kernel/{op}.cpp")
        if kernel:
            return Extracted(
                kernel,
                _section(body, f"op_host/{op}.cpp"),
                _section(body, f"op_host/{op}_tiling.h"),
                how="sections",
            )
    blocks = [(lang.lower(), code.strip()) for lang, code in _FENCE.findall(body)]
    blocks = [(lang, code) for lang, code in blocks if lang in _CPP_LANGS and code]
    if blocks:
        entry = [c for _, c in blocks if "__global__" in c or 'extern "C"' in c]
        pick = max(entry or [c for _, c in blocks], key=len)
        return Extracted(pick, how="fenced")
    stripped = body.strip()
    if "__global__" in stripped or stripped.startswith("#include"):
        return Extracted(stripped, how="raw")
    raise ExtractError(
        "no kernel code found in the answer: expected <kernel_impl>...</kernel_impl>, a ```cpp "
        "block, or the op_kernel/<op>.cpp section"
    )
