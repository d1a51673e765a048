"""Specs and templates of the bundled suite's row-wise tasks (reductions over the last dim, softmax, norms): each
vector core takes whole rows; a row (at most 4096 elements) is processed in UB at once. Used by generate.py."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class RowSpec:
    name: str
    op: str
    category: str
    summary: str
    formula: str
    params: list[str]  # gm inputs beyond x: "gamma", "beta" ([cols] vectors)
    row_body: str  # C++ per row; fx holds the row in float (calc lanes), cols valid; writes fy or result
    numpy: str  # numpy over x (float32 [rows, cols]) and gamma/beta, eps; returns float32
    torch: str | None
    reduces: bool = False  # output is [rows] (shape[:-1]) instead of the input shape
    attrs: dict[str, float] = field(default_factory=dict)
    shapes: list[str] = field(default_factory=lambda: ["[64, 1024]", "[7, 333]", "[3, 5, 100]", "[2, 4096]"])


SYNC_VS = (
    "event_t evVS = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::V_S));\n"
    "            SetFlag<HardEvent::V_S>(evVS);\n            WaitFlag<HardEvent::V_S>(evVS);"
)

ROWS: list[RowSpec] = [
    RowSpec(
        "ReduceSumLastDim",
        "reduce_sum_last_dim",
        "Reduce",
        "Sum over the last dimension.",
        "y[r] = sum_c x[r, c]",
        [],
        f"ReduceSum(red, fx, work, cols);\n            {SYNC_VS}\n            result = red.GetValue(0);",
        "x.sum(axis=-1, dtype=np.float32)",
        "torch.sum(x0.float(), dim=-1).to(x0.dtype)",
        reduces=True,
    ),
    RowSpec(
        "ReduceMaxLastDim",
        "reduce_max_last_dim",
        "Reduce",
        "Maximum over the last dimension.",
        "y[r] = max_c x[r, c]",
        [],
        f"ReduceMax(red, fx, work, cols);\n            {SYNC_VS}\n            result = red.GetValue(0);",
        "x.max(axis=-1)",
        "torch.amax(x0, dim=-1)",
        reduces=True,
    ),
    RowSpec(
        "SoftmaxLastDim",
        "softmax_last_dim",
        "Activation",
        "Softmax over the last dimension.",
        "y[r, c] = exp(x[r, c] - max_c x[r, :]) / sum_c exp(x[r, c] - max_c x[r, :])",
        [],
        f"ReduceMax(red, fx, work, cols);\n            {SYNC_VS}\n"
        "            const float rowMax = red.GetValue(0);\n"
        "            Adds(fx, fx, -rowMax, calc);\n            Exp(fx, fx, calc);\n"
        "            ReduceSum(red, fx, work, cols);\n"
        f"            {SYNC_VS.replace('evVS', 'evVS2')}\n"
        "            Muls(fx, fx, 1.0f / red.GetValue(0), calc);",
        "np.exp(x - x.max(axis=-1, keepdims=True)) / np.exp(x - x.max(axis=-1, keepdims=True))"
        ".sum(axis=-1, keepdims=True)",
        "torch.softmax(x0.float(), dim=-1).to(x0.dtype)",
    ),
    RowSpec(
        "LayerNormLastDim",
        "layer_norm_last_dim",
        "Norm",
        "Layer normalisation over the last dimension with weight gamma and bias beta ([cols], input dtype).",
        "y = (x - mean) / sqrt(var + eps) * gamma + beta (biased variance)",
        ["gamma", "beta"],
        f"ReduceSum(red, fx, work, cols);\n            {SYNC_VS}\n"
        "            const float mean = red.GetValue(0) / static_cast<float>(cols);\n"
        "            Adds(fx, fx, -mean, calc);\n            Mul(tmp, fx, fx, calc);\n"
        "            ReduceSum(red, tmp, work, cols);\n"
        f"            {SYNC_VS.replace('evVS', 'evVS2')}\n"
        "            Duplicate(tmp, red.GetValue(0) / static_cast<float>(cols) + eps, CALC_ALIGN);\n"
        "            Sqrt(tmp, tmp, CALC_ALIGN);\n"
        f"            {SYNC_VS.replace('evVS', 'evVS3')}\n"
        "            Muls(fx, fx, 1.0f / tmp.GetValue(0), calc);\n"
        "            Mul(fx, fx, fg[0], calc);\n            Add(fx, fx, fg[1], calc);",
        "layer_norm(x, g0, g1, eps)",
        "torch.nn.functional.layer_norm(x0.float(), (x0.shape[-1],), x1.float(), x2.float(), eps).to(x0.dtype)",
        attrs={"eps": 1e-5},
    ),
    RowSpec(
        "RmsNormLastDim",
        "rms_norm_last_dim",
        "Norm",
        "RMS normalisation over the last dimension with weight gamma ([cols], input dtype).",
        "y = x / sqrt(mean(x^2) + eps) * gamma",
        ["gamma"],
        "Mul(tmp, fx, fx, calc);\n            ReduceSum(red, tmp, work, cols);\n"
        f"            {SYNC_VS}\n"
        "            Duplicate(tmp, red.GetValue(0) / static_cast<float>(cols) + eps, CALC_ALIGN);\n"
        "            Sqrt(tmp, tmp, CALC_ALIGN);\n"
        f"            {SYNC_VS.replace('evVS', 'evVS2')}\n"
        "            Muls(fx, fx, 1.0f / tmp.GetValue(0), calc);\n            Mul(fx, fx, fg[0], calc);",
        "rms_norm(x, g0, eps)",
        "(x0.float() * torch.rsqrt(x0.float().pow(2).mean(-1, keepdim=True) + eps) * x1.float()).to(x0.dtype)",
        attrs={"eps": 1e-6},
    ),
]


def row_kernel(spec: RowSpec) -> str:
    gm = ", ".join(f"GM_ADDR {p}" for p in ["x", *spec.params, "y"])
    n_g = len(spec.params)
    g_members = "".join(f"    GlobalTensor<T> gGm{i};\n" for i in range(n_g))
    g_set = "".join(
        f"        gGm{i}.SetGlobalBuffer((__gm__ T*){p}, cols);\n" for i, p in enumerate(spec.params)
    )
    g_load = "".join(
        f"        {{\n            LocalTensor<T> g = inQ.AllocTensor<T>();\n"
        f"            DataCopyPad(g, gGm{i}, DataCopyExtParams{{1, static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0}},"
        f" DataCopyPadExtParams<T>{{false, 0, 0, 0}});\n"
        f"            inQ.EnQue(g);\n            g = inQ.DeQue<T>();\n"
        f"            fg[{i}] = gBuf{i}.Get<float>();\n            ToFloat(fg[{i}], g, calc);\n"
        f"            inQ.FreeTensor(g);\n        }}\n"
        for i in range(n_g)
    )
    g_bufs = "".join(f"        pipe.InitBuffer(gBuf{i}, calcMax * sizeof(float));\n" for i in range(n_g))
    g_buf_members = "".join(f"    TBuf<TPosition::VECCALC> gBuf{i};\n" for i in range(n_g))
    attr_params = "".join(f", float {a}" for a in spec.attrs)
    attr_init = "".join(f"        this->{a} = {a};\n" for a in spec.attrs)
    attr_members = "".join(f"    float {a} = 0;\n" for a in spec.attrs)
    attr_args = "".join(f", tilingData.{a}" for a in spec.attrs)
    if spec.reduces:
        per_row_out = "            results.SetValue(r - chunkStart, result);\n"
        flush = """
    __aicore__ inline void Flush(uint32_t chunkStart, uint32_t count)
    {
        event_t evSV = static_cast<event_t>(GetTPipePtr()->FetchEventID(HardEvent::S_V));
        SetFlag<HardEvent::S_V>(evSV);
        WaitFlag<HardEvent::S_V>(evSV);
        LocalTensor<T> out = outQ.AllocTensor<T>();
        FromFloat(out, results, (count + CALC_ALIGN - 1) / CALC_ALIGN * CALC_ALIGN);
        outQ.EnQue(out);
        out = outQ.DeQue<T>();
        DataCopyPad(yGm[chunkStart - rowStart], out,
                    DataCopyExtParams{1, static_cast<uint32_t>(count * sizeof(T)), 0, 0, 0});
        outQ.FreeTensor(out);
    }
"""
        process = """        for (uint32_t chunkStart = rowStart; chunkStart < rowEnd; chunkStart += OUT_CHUNK) {
            const uint32_t chunkEnd = rowEnd - chunkStart < OUT_CHUNK ? rowEnd : chunkStart + OUT_CHUNK;
            for (uint32_t r = chunkStart; r < chunkEnd; ++r) {
                Row(r, chunkStart);
            }
            Flush(chunkStart, chunkEnd - chunkStart);
        }"""
        y_set = "        yGm.SetGlobalBuffer((__gm__ T*)y + rowStart, rowEnd - rowStart);\n"
        out_buf = (
            "        pipe.InitBuffer(outQ, 1, OUT_CHUNK * sizeof(T));\n"
            "        pipe.InitBuffer(resBuf, OUT_CHUNK * sizeof(float));\n"
        )
        res_member = "    TBuf<TPosition::VECCALC> resBuf;\n    LocalTensor<float> results;\n"
        res_get = "        results = resBuf.Get<float>();\n"
        result_decl = "            float result = 0;\n"
        row_out = per_row_out
    else:
        flush = ""
        process = """        for (uint32_t r = rowStart; r < rowEnd; ++r) {
            Row(r, rowStart);
        }"""
        y_set = (
            "        yGm.SetGlobalBuffer((__gm__ T*)y + static_cast<uint64_t>(rowStart) * cols, "
            "(rowEnd - rowStart) * cols);\n"
        )
        out_buf = "        pipe.InitBuffer(outQ, 1, calcMax * sizeof(T));\n"
        res_member = ""
        res_get = ""
        result_decl = ""
        row_out = """            LocalTensor<T> out = outQ.AllocTensor<T>();
            FromFloat(out, fx, calc);
            outQ.EnQue(out);
            out = outQ.DeQue<T>();
            DataCopyPad(yGm[static_cast<uint64_t>(r - rowStart) * cols], out,
                        DataCopyExtParams{1, static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0});
            outQ.FreeTensor(out);
"""
    return f"""// {spec.name} (akgen bundled suite): {spec.formula}.
//
// Rows are dealt to vector cores in contiguous ranges of rowsPerCore; a row of `cols` elements (at most 4096) is
// brought into UB with DataCopyPad, widened to float and processed whole. Element-wise instructions run on `calc`
// lanes (cols rounded up to 64), reductions on exactly `cols` elements so the padding never counts.
#include "kernel_operator.h"

using namespace AscendC;

constexpr uint32_t CALC_ALIGN = 64;
constexpr uint32_t OUT_CHUNK = 1024;

template <typename S>
__aicore__ inline void ToFloat(const LocalTensor<float>& dst, const LocalTensor<S>& src, uint32_t count)
{{
    if constexpr (std::is_same_v<S, float>) {{
        DataCopy(dst, src, count);
    }} else {{
        Cast(dst, src, RoundMode::CAST_NONE, count);
    }}
}}

template <typename D>
__aicore__ inline void FromFloat(const LocalTensor<D>& dst, const LocalTensor<float>& src, uint32_t count)
{{
    if constexpr (std::is_same_v<D, float>) {{
        DataCopy(dst, src, count);
    }} else {{
        Cast(dst, src, RoundMode::CAST_RINT, count);
    }}
}}

template <typename T>
class Kernel{spec.name} {{
public:
    __aicore__ inline Kernel{spec.name}() {{}}

    __aicore__ inline void Init({gm}, uint32_t rows, uint32_t cols, uint32_t rowsPerCore{attr_params})
    {{
        this->cols = cols;
{attr_init}        rowStart = rowsPerCore * GetBlockIdx();
        rowStart = rowStart < rows ? rowStart : rows;
        rowEnd = rows - rowStart < rowsPerCore ? rows : rowStart + rowsPerCore;
        calcMax = (cols + CALC_ALIGN - 1) / CALC_ALIGN * CALC_ALIGN;
        xGm.SetGlobalBuffer((__gm__ T*)x + static_cast<uint64_t>(rowStart) * cols, (rowEnd - rowStart) * cols);
{g_set}{y_set}        pipe.InitBuffer(inQ, 1, calcMax * sizeof(T));
{out_buf}        pipe.InitBuffer(xBuf, calcMax * sizeof(float));
        pipe.InitBuffer(tmpBuf, calcMax * sizeof(float));
        pipe.InitBuffer(workBuf, calcMax * sizeof(float));
        pipe.InitBuffer(redBuf, CALC_ALIGN * sizeof(float));
{g_bufs}    }}

    __aicore__ inline void Process()
    {{
        if (rowStart >= rowEnd) {{
            return;
        }}
        const uint32_t calc = calcMax;
{res_get}{g_load}{process}
    }}

private:
    __aicore__ inline void Row(uint32_t r, uint32_t chunkStart)
    {{
        (void)chunkStart;
        const uint32_t calc = calcMax;
        LocalTensor<T> a = inQ.AllocTensor<T>();
        DataCopyPad(a, xGm[static_cast<uint64_t>(r - rowStart) * cols],
                    DataCopyExtParams{{1, static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0}},
                    DataCopyPadExtParams<T>{{false, 0, 0, 0}});
        inQ.EnQue(a);
        a = inQ.DeQue<T>();
        LocalTensor<float> fx = xBuf.Get<float>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        LocalTensor<float> work = workBuf.Get<float>();
        LocalTensor<float> red = redBuf.Get<float>();
        (void)tmp;
        ToFloat(fx, a, calc);
        inQ.FreeTensor(a);
        {{
{result_decl}            {spec.row_body}
{row_out}        }}
    }}
{flush}
private:
    TPipe pipe;
    TQue<TPosition::VECIN, 1> inQ;
    TQue<TPosition::VECOUT, 1> outQ;
    TBuf<TPosition::VECCALC> xBuf;
    TBuf<TPosition::VECCALC> tmpBuf;
    TBuf<TPosition::VECCALC> workBuf;
    TBuf<TPosition::VECCALC> redBuf;
{g_buf_members}{res_member}    GlobalTensor<T> xGm;
{g_members}    GlobalTensor<T> yGm;
    LocalTensor<float> fg[{max(n_g, 1)}];
{attr_members}    uint32_t cols = 0;
    uint32_t rowStart = 0;
    uint32_t rowEnd = 0;
    uint32_t calcMax = 0;
}};

extern "C" __global__ __aicore__ void {spec.op}({gm}, GM_ADDR workspace, GM_ADDR tiling)
{{
    GET_TILING_DATA(tilingData, tiling);
    Kernel{spec.name}<DTYPE_X> op;
    op.Init({", ".join(["x", *spec.params, "y"])}, tilingData.rows, tilingData.cols, tilingData.rowsPerCore{attr_args});
    op.Process();
}}
"""


def row_host(spec: RowSpec, op_def: str) -> str:
    attr_lines = "".join(
        f"    const float* {a} = attrs ? attrs->GetFloat({i}) : nullptr;\n"
        f"    tiling.set_{a}({a} ? *{a} : {v}f);\n"
        for i, (a, v) in enumerate(spec.attrs.items())
    )
    attrs_block = (
        ("    const gert::RuntimeAttrs* attrs = context->GetAttrs();\n" + attr_lines) if spec.attrs else ""
    )
    return f"""// Host side of {spec.name} (akgen bundled suite): whole rows per vector core.
#include "{spec.op}_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {{
constexpr uint32_t MAX_COLS = 4096;

static ge::graphStatus TilingFunc(gert::TilingContext* context)
{{
    {spec.name}TilingData tiling;
    auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
    const uint32_t cores = platform.GetCoreNumAiv();
    const gert::Shape& shape = context->GetInputShape(0)->GetStorageShape();
    const size_t dims = shape.GetDimNum();
    const uint64_t cols = dims == 0 ? 1 : shape.GetDim(dims - 1);
    const uint64_t rows = cols == 0 ? 0 : shape.GetShapeSize() / cols;
    if (cols == 0 || cols > MAX_COLS) {{
        return ge::GRAPH_FAILED;
    }}
    const uint64_t rowsPerCore = (rows + cores - 1) / cores;
    const uint32_t used = rowsPerCore == 0 ? 1 : static_cast<uint32_t>((rows + rowsPerCore - 1) / rowsPerCore);
    tiling.set_rows(static_cast<uint32_t>(rows));
    tiling.set_cols(static_cast<uint32_t>(cols));
    tiling.set_rowsPerCore(static_cast<uint32_t>(rowsPerCore == 0 ? 1 : rowsPerCore));
{attrs_block}    context->SetBlockDim(used);
    tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
    context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
    size_t* workspace = context->GetWorkspaceSizes(1);
    workspace[0] = 0;
    return ge::GRAPH_SUCCESS;
}}
}}  // namespace optiling

{op_def}"""
