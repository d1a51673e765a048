"""The run manifest's types: the element types it knows (DTYPES, their ge names), the scalar types and check modes it
accepts, and the parsed manifest (Manifest, its Args, a TilingSpec). `akgen_lsp.sim.manifest` reads a manifest into
these (its docstring describes the JSON)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np


class ManifestError(ValueError):
    """A manifest that cannot be used; the message names the field and what to do."""


# numpy dtype name -> (numpy dtype used for storage, C++ element type)
DTYPES: dict[str, tuple[str, str]] = {
    "float16": ("float16", "half"),
    "float32": ("float32", "float"),
    "float64": ("float64", "double"),
    "bfloat16": ("uint16", "bfloat16_t"),  # stored in .npy as raw uint16 bit patterns
    "int8": ("int8", "int8_t"),
    "uint8": ("uint8", "uint8_t"),
    "int16": ("int16", "int16_t"),
    "uint16": ("uint16", "uint16_t"),
    "int32": ("int32", "int32_t"),
    "uint32": ("uint32", "uint32_t"),
    "int64": ("int64", "int64_t"),
    "uint64": ("uint64", "uint64_t"),
    "bool": ("bool", "bool"),
    # complex: interleaved (real, imag) float pairs in GM; the custom-op build names the kernel type complex64
    # (AscendC::Complex<float>, declared by the device library only on newer arches: kernels for A2/A3 read floats)
    "complex64": ("complex64", "complex64"),
    "complex128": ("complex128", "complex128"),
}

SCALAR_TYPES = {
    "int8_t",
    "uint8_t",
    "int16_t",
    "uint16_t",
    "int32_t",
    "uint32_t",
    "int64_t",
    "uint64_t",
    "int",
    "unsigned",
    "float",
    "double",
    "bool",
    "half",
    "size_t",
}

# `checks`: "npu" (the hardware's rules; checks only CANN's CPU-debug library makes warn and the kernel goes on) or
# "cpu-debug" (CANN CPU-debug parity: every check ends the block)
CHECK_MODES = ("npu", "cpu-debug")

IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
QUALIFIED = re.compile(r"^[A-Za-z_][A-Za-z0-9_:]*$")
# a kernel's name, with its template arguments where the entry is a template (`acos<float>`, `k<1, true>`,
# `kernel<ELEMENTWISE_TPL_SCH_MODE_1>`): names, numbers, `::` and the brackets of nested arguments only
_KERNEL_NAME = re.compile(r"^[A-Za-z_]\w*(?:\s*<[\w\s:,<>()+\-]*>)?$")


def valid_kernel_name(name: object) -> bool:
    """Whether `name` names a kernel function, plain or a template with its arguments (brackets balanced)."""
    if not isinstance(name, str) or len(name) > 300 or not _KERNEL_NAME.match(name):
        return False
    depth = 0
    for ch in name:
        depth += {"<": 1, ">": -1, "(": 1, ")": -1}.get(ch, 0)
        if depth < 0:
            return False
    return depth == 0


@dataclass(frozen=True)
class TilingSpec:
    header: Path | None
    struct: str | None
    fields: Mapping[str, Any]
    host: Path | None = None  # op_host source whose TilingFunc computes the tiling
    attrs: Mapping[str, Any] = field(default_factory=dict)
    op: str | None = None


@dataclass(frozen=True)
class Arg:
    """One kernel parameter, in order. `kind` is gm_in, gm_out, gm_inout, gm_list, scalar, workspace or tiling; a
    gm_list holds its elements (gm_in, gm_out or gm_inout args named ``x[0]``, ``x[1]``, ...) in `items`."""

    name: str
    kind: str
    path: Path | None = None
    dtype: str | None = None
    shape: tuple[int, ...] | None = None
    value: Any = None
    ctype: str | None = None
    nbytes: int = 0
    tiling: TilingSpec | None = None
    items: tuple[Arg, ...] = ()
    absent: bool = (
        False  # an optional input the call leaves out ("absent": true): the TilingFunc sees no tensor
    )
    # an output's initial content ("init": a .npy of the output's size): a ref output (an OpDef output named like an
    # input, StridedSliceAssignV2's var) is that input's buffer on CANN, so the kernel finds the input's values there;
    # it stays an output for the TilingFunc. When `init` is the .npy of an EARLIER input of the same size (a list:
    # element by element), the output IS that input's GM buffer, as on CANN (`runner.ref_targets`, launcher `arg ref`)
    init: Path | None = None
    # an output the caller does not compare ("compared": false: a scratch output the task does not return): bytes of
    # it that no block wrote are an information, not a warning (SIM-GM-UNWRITTEN)
    compared: bool = True


@dataclass(frozen=True)
class Manifest:
    path: Path | None
    root: Path
    sources: tuple[Path, ...]
    kernel: str
    block_dim: int
    arch: str
    defines: Mapping[str, str]
    args: tuple[Arg, ...]
    tiling_key: int = 0
    timeout_s: float = 30.0
    cpu_s: int = 20
    memory_mb: int = 4096
    include_dirs: tuple[Path, ...] = field(default_factory=tuple)
    block_dim_given: bool = True
    checks: str = "npu"  # CHECK_MODES: which checks end a block (a run-time value, not part of the build key)
    sanitize: bool = (
        True  # initcheck, racecheck, unwritten outputs (run time too); off only to measure their cost
    )

    @property
    def tiling(self) -> TilingSpec | None:
        return next((a.tiling for a in self.args if a.tiling is not None), None)

    def flat_args(self) -> list[Arg]:
        """The arguments with every tensor list replaced by its elements (for reading inputs and outputs)."""
        out: list[Arg] = []
        for a in self.args:
            out.extend(a.items if a.kind == "gm_list" else (a,))
        return out

    def host_io(
        self,
    ) -> tuple[list[tuple[str, str, tuple[int, ...]]], list[tuple[str, str, tuple[int, ...]]]]:
        """(inputs, outputs) for the op_host TilingFunc as (name, dtype, shape); the elements of a tensor list share
        the list's name, so the host runner sees them as the instances of one dynamic input or output."""
        ins: list[tuple[str, str, tuple[int, ...]]] = []
        outs: list[tuple[str, str, tuple[int, ...]]] = []
        for a in self.args:
            for e in a.items if a.kind == "gm_list" else (a,):
                item = (a.name, e.dtype or "float32", e.shape or ())
                if e.kind in ("gm_in", "gm_inout"):
                    ins.append(item)
                elif e.kind == "gm_out":
                    outs.append(item)
        return ins, outs

    def absent_inputs(self) -> set[str]:
        """The optional inputs the call leaves out: no instance of them for the TilingFunc (GetOptionalInputShape
        returns nullptr, later inputs' instance indices move up), as CANN does for an optional input with no tensor."""
        return {a.name for a in self.args if a.absent}

    def host_values(self, limit: int = 4096) -> dict[str, bytes]:
        """The raw bytes of each small plain input (at most `limit` bytes), for a TilingFunc that reads an input's
        values (a value-depend input: Fill's dims)."""
        out: dict[str, bytes] = {}
        for a in self.args:
            if a.kind == "gm_in" and a.path is not None and a.nbytes <= limit and a.name not in out:
                try:
                    out[a.name] = np.ascontiguousarray(np.load(a.path, allow_pickle=False)).tobytes()
                except (OSError, ValueError):
                    continue
        return out

    def signature(self) -> list[dict[str, Any]]:
        """What the generated glue depends on (part of the build key)."""
        out: list[dict[str, Any]] = []
        for a in self.args:
            item: dict[str, Any] = {"kind": a.kind, "ctype": a.ctype}
            if a.tiling is not None:
                item["fields"] = sorted(a.tiling.fields)
                item["struct"] = a.tiling.struct
            out.append(item)
        return out
