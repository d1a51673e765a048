"""Write the generated part of the bundled suite (``tasks/``) from the specs below.

The suite is ours (nothing is copied from NPUKernelBench) and uses NPUKernelBench's layout. Element-wise tasks share
one kernel shape (GM -> UB with DataCopyPad, compute in float, cast back with CAST_RINT, UB -> GM) and one host
tiling (64-element aligned slices per vector core, 2048-element tiles); row-wise tasks (reductions, softmax, norms)
share another (whole rows per core). The matmul tasks are written by hand in ``tasks/level3`` and are not touched.

The specs and templates live beside this file: `elementwise.py` and `rows.py` (one family each), `templates.py`
(the files every task has). Run ``python -m akgen_lsp.bench.suite.generate`` after changing a spec; the output is
committed.
"""

from __future__ import annotations

from pathlib import Path

from akgen_lsp.bench.suite.elementwise import (
    ELEMENTWISE,
    ew_host,
    ew_kernel,
    module_py,
    prepare_inputs,
    reference_np,
)
from akgen_lsp.bench.suite.rows import ROWS, RowSpec, row_host, row_kernel
from akgen_lsp.bench.suite.templates import (
    FLOAT_DTYPES,
    Spec,
    api_desc,
    attr_field,
    cases_csv,
    op_def,
    question_host,
    question_kernel,
    tiling_header,
)

ROOT = Path(__file__).resolve().parent / "tasks"


def write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


def write_elementwise(spec: Spec) -> None:
    root = ROOT / f"level{spec.level}" / spec.category / spec.name
    inputs = spec.inputs
    outputs = ["y" if len(inputs) < 2 else "z"]
    out_dtypes = "{ge::DT_BOOL, ge::DT_BOOL, ge::DT_BOOL}" if spec.out_dtype == "bool" else FLOAT_DTYPES
    fields = [("uint32_t", "totalLength"), ("uint32_t", "perCore"), ("uint32_t", "tileLength")]
    fields += [("float", attr_field(a)) for a in spec.attrs]
    write(root / "api_desc.md", api_desc(spec, inputs, outputs))
    write(root / "question" / "op_kernel" / f"{spec.op}.cpp", question_kernel(spec, [*inputs, *outputs]))
    write(root / "question" / "op_host" / f"{spec.op}.cpp", question_host(spec, inputs, outputs, out_dtypes))
    write(root / "answer" / "0" / "op_kernel" / f"{spec.op}.cpp", ew_kernel(spec))
    write(root / "answer" / "0" / "op_host" / f"{spec.op}.cpp", ew_host(spec))
    write(root / "answer" / "0" / "op_host" / f"{spec.op}_tiling.h", tiling_header(spec, fields))
    write(root / "validation" / "test_cases.csv", cases_csv(spec))
    write(root / "validation" / "prepare_inputs.py", prepare_inputs(spec))
    write(root / "validation" / "reference_np.py", reference_np(spec))
    if spec.torch:
        write(root / "validation" / "module.py", module_py(spec))


def write_rows(spec: RowSpec) -> None:
    root = ROOT / "level2" / spec.category / spec.name
    inputs = ["x", *spec.params]
    outputs = ["y"]
    as_spec = Spec(
        spec.name,
        spec.op,
        2,
        spec.category,
        spec.summary,
        spec.formula,
        inputs,
        "",
        "",
        None,
        attrs=spec.attrs,
        shapes=spec.shapes,
    )
    fields = [("uint32_t", "rows"), ("uint32_t", "cols"), ("uint32_t", "rowsPerCore")]
    fields += [("float", a) for a in spec.attrs]
    desc = (
        api_desc(as_spec, inputs, outputs)
        .replace(
            "- Test shapes include lengths that are not a multiple of 32 bytes (`[1]`, `[3, 7, 33]`): handle the tail.",
            "- The last dimension has at most 4096 elements and need not be a multiple of 32 bytes (`[7, 333]`).",
        )
        .replace("(all inputs share one shape)", "(gamma and beta: the last dimension of x)")
    )
    if spec.reduces:
        desc = desc.replace("same shape as the inputs", "the shape of x without its last dimension")
    write(root / "api_desc.md", desc)
    write(root / "question" / "op_kernel" / f"{spec.op}.cpp", question_kernel(as_spec, [*inputs, *outputs]))
    write(
        root / "question" / "op_host" / f"{spec.op}.cpp",
        question_host(as_spec, inputs, outputs, FLOAT_DTYPES),
    )
    write(root / "answer" / "0" / "op_kernel" / f"{spec.op}.cpp", row_kernel(spec))
    write(
        root / "answer" / "0" / "op_host" / f"{spec.op}.cpp",
        row_host(spec, op_def(as_spec, inputs, outputs, FLOAT_DTYPES)),
    )
    write(root / "answer" / "0" / "op_host" / f"{spec.op}_tiling.h", tiling_header(as_spec, fields))
    write(root / "validation" / "test_cases.csv", cases_csv(as_spec))
    n_g = len(spec.params)
    gammas = "".join("        npref.randn(shape[-1:], dtype, 0.5) if True else None,\n" for _ in range(n_g))
    write(
        root / "validation" / "prepare_inputs.py",
        f'''"""Inputs of {spec.name} for one test case (numpy; the harness seeds numpy's generator)."""

from akgen_lsp.bench import npref
from akgen_lsp.bench.tasks import parse_shape


def get_inputs(param, device=None):
    shape = parse_shape(param.get("shape", "[1]"))
    dtype = param.get("dtype", "float16")
    return (
        npref.randn(shape, dtype),
{gammas.replace(" if True else None", "")}    )


def get_init_inputs(param, device=None):
    return []


def tolerance(param):
    return npref.tolerance(param.get("dtype", "float16"))


def flops(param):
    return npref.elements(parse_shape(param.get("shape", "[1]"))) * 5
''',
    )
    g_names = "".join(f", g{i}" for i in range(n_g))
    g_conv = "".join(f"    g{i} = f32(g{i})\n" for i in range(n_g))
    attrs = "".join(f'    {a} = float(param.get("{a}", {v}))\n' for a, v in spec.attrs.items())
    write(
        root / "validation" / "reference_np.py",
        f'''"""numpy reference of {spec.name}: compute in float32, round to the output dtype."""

import numpy as np

from akgen_lsp.bench.npref import cast, f32{", " + spec.numpy.split("(")[0] if spec.numpy.startswith(("layer_norm", "rms_norm")) else ""}


def reference(param, x{g_names}):
    x = f32(x)
{g_conv}{attrs}    result = {spec.numpy}
    return cast(np.asarray(result, dtype=np.float32), param.get("dtype", "float16"))
''',
    )
    if spec.torch:
        names = ", ".join(f"x{i}" for i in range(1 + n_g))
        attr_args = "".join(f", {a}={v}" for a, v in spec.attrs.items())
        attr_set = "".join(f"        self.{a} = {a}\n" for a in spec.attrs) or "        pass\n"
        attr_use = "".join(f"        {a} = self.{a}\n" for a in spec.attrs)
        write(
            root / "validation" / "module.py",
            f'''"""PyTorch reference of {spec.name} (the same semantics as reference_np.py)."""

import torch
import torch.nn as nn


class Model(nn.Module):
    def __init__(self{attr_args}):
        super().__init__()
{attr_set}
    def forward(self, {names}):
{attr_use}        return {spec.torch}
''',
        )


def main() -> None:
    for spec in ELEMENTWISE:
        write_elementwise(spec)
    for rspec in ROWS:
        write_rows(rspec)
    print(f"wrote {len(ELEMENTWISE)} element-wise and {len(ROWS)} row-wise tasks under {ROOT}")


if __name__ == "__main__":
    main()
