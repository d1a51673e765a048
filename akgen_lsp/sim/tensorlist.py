"""Tensor lists (CANN's TensorList: a dynamic input or output of a custom op) on the simulator.

The manifest's ``{"name": "x", "list": [...]}`` argument (see `akgen_lsp.sim.manifest`) becomes, in the launcher's
spec, one ``arg list NAME COUNT`` line followed by one line per element::

    elem MODE BYTES NDIM d0 ... d(NDIM-1) PATH

MODE is in, out or inout; PATH is the raw binary to read (in, inout) or to write (out, inout). The launcher gives
every element its own GM buffer and builds the descriptor the kernel receives, in CANN's layout:

    word 0                      byte offset from the descriptor start to the data-pointer array
    per tensor k                one word ``dim | k << 32``, then its ``dim`` sizes
    then                        one data pointer per tensor

(all words uint64), which is what ``AscendC::ListTensorDesc`` decodes and what the NPUKernelBench Foreach kernels read
by hand (``*(desc + (desc[0] >> 3) + k)``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np

from akgen_lsp.sim.manifest import DTYPES, Arg


def descriptor_words(shapes: list[tuple[int, ...]], pointers: list[int]) -> list[int]:
    """The descriptor of a list with these element shapes and data addresses, as uint64 words (the layout above);
    the launcher builds the same words in C++, this is its reference for tests and tools."""
    if len(shapes) != len(pointers):
        raise ValueError("one data pointer per tensor")
    words: list[int] = [0]
    for k, shape in enumerate(shapes):
        words.append(len(shape) | (k << 32))
        words.extend(int(d) for d in shape)
    words[0] = len(words) * 8
    words.extend(pointers)
    return words


def spec_lines(
    arg: Arg, run_dir: Path, raw_out: dict[str, Path], read_back_as: Sequence[str] | None = None
) -> list[str]:
    """The launcher spec lines of a gm_list argument; writes its input elements as raw binaries into `run_dir` and
    records where each output element will be (``raw_out["y[0]"]``...). With `read_back_as` (the element names of
    a ref output list that aliases this input list: ``arg ref``), the input elements are read and written in place
    and read back as those outputs."""
    lines = [f"arg list {arg.name} {len(arg.items)}"]
    for k, e in enumerate(arg.items):
        shape = e.shape or ()
        dims = " ".join(str(d) for d in shape)
        head = f"{len(shape)} {dims}".strip()
        if e.kind in ("gm_in", "gm_inout"):
            src = run_dir / f"{arg.name}.{k}.in.bin"
            arr = np.load(str(e.value), allow_pickle=False)
            np.ascontiguousarray(arr).astype(
                np.dtype(DTYPES[e.dtype or str(arr.dtype)][0]), copy=False
            ).tofile(src)
            mode = "in" if e.kind == "gm_in" else "inout"
            if e.kind == "gm_inout":
                raw_out[e.name] = src
            elif read_back_as is not None and k < len(read_back_as):
                mode = "inout"
                raw_out[read_back_as[k]] = src
            lines.append(f"elem {mode} {e.nbytes} {head} {src}")
        else:
            out = run_dir / f"{arg.name}.{k}.out.bin"
            raw_out[e.name] = out
            if e.init is not None:  # an element of a ref list: it starts with its input element's values
                arr = np.load(str(e.init), allow_pickle=False)
                np.ascontiguousarray(arr).astype(
                    np.dtype(DTYPES[e.dtype or str(arr.dtype)][0]), copy=False
                ).tofile(out)
                lines.append(f"elem inout {e.nbytes} {head} {out}")
            else:
                lines.append(f"elem out {e.nbytes} {head} {out}")
    return lines
