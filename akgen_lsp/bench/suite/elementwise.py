"""Specs and templates of the bundled suite's element-wise tasks: one kernel shape (GM -> UB with DataCopyPad, compute in
float, cast back with CAST_RINT, UB -> GM), one host tiling (64-element aligned slices per vector core, 2048-element
tiles), and their validation files (inputs, numpy reference, PyTorch module). Used by generate.py."""

from __future__ import annotations

from akgen_lsp.bench.suite.templates import FLOAT_DTYPES, Spec, attr_field, op_def

ELEMENTWISE: list[Spec] = [
    Spec(
        "AddMath",
        "add_math",
        1,
        "Math",
        "Element-wise sum of two tensors of one shape.",
        "z_i = x_i + y_i",
        ["x", "y"],
        "Add(fz, f[0], f[1], calc);",
        "x0 + x1",
        "x0 + x1",
    ),
    Spec(
        "SubMath",
        "sub_math",
        1,
        "Math",
        "Element-wise difference of two tensors.",
        "z_i = x_i - y_i",
        ["x", "y"],
        "Sub(fz, f[0], f[1], calc);",
        "x0 - x1",
        "x0 - x1",
    ),
    Spec(
        "MulMath",
        "mul_math",
        1,
        "Math",
        "Element-wise product of two tensors.",
        "z_i = x_i * y_i",
        ["x", "y"],
        "Mul(fz, f[0], f[1], calc);",
        "x0 * x1",
        "x0 * x1",
    ),
    Spec(
        "DivMath",
        "div_math",
        1,
        "Math",
        "Element-wise quotient; the divisor stays away from zero.",
        "z_i = x_i / y_i",
        ["x", "y"],
        "Div(fz, f[0], f[1], calc);",
        "x0 / x1",
        "x0 / x1",
        gen="npref.randn(shape, dtype) if i == 0 else npref.uniform(shape, dtype, 0.5, 2.0)",
    ),
    Spec(
        "AbsMath",
        "abs_math",
        1,
        "Math",
        "Element-wise absolute value.",
        "y_i = |x_i|",
        ["x"],
        "Abs(fz, f[0], calc);",
        "np.abs(x0)",
        "torch.abs(x0)",
    ),
    Spec(
        "ExpMath",
        "exp_math",
        1,
        "Math",
        "Element-wise natural exponential.",
        "y_i = e^{x_i}",
        ["x"],
        "Exp(fz, f[0], calc);",
        "np.exp(x0)",
        "torch.exp(x0)",
        gen="npref.uniform(shape, dtype, -3.0, 3.0)",
    ),
    Spec(
        "SqrtMath",
        "sqrt_math",
        1,
        "Math",
        "Element-wise square root of positive inputs.",
        "y_i = sqrt(x_i)",
        ["x"],
        "Sqrt(fz, f[0], calc);",
        "np.sqrt(x0)",
        "torch.sqrt(x0)",
        gen="npref.uniform(shape, dtype, 0.1, 4.0)",
    ),
    Spec(
        "LogMath",
        "log_math",
        1,
        "Math",
        "Element-wise natural logarithm of positive inputs.",
        "y_i = ln(x_i)",
        ["x"],
        "Ln(fz, f[0], calc);",
        "np.log(x0)",
        "torch.log(x0)",
        gen="npref.uniform(shape, dtype, 0.1, 4.0)",
    ),
    Spec(
        "MaximumMath",
        "maximum_math",
        1,
        "Math",
        "Element-wise maximum of two tensors.",
        "z_i = max(x_i, y_i)",
        ["x", "y"],
        "Max(fz, f[0], f[1], calc);",
        "np.maximum(x0, x1)",
        "torch.maximum(x0, x1)",
    ),
    Spec(
        "AxpyMath",
        "axpy_math",
        1,
        "Math",
        "alpha times x plus y, alpha an attribute.",
        "z_i = alpha * x_i + y_i",
        ["x", "y"],
        "Muls(fz, f[0], alpha, calc);\n        Add(fz, fz, f[1], calc);",
        "np.float32(alpha) * x0 + x1",
        "alpha * x0 + x1",
        attrs={"alpha": 0.5},
    ),
    Spec(
        "EqualCompare",
        "equal_compare",
        1,
        "Comparison",
        "Element-wise equality; the result is bool.",
        "z_i = (x_i == y_i)",
        ["x", "y"],
        "Compare(mask, f[0], f[1], CMPMODE::EQ, calc);\n"
        "        Select(fz, mask, ones, zeros, SELMODE::VSEL_TENSOR_TENSOR_MODE, calc);",
        "x0 == x1",
        "torch.eq(x0, x1)",
        out_dtype="bool",
        needs_mask=True,
        gen="npref.cast(np.random.randint(-3, 4, shape).astype(np.float32), dtype)",
    ),
    Spec(
        "GreaterEqualCompare",
        "greater_equal_compare",
        1,
        "Comparison",
        "Element-wise x >= y; bool result.",
        "z_i = (x_i >= y_i)",
        ["x", "y"],
        "Compare(mask, f[0], f[1], CMPMODE::GE, calc);\n"
        "        Select(fz, mask, ones, zeros, SELMODE::VSEL_TENSOR_TENSOR_MODE, calc);",
        "x0 >= x1",
        "torch.ge(x0, x1)",
        out_dtype="bool",
        needs_mask=True,
        gen="npref.cast(np.random.randint(-3, 4, shape).astype(np.float32), dtype)",
    ),
    Spec(
        "ClampCondition",
        "clamp_condition",
        1,
        "Condition",
        "Clamp every element into [min_val, max_val].",
        "y_i = min(max(x_i, min_val), max_val)",
        ["x"],
        "Maxs(fz, f[0], minVal, calc);\n        Mins(fz, fz, maxVal, calc);",
        "np.minimum(np.maximum(x0, np.float32(min_val)), np.float32(max_val))",
        "torch.clamp(x0, min_val, max_val)",
        attrs={"min_val": -0.5, "max_val": 0.75},
    ),
    Spec(
        "WhereCondition",
        "where_condition",
        1,
        "Condition",
        "Pick x where cond is true, else y.",
        "z_i = cond_i ? x_i : y_i",
        ["cond", "x", "y"],
        "CompareScalar(mask, f[0], 0.5f, CMPMODE::GT, calc);\n"
        "        Select(fz, mask, f[1], f[2], SELMODE::VSEL_TENSOR_TENSOR_MODE, calc);",
        "np.where(x0 != 0, x1, x2)",
        "torch.where(x0, x1, x2)",
        bool_inputs=(0,),
        needs_mask=True,
        gen="(np.random.rand(*shape) > 0.5) if i == 0 else npref.randn(shape, dtype)",
    ),
    Spec(
        "FillCreation",
        "fill_creation",
        1,
        "TensorCreation",
        "A new tensor of the case's shape filled with value.",
        "y_i = value",
        [],
        "Duplicate(fz, value, calc);",
        "np.full(shape, np.float32(value), np.float32)",
        None,
        attrs={"value": 2.5},
        no_input=True,
    ),
    Spec(
        "ArangeCreation",
        "arange_creation",
        1,
        "TensorCreation",
        "A 1-d tensor start + i * step for i in [0, n); n is the number of elements of the case's shape.",
        "y_i = start + i * step",
        [],
        "CreateVecIndex(fz, static_cast<float>(globalOffset), calc);\n"
        "        Muls(fz, fz, step, calc);\n        Adds(fz, fz, start, calc);",
        "np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape) * np.float32(step) + np.float32(start)",
        None,
        attrs={"start": -3.0, "step": 0.25},
        no_input=True,
        shapes=["[4096]", "[1000]", "[3, 7, 33]", "[1]"],
    ),
    Spec(
        "GeluTanh",
        "gelu_tanh",
        2,
        "Activation",
        "GELU, tanh approximation (torch approximate='tanh').",
        "y = 0.5 x (1 + tanh(sqrt(2/pi) (x + 0.044715 x^3))) = x / (1 + exp(-2 sqrt(2/pi) (x + 0.044715 x^3)))",
        ["x"],
        "Mul(tmp0, f[0], f[0], calc);\n"
        "        Muls(tmp0, tmp0, 0.044715f, calc);\n"
        "        Adds(tmp0, tmp0, 1.0f, calc);\n"
        "        Mul(tmp0, tmp0, f[0], calc);\n"
        "        Muls(tmp0, tmp0, -1.5957691216057308f, calc);\n"
        "        Exp(tmp0, tmp0, calc);\n"
        "        Adds(tmp0, tmp0, 1.0f, calc);\n"
        "        Div(fz, f[0], tmp0, calc);",
        "x0 / (np.float32(1) + np.exp(np.float32(-1.5957691216057308) * (x0 * (np.float32(1) + "
        "np.float32(0.044715) * x0 * x0))))",
        "torch.nn.functional.gelu(x0, approximate='tanh')",
        extra_buffers=1,
    ),
    Spec(
        "SiluActivation",
        "silu_activation",
        2,
        "Activation",
        "SiLU (swish): x times sigmoid(x).",
        "y = x / (1 + e^{-x})",
        ["x"],
        "Muls(tmp0, f[0], -1.0f, calc);\n        Exp(tmp0, tmp0, calc);\n        Adds(tmp0, tmp0, 1.0f, calc);\n"
        "        Div(fz, f[0], tmp0, calc);",
        "x0 / (np.float32(1) + np.exp(-x0))",
        "torch.nn.functional.silu(x0)",
        extra_buffers=1,
    ),
    Spec(
        "LeakyReluActivation",
        "leaky_relu_activation",
        2,
        "Activation",
        "Leaky ReLU with negative_slope.",
        "y = x if x >= 0 else negative_slope * x",
        ["x"],
        "LeakyRelu(fz, f[0], negativeSlope, calc);",
        "np.where(x0 >= 0, x0, np.float32(negative_slope) * x0)",
        "torch.nn.functional.leaky_relu(x0, negative_slope)",
        attrs={"negative_slope": 0.01},
    ),
]


def ew_host(spec: Spec) -> str:
    fields = [("uint32_t", "totalLength"), ("uint32_t", "perCore"), ("uint32_t", "tileLength")]
    fields += [("float", attr_field(a)) for a in spec.attrs]
    shape_src = "GetOutputShape(0)" if spec.no_input else "GetInputShape(0)"
    attr_lines = []
    for i, (a, v) in enumerate(spec.attrs.items()):
        attr_lines.append(f"    const float* {attr_field(a)} = attrs ? attrs->GetFloat({i}) : nullptr;")
        attr_lines.append(f"    tiling.set_{attr_field(a)}({attr_field(a)} ? *{attr_field(a)} : {v}f);")
    attrs_block = (
        "    const gert::RuntimeAttrs* attrs = context->GetAttrs();\n" + "\n".join(attr_lines) + "\n"
        if spec.attrs
        else ""
    )
    inputs = spec.inputs
    out_dtypes = "{ge::DT_BOOL, ge::DT_BOOL, ge::DT_BOOL}" if spec.out_dtype == "bool" else FLOAT_DTYPES
    return f"""// Host side of {spec.name} (akgen bundled suite): tiling for an element-wise kernel.
//
// The elements are cut into slices of whole 64-element chunks, one slice per vector core (so every slice starts
// 32-byte aligned in any dtype up to 4 bytes), and each slice into tiles of at most TILE_LENGTH elements.
#include "{spec.op}_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {{
constexpr uint32_t ALIGN_ELEMS = 64;
constexpr uint32_t TILE_LENGTH = 2048;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{{
    {spec.name}TilingData tiling;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv();
    const uint64_t total = context->{shape_src}->GetStorageShape().GetShapeSize();
    const uint64_t chunks = (total + ALIGN_ELEMS - 1) / ALIGN_ELEMS;
    const uint64_t perCore = ((chunks + cores - 1) / cores) * ALIGN_ELEMS;
    const uint32_t used = perCore == 0 ? 1 : static_cast<uint32_t>((total + perCore - 1) / perCore);
    tiling.set_totalLength(static_cast<uint32_t>(total));
    tiling.set_perCore(static_cast<uint32_t>(perCore));
    tiling.set_tileLength(perCore < TILE_LENGTH ? static_cast<uint32_t>(perCore) : TILE_LENGTH);
{attrs_block}    context->SetBlockDim(used == 0 ? 1 : used);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}}
}}  // namespace optiling

{op_def(spec, inputs, ["y" if len(inputs) < 2 else "z"], out_dtypes)}"""


def ew_kernel(spec: Spec) -> str:
    n_in = len(spec.inputs)
    out_name = "y" if n_in < 2 else "z"
    out_t = "uint8_t" if spec.out_dtype == "bool" else "T"
    in_types = ["uint8_t" if i in spec.bool_inputs else "T" for i in range(n_in)]
    dtype_macro = (
        f"DTYPE_{spec.inputs[0].upper()}"
        if n_in and 0 not in spec.bool_inputs
        else (f"DTYPE_{spec.inputs[1].upper()}" if n_in > 1 else f"DTYPE_{out_name.upper()}")
    )
    gm_params = ", ".join(f"GM_ADDR {n}" for n in [*spec.inputs, out_name])
    init_params = ", ".join(f"GM_ADDR {n}" for n in [*spec.inputs, out_name])
    attr_members = "".join(f"    float {attr_field(a)} = 0;\n" for a in spec.attrs)
    attr_init = "".join(f"        this->{attr_field(a)} = {attr_field(a)};\n" for a in spec.attrs)
    attr_params = "".join(f", float {attr_field(a)}" for a in spec.attrs)
    attr_args = "".join(f", tilingData.{attr_field(a)}" for a in spec.attrs)
    set_gm = "".join(
        f"        gm{i}.SetGlobalBuffer((__gm__ {in_types[i]}*){n} + begin, len);\n"
        for i, n in enumerate(spec.inputs)
    )
    init_in = "".join(
        f"        pipe.InitBuffer(inQ{i}, BUFFER_NUM, tileLength * sizeof({in_types[i]}));\n"
        f"        pipe.InitBuffer(fBuf{i}, tileLength * sizeof(float));\n"
        for i in range(n_in)
    )
    extra = "".join(
        f"        pipe.InitBuffer(tmpBuf{j}, tileLength * sizeof(float));\n"
        for j in range(spec.extra_buffers)
    )
    mask_init = ""
    if spec.needs_mask:
        mask_init += "        pipe.InitBuffer(maskBuf, tileLength / 8 + 32);\n"
        if spec.out_dtype == "bool":
            mask_init += (
                "        pipe.InitBuffer(onesBuf, tileLength * sizeof(float));\n"
                "        pipe.InitBuffer(zerosBuf, tileLength * sizeof(float));\n"
            )
    mask_init += "        pipe.InitBuffer(halfBuf, tileLength * sizeof(half));\n"
    copy_in = "".join(
        f"        LocalTensor<{in_types[i]}> a{i} = inQ{i}.AllocTensor<{in_types[i]}>();\n"
        f"        DataCopyPad(a{i}, gm{i}[off], DataCopyExtParams{{1, static_cast<uint32_t>(n * sizeof({in_types[i]})), "
        f"0, 0, 0}}, DataCopyPadExtParams<{in_types[i]}>{{false, 0, 0, 0}});\n"
        f"        inQ{i}.EnQue(a{i});\n"
        for i in range(n_in)
    )
    deq = "".join(
        f"        LocalTensor<{in_types[i]}> a{i} = inQ{i}.DeQue<{in_types[i]}>();\n"
        f"        f[{i}] = fBuf{i}.Get<float>();\n"
        f"        ToFloat(f[{i}], a{i}, halfBuf, calc);\n"
        for i in range(n_in)
    )
    free_in = "".join(f"        inQ{i}.FreeTensor(a{i});\n" for i in range(n_in))
    tmp_get = "".join(
        f"        LocalTensor<float> tmp{j} = tmpBuf{j}.Get<float>();\n" for j in range(spec.extra_buffers)
    )
    mask_get = ""
    if spec.needs_mask:
        mask_get += "        LocalTensor<uint8_t> mask = maskBuf.Get<uint8_t>();\n"
        if spec.out_dtype == "bool":
            mask_get += (
                "        LocalTensor<float> ones = onesBuf.Get<float>();\n"
                "        LocalTensor<float> zeros = zerosBuf.Get<float>();\n"
                "        Duplicate(ones, 1.0f, calc);\n        Duplicate(zeros, 0.0f, calc);\n"
            )
    members_in = "".join(
        f"    TQue<TPosition::VECIN, BUFFER_NUM> inQ{i};\n    TBuf<TPosition::VECCALC> fBuf{i};\n"
        f"    GlobalTensor<{in_types[i]}> gm{i};\n"
        for i in range(n_in)
    )
    members_extra = "".join(f"    TBuf<TPosition::VECCALC> tmpBuf{j};\n" for j in range(spec.extra_buffers))
    if spec.needs_mask:
        members_extra += "    TBuf<TPosition::VECCALC> maskBuf;\n"
        if spec.out_dtype == "bool":
            members_extra += "    TBuf<TPosition::VECCALC> onesBuf;\n    TBuf<TPosition::VECCALC> zerosBuf;\n"
    members_extra += "    TBuf<TPosition::VECCALC> halfBuf;\n"
    call_args = ", ".join([*spec.inputs, out_name])
    return f"""// {spec.name} (akgen bundled suite): {spec.formula}.
//
// Each vector core takes one slice of perCore elements (the last one may be shorter) and walks it in tiles: GM -> UB
// with DataCopyPad (any length), widen to float, compute, round back with CAST_RINT, UB -> GM with DataCopyPad.
// Vector instructions run on the tile length rounded up to 64 elements (whole 256-byte repeats in float); the
// padding lanes are computed and never written back.
#include "kernel_operator.h"

using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t CALC_ALIGN = 64;

template <typename S>
__aicore__ inline void ToFloat(const LocalTensor<float>& dst, const LocalTensor<S>& src, TBuf<TPosition::VECCALC>& halfBuf,
                               uint32_t count)
{{
    if constexpr (std::is_same_v<S, float>) {{
        DataCopy(dst, src, count);
    }} else if constexpr (std::is_same_v<S, uint8_t>) {{
        LocalTensor<half> h = halfBuf.Get<half>();
        Cast(h, src, RoundMode::CAST_NONE, count);
        Cast(dst, h, RoundMode::CAST_NONE, count);
    }} else {{
        Cast(dst, src, RoundMode::CAST_NONE, count);
    }}
}}

template <typename D>
__aicore__ inline void FromFloat(const LocalTensor<D>& dst, const LocalTensor<float>& src, TBuf<TPosition::VECCALC>& halfBuf,
                                 uint32_t count)
{{
    if constexpr (std::is_same_v<D, float>) {{
        DataCopy(dst, src, count);
    }} else if constexpr (std::is_same_v<D, uint8_t>) {{
        LocalTensor<half> h = halfBuf.Get<half>();
        Cast(h, src, RoundMode::CAST_NONE, count);
        Cast(dst, h, RoundMode::CAST_ROUND, count);
    }} else {{
        Cast(dst, src, RoundMode::CAST_RINT, count);
    }}
}}

template <typename T>
class Kernel{spec.name} {{
public:
    __aicore__ inline Kernel{spec.name}() {{}}

    __aicore__ inline void Init({init_params}, uint32_t totalLength, uint32_t perCore, uint32_t tileLength{attr_params})
    {{
        const uint32_t begin = perCore * GetBlockIdx();
        len = begin >= totalLength ? 0 : (totalLength - begin < perCore ? totalLength - begin : perCore);
        offset = begin;
        tile = tileLength;
{attr_init}{set_gm}        outGm.SetGlobalBuffer((__gm__ {out_t}*){out_name} + begin, len);
{init_in}        pipe.InitBuffer(outQ, BUFFER_NUM, tileLength * sizeof({out_t}));
        pipe.InitBuffer(fzBuf, tileLength * sizeof(float));
{extra}{mask_init}    }}

    __aicore__ inline void Process()
    {{
        for (uint32_t off = 0; off < len; off += tile) {{
            const uint32_t n = len - off < tile ? len - off : tile;
            CopyIn(off, n);
            Compute(off, n);
            CopyOut(off, n);
        }}
    }}

private:
    __aicore__ inline void CopyIn(uint32_t off, uint32_t n)
    {{
{copy_in}    }}

    __aicore__ inline void Compute(uint32_t off, uint32_t n)
    {{
        const uint32_t calc = (n + CALC_ALIGN - 1) / CALC_ALIGN * CALC_ALIGN;
        LocalTensor<float> f[{max(n_in, 1)}];
{deq}        LocalTensor<float> fz = fzBuf.Get<float>();
{tmp_get}{mask_get}        const uint32_t globalOffset = offset + off;
        (void)globalOffset;
        {spec.compute}
        LocalTensor<{out_t}> out = outQ.AllocTensor<{out_t}>();
        FromFloat(out, fz, halfBuf, calc);
        outQ.EnQue(out);
{free_in}    }}

    __aicore__ inline void CopyOut(uint32_t off, uint32_t n)
    {{
        LocalTensor<{out_t}> out = outQ.DeQue<{out_t}>();
        DataCopyPad(outGm[off], out, DataCopyExtParams{{1, static_cast<uint32_t>(n * sizeof({out_t})), 0, 0, 0}});
        outQ.FreeTensor(out);
    }}

private:
    TPipe pipe;
{members_in}    TQue<TPosition::VECOUT, BUFFER_NUM> outQ;
    TBuf<TPosition::VECCALC> fzBuf;
{members_extra}    GlobalTensor<{out_t}> outGm;
{attr_members}    uint32_t len = 0;
    uint32_t offset = 0;
    uint32_t tile = 0;
}};

extern "C" __global__ __aicore__ void {spec.op}({gm_params}, GM_ADDR workspace, GM_ADDR tiling)
{{
    GET_TILING_DATA(tilingData, tiling);
    Kernel{spec.name}<{dtype_macro}> op;
    op.Init({call_args}, tilingData.totalLength, tilingData.perCore, tilingData.tileLength{attr_args});
    op.Process();
}}
"""


def prepare_inputs(spec: Spec) -> str:
    n = len(spec.inputs)
    body = f"    return tuple({spec.gen} for i in range({n}))\n" if n else "    return ()\n"
    out_dt = '"bool"' if spec.out_dtype == "bool" else 'param.get("dtype", "float16")'
    np_import = "import numpy as np\n\n" if "np." in spec.gen and n else ""
    shape_line = (
        '    shape = parse_shape(param.get("shape", "[1]"))\n    dtype = param.get("dtype", "float16")\n'
        if n
        else ""
    )
    return f'''"""Inputs of {spec.name} for one test case (numpy; the harness seeds numpy's generator)."""

{np_import}from akgen_lsp.bench import npref
from akgen_lsp.bench.tasks import parse_shape


def get_inputs(param, device=None):
{shape_line}{body}

def get_init_inputs(param, device=None):
    return []


def tolerance(param):
    return npref.tolerance({out_dt})


def flops(param):
    return npref.elements(parse_shape(param.get("shape", "[1]"))) * {max(1, spec.compute.count(";"))}
'''


def reference_np(spec: Spec) -> str:
    names = ", ".join(f"x{i}" for i in range(len(spec.inputs)))
    conv = "".join(f"    x{i} = f32(x{i})\n" for i in range(len(spec.inputs)))
    attrs = "".join(f'    {a} = float(param.get("{a}", {v}))\n' for a, v in spec.attrs.items())
    shape = '    shape = parse_shape(param.get("shape", "[1]"))\n' if "shape" in spec.numpy else ""
    out = (
        "np.asarray(result, dtype=bool)"
        if spec.out_dtype == "bool"
        else 'cast(np.asarray(result, dtype=np.float32), param.get("dtype", "float16"))'
    )
    sig = f"param, {names}" if names else "param"
    return f'''"""numpy reference of {spec.name}: compute in float32, round to the output dtype."""

import numpy as np

from akgen_lsp.bench.npref import cast, f32
from akgen_lsp.bench.tasks import parse_shape


def reference({sig}):
{shape}{conv}{attrs}    result = {spec.numpy}
    return {out}


__all__ = ["cast", "f32", "parse_shape", "reference"]
'''


def module_py(spec: Spec) -> str:
    names = ", ".join(f"x{i}" for i in range(len(spec.inputs)))
    attr_args = "".join(f", {a}={v}" for a, v in spec.attrs.items())
    attr_set = "".join(f"        self.{a} = {a}\n" for a in spec.attrs)
    attr_use = "".join(f"        {a} = self.{a}\n" for a in spec.attrs)
    imp = "import torch\n" if "torch." in (spec.torch or "") else ""
    return f'''"""PyTorch reference of {spec.name} (the same semantics as reference_np.py)."""

{imp}import torch.nn as nn


class Model(nn.Module):
    def __init__(self{attr_args}):
        super().__init__()
{attr_set or "        pass" + chr(10)}
    def forward(self, {names}):
{attr_use}        return {spec.torch}

'''
