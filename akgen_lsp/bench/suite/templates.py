"""The files every task of the bundled suite has, from its spec (`Spec`): the cases (test_cases.csv), the tiling header,
the OpDef, the question's empty kernel and block-dim-only host, and api_desc.md. The element-wise tasks
(`elementwise.py`) and the row-wise ones (`rows.py`, through a `Spec` of their own) share them."""

from __future__ import annotations

from dataclasses import dataclass, field

FLOAT_DTYPES = "{ge::DT_FLOAT16, ge::DT_BF16, ge::DT_FLOAT}"
FORMATS = "{ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND}"


@dataclass
class Spec:
    name: str  # CamelCase op name (folder)
    op: str  # snake_case (kernel entry, file names)
    level: int
    category: str
    summary: str  # one sentence for api_desc.md
    formula: str  # math for api_desc.md
    inputs: list[str]  # tensor inputs, in order
    compute: str  # C++ in the float domain: f[i] are the inputs, fz the result, calc the padded count
    numpy: str  # numpy expression over x0, x1, ... (float32) and attrs
    torch: str | None = None  # torch expression over the same names (module.py); None: numpy only
    attrs: dict[str, float] = field(default_factory=dict)  # float attributes with defaults
    out_dtype: str | None = None  # None: the input dtype; "bool" for comparisons
    bool_inputs: tuple[int, ...] = ()  # inputs that are bool tensors
    gen: str = "npref.randn(shape, dtype)"  # numpy input generator per input (may use i)
    extra_buffers: int = 0  # additional float work buffers tmp0..tmpN
    needs_mask: bool = False
    shapes: list[str] = field(default_factory=lambda: ["[48, 128, 64]", "[1000]", "[3, 7, 33]", "[1]"])
    no_input: bool = False  # tensor creation: the output shape comes from the case


DTYPES = ["float16", "bfloat16", "float32"]


def cases_csv(spec: Spec) -> str:
    rows = ["case_id;shape;dtype" + "".join(f";{a}" for a in spec.attrs)]
    i = 0
    for dt in DTYPES:
        for shape in spec.shapes:
            attr_vals = "".join(f";{v}" for v in spec.attrs.values())
            rows.append(f"{i};{shape};{dt}{attr_vals}")
            i += 1
    return "\n".join(rows) + "\n"


def tiling_header(spec: Spec, fields: list[tuple[str, str]]) -> str:
    lines = [
        f"// Tiling data of {spec.name} (akgen bundled suite).",
        "#pragma once",
        '#include "register/tilingdata_base.h"',
        "",
        "namespace optiling {",
        f"BEGIN_TILING_DATA_DEF({spec.name}TilingData)",
    ]
    lines += [f"    TILING_DATA_FIELD_DEF({t}, {n});" for t, n in fields]
    lines += [
        "END_TILING_DATA_DEF;",
        f"REGISTER_TILING_DATA_CLASS({spec.name}, {spec.name}TilingData)",
        "}  // namespace optiling",
        "",
    ]
    return "\n".join(lines)


def op_def(spec: Spec, inputs: list[str], outputs: list[str], out_dtypes: str) -> str:
    lines = [
        "namespace ops {",
        f"class {spec.name} : public OpDef {{",
        "public:",
        f"    explicit {spec.name}(const char* name) : OpDef(name)",
        "    {",
    ]
    for i, n in enumerate(inputs):
        dts = "{ge::DT_BOOL, ge::DT_BOOL, ge::DT_BOOL}" if i in spec.bool_inputs else FLOAT_DTYPES
        lines += [
            f'        this->Input("{n}")',
            "            .ParamType(REQUIRED)",
            f"            .DataType({dts})",
            f"            .Format({FORMATS});",
        ]
    for n in outputs:
        lines += [
            f'        this->Output("{n}")',
            "            .ParamType(REQUIRED)",
            f"            .DataType({out_dtypes})",
            f"            .Format({FORMATS});",
        ]
    for a, v in spec.attrs.items():
        lines.append(f'        this->Attr("{a}").AttrType(OPTIONAL).Float({v}f);')
    lines += [
        "        this->AICore().SetTiling(optiling::TilingFunc);",
        '        this->AICore().AddConfig("ascend910b");',
        "    }",
        "};",
        f"OP_ADD({spec.name});",
        "}  // namespace ops",
        "",
    ]
    return "\n".join(lines)


def attr_field(a: str) -> str:
    parts = a.split("_")
    return parts[0] + "".join(p.title() for p in parts[1:])


def question_kernel(spec: Spec, params: list[str]) -> str:
    gm = ", ".join(f"GM_ADDR {p}" for p in params)
    return (
        f'#include "kernel_operator.h"\nusing namespace AscendC;\n\nextern "C" __global__ __aicore__ void '
        f"{spec.op}({gm}, GM_ADDR workspace, GM_ADDR tiling)\n{{\n}}\n"
    )


def question_host(spec: Spec, inputs: list[str], outputs: list[str], out_dtypes: str) -> str:
    return f"""#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {{
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{{
    context->SetBlockDim(platform_ascendc::PlatformAscendCManager::GetInstance()->GetCoreNumAiv());
    return ge::GRAPH_SUCCESS;
}}
}}  // namespace optiling

{op_def(spec, inputs, outputs, out_dtypes)}"""


def api_desc(spec: Spec, inputs: list[str], outputs: list[str]) -> str:
    attrs = "".join(
        f"- `{a}` (float, default {v}): attribute, also a column of test_cases.csv.\n"
        for a, v in spec.attrs.items()
    )
    ins = "".join(
        f"- `{n}`: tensor, {'bool' if i in spec.bool_inputs else 'float16, bfloat16 or float32'}, "
        "ND, any shape (all inputs share one shape).\n"
        for i, n in enumerate(inputs)
    )
    if spec.no_input:
        ins = "- none: the output shape is the case's `shape`.\n"
    out_dt = "bool" if spec.out_dtype == "bool" else "the input dtype (the case's dtype for creation ops)"
    args = (
        ", ".join([*inputs, *spec.attrs]) if not spec.no_input else ", ".join(["shape", "dtype", *spec.attrs])
    )
    return f"""# {spec.name}

Level {spec.level}, {spec.category}. Part of akgen's bundled suite (written for akgen; NPUKernelBench layout).

## Semantics

{spec.summary}

    {spec.formula}

Compute in float32 and round the result to the output dtype (round to nearest even).

## Interface

```python
def {spec.op}({args}):
    ...
```

Kernel entry: `extern "C" __global__ __aicore__ void {spec.op}({", ".join(f"GM_ADDR {p}" for p in [*inputs, *outputs])},
GM_ADDR workspace, GM_ADDR tiling)`.

### Inputs
{ins}{attrs}
### Outputs
- `{outputs[0]}`: same shape as the inputs, dtype {out_dt}.

## Constraints

- Test shapes include lengths that are not a multiple of 32 bytes (`[1]`, `[3, 7, 33]`): handle the tail.
- Tolerance: NPUKernelBench's per-dtype rule, |diff| <= rtol * max(1, |ref|) with rtol 1/512 (fp16),
  1/256 + 1/16384 (bf16), 1/2048 + 1/16384 (fp32); bool outputs must match exactly.
"""
