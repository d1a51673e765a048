"""The syntax layer: masking that keeps offsets, error-free trees on real-world constructs, the file's model
(declarations, functions, classes, calls with resolved names and receiver types), const_eval, robustness."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from akgen_lsp.ascendc.catalog import Catalog, load_catalog_dir
from akgen_lsp.ascendc.syntax import (
    calls,
    classes,
    const_eval,
    declarations,
    error_nodes,
    expr_type,
    foreign_names_possible,
    functions,
    kernel_entries,
    lookup,
    macros,
    mask_device_code,
    parse,
    qualified_refs,
    user_defined_names,
    walk,
)

KERNEL = """\
#include "kernel_operator.h"
using namespace AscendC;

constexpr int32_t BUFFER_NUM = 2;
constexpr uint32_t TILE_LENGTH = 128;
#define BLOCK_BYTES 32

class KernelAdd {
public:
    __aicore__ inline KernelAdd() {}
    __aicore__ inline void Init(GM_ADDR x, GM_ADDR z, uint32_t totalLength)
    {
        blockLength = totalLength / GetBlockNum();
        xGm.SetGlobalBuffer((__gm__ half *)x + blockLength * GetBlockIdx(), blockLength);
        zGm.SetGlobalBuffer((__gm__ half *)z + blockLength * GetBlockIdx(), blockLength);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE_LENGTH * sizeof(half));
        pipe.InitBuffer(outQueueZ, BUFFER_NUM, TILE_LENGTH * sizeof(half));
        pipe.InitBuffer(tmpBuf, TILE_LENGTH * sizeof(float));
    }
    __aicore__ inline void Process()
    {
        for (int32_t i = 0; i < 4; i++) {
            CopyIn(i);
            Compute(i);
            CopyOut(i);
        }
    }

private:
    __aicore__ inline void CopyIn(int32_t progress)
    {
        LocalTensor<half> xLocal = inQueueX.AllocTensor<half>();
        DataCopy(xLocal, xGm[progress * TILE_LENGTH], TILE_LENGTH);
        inQueueX.EnQue(xLocal);
    }
    __aicore__ inline void Compute(int32_t progress)
    {
        auto xLocal = inQueueX.DeQue<half>();
        LocalTensor<half> zLocal = outQueueZ.AllocTensor<half>();
        LocalTensor<float> tmp = tmpBuf.Get<float>();
        AscendC::Adds(zLocal, xLocal, (half)1, TILE_LENGTH);
        outQueueZ.EnQue<half>(zLocal);
        inQueueX.FreeTensor(xLocal);
    }
    __aicore__ inline void CopyOut(int32_t progress)
    {
        LocalTensor<half> zLocal = outQueueZ.DeQue<half>();
        DataCopy(zGm[progress * TILE_LENGTH], zLocal, TILE_LENGTH);
        outQueueZ.FreeTensor(zLocal);
        int32_t eventId = static_cast<int32_t>(GetTPipePtr()->FetchEventID(HardEvent::MTE3_V));
        SetFlag<HardEvent::MTE3_V>(eventId);
    }

private:
    TPipe pipe;
    TQue<QuePosition::VECIN, BUFFER_NUM> inQueueX;
    TQue<QuePosition::VECOUT, BUFFER_NUM> outQueueZ;
    TBuf<QuePosition::VECCALC> tmpBuf;
    GlobalTensor<half> xGm;
    GlobalTensor<half> zGm;
    uint32_t blockLength;
};

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR z, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelAdd op;
    op.Init(x, z, 4096);
    op.Process();
}

#ifndef ASCENDC_CPU_DEBUG
void add_custom_do(uint32_t blockDim, void *stream, uint8_t *x, uint8_t *z)
{
    add_custom<<<blockDim, nullptr, stream>>>(x, z, nullptr, nullptr);
}
#endif
"""

CATALOG_TOML = """
[[entry]]
name = "AscendC::TQueBind"
kind = "class"

[[entry]]
name = "AscendC::TQue"
kind = "class"
bases = ["AscendC::TQueBind"]

[[entry]]
name = "AscendC::TQueBind::AllocTensor"
kind = "method"
  [[entry.overload]]
  template = "template <typename T>"
  signature = "LocalTensor<T> AllocTensor()"

[[entry]]
name = "AscendC::TQueBind::DeQue"
kind = "method"
  [[entry.overload]]
  template = "template <typename T>"
  signature = "LocalTensor<T> DeQue()"

[[entry]]
name = "AscendC::TQueBind::EnQue"
kind = "method"
  [[entry.overload]]
  signature = "bool EnQue(const LocalTensor<T>& tensor)"

[[entry]]
name = "AscendC::TQueBind::FreeTensor"
kind = "method"
  [[entry.overload]]
  signature = "void FreeTensor(LocalTensor<T>& tensor)"

[[entry]]
name = "AscendC::TPipe"
kind = "class"

[[entry]]
name = "AscendC::TPipe::InitBuffer"
kind = "method"
  [[entry.overload]]
  signature = "bool InitBuffer(T& que, uint8_t num, uint32_t len)"
  [[entry.overload]]
  signature = "bool InitBuffer(TBuf<pos>& buf, uint32_t len)"

[[entry]]
name = "AscendC::TPipe::FetchEventID"
kind = "method"
  [[entry.overload]]
  signature = "TEventID FetchEventID(HardEvent evt)"

[[entry]]
name = "AscendC::TBuf"
kind = "class"

[[entry]]
name = "AscendC::TBuf::Get"
kind = "method"
  [[entry.overload]]
  template = "template <typename T>"
  signature = "LocalTensor<T> Get()"

[[entry]]
name = "AscendC::LocalTensor"
kind = "class"

[[entry]]
name = "AscendC::GlobalTensor"
kind = "class"

[[entry]]
name = "AscendC::GlobalTensor::SetGlobalBuffer"
kind = "method"
  [[entry.overload]]
  signature = "void SetGlobalBuffer(__gm__ T* buffer, uint64_t bufferSize)"

[[entry]]
name = "AscendC::DataCopy"
kind = "function"
  [[entry.overload]]
  signature = "void DataCopy(const LocalTensor<T>& dst, const GlobalTensor<T>& src, const uint32_t count)"

[[entry]]
name = "AscendC::Adds"
kind = "function"
  [[entry.overload]]
  signature = "void Adds(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue, const int32_t& count)"

[[entry]]
name = "AscendC::GetBlockNum"
kind = "function"
  [[entry.overload]]
  signature = "int64_t GetBlockNum()"

[[entry]]
name = "AscendC::GetBlockIdx"
kind = "function"
  [[entry.overload]]
  signature = "int64_t GetBlockIdx()"

[[entry]]
name = "AscendC::SetFlag"
kind = "function"
  [[entry.overload]]
  template = "template <HardEvent event>"
  signature = "void SetFlag(int32_t eventID)"

[[entry]]
name = "GetTPipePtr"
kind = "function"
  [[entry.overload]]
  signature = "AscendC::TPipe* GetTPipePtr()"
"""


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    with tempfile.TemporaryDirectory() as tmp:
        (Path(tmp) / "core.toml").write_text(CATALOG_TOML, encoding="utf-8")
        return load_catalog_dir(Path(tmp))


# ------------------------------------------------------------------------------------------------ masking


def _same_shape(a: str, b: str) -> None:
    assert len(a) == len(b)
    assert [i for i, c in enumerate(a) if c == "\n"] == [i for i, c in enumerate(b) if c == "\n"]


def test_masking_keeps_every_offset_and_newline() -> None:
    masked = mask_device_code(KERNEL)
    _same_shape(KERNEL, masked)
    assert "__aicore__" not in masked and "__gm__" not in masked and "<<<" not in masked
    # everything that is not blanked is unchanged
    changed = [i for i, (a, b) in enumerate(zip(KERNEL, masked, strict=True)) if a != b]
    assert changed and all(masked[i] == " " for i in changed)


def test_masking_non_ascii_text_keeps_offsets() -> None:
    text = "// 中文注释 __aicore__\n__aicore__ inline void f() { int a = 1; } // 结束\n"
    masked = mask_device_code(text)
    _same_shape(text, masked)
    pf = parse(text)
    fn = functions(pf)[0]
    assert pf.span(fn.name_node).line == 2
    assert pf.span(fn.name_node).column == text.splitlines()[1].index("f()") + 1


def test_the_kernel_parses_without_error_nodes() -> None:
    pf = parse(KERNEL)
    assert error_nodes(pf) == []


def test_launch_with_template_and_arrow_inside_is_masked() -> None:
    text = "void h(Ctx* ctx) { add_custom<16><<<8, 0, ctx->GetStream()>>>(x, y); }\n"
    pf = parse(text)
    assert error_nodes(pf) == []
    assert "<<<" not in pf.masked


TRICKY = {
    "else_if_chain_split_by_if": """
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR tiling) {
    if (TILING_KEY_IS(1)) {
        Run<half>(x);
    } else if (TILING_KEY_IS(2)) {
        Run<float>(x);
    }
#if __CCE_AICORE__ == 220
    else if (TILING_KEY_IS(3)) {
        Run<bfloat16_t>(x);
    }
#endif
}
""",
    "assert_without_semicolon": """
__aicore__ inline void Init(uint32_t n) {
    ASSERT(GetBlockNum() != 0 && "block dim can not be zero!")
    uint32_t tile = n
    ASSERT(tile != 0);
}
""",
    "template_member_call_without_arguments": """
template <typename Q, typename T> __aicore__ inline void Drop(Q& q, T& t) {
    q.template FreeTensor(t);
    auto u = q.template DeQue<T>();
}
""",
    "forceinline_aicore_attribute": """
template <typename T> __forceinline__ [aicore] T Twice(T v) { return v + v; }
""",
    "statement_macro_with_type_argument": """
#define RUN_OP(cls, ...) do { cls<__VA_ARGS__> op; op.Process(); } while (0)
extern "C" __global__ __aicore__ void k(GM_ADDR x) {
    RUN_OP(KernelFoo, float);
    RUN_OP(KernelFoo, half);
}
""",
    "pointer_to_member_call": """
class K { public: void A(int); __aicore__ void Go(K* self, Fn fn) { (self->*fn)(3); (*self.*fn)(4); } };
""",
    "if_core_type_macro": """
__aicore__ void k() {
    if ASCEND_IS_AIC {
        Cube();
    } else {
        Vec();
    }
}
""",
    "tiling_data_macros": """
namespace optiling {
BEGIN_TILING_DATA_DEF(AddTilingData)
TILING_DATA_FIELD_DEF(uint32_t, totalLength);
TILING_DATA_FIELD_DEF_ARR(uint32_t, 8, shape);
TILING_DATA_FIELD_DEF_STRUCT(SoftMaxTiling, softmax);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(Add, AddTilingData)
}
""",
    "attribute_macro": """
#define DEVICE_FN __aicore__ inline
DEVICE_FN uint32_t CeilDivide(uint32_t a, uint32_t b) { return (a + b - 1) / b; }
""",
    "operator_call_specialisation": """
struct Block {
    template <int C> __aicore__ void operator()(int& p);
};
template <> __forceinline__ [aicore] void Block::operator()<1>(int& p) { p++; }
__aicore__ void Run(Block& b, int& p) { b.template operator()<1>(p); }
""",
    "launch_bounds_and_new_keywords": """
__simt_vf__ __launch_bounds__(256) inline void g(__gm__ float* a) {}
__global__ __aicore__ void k(__gm__ uint8_t* __kfc_workspace__ ws) {}
""",
    "function_head_split_by_if_else": """
#if SCENARIO == 2
extern "C" __global__ __cube__ void k(GM_ADDR a, GM_ADDR b)
#else
extern "C" __global__ __aicore__ void k(GM_ADDR a)
#endif
{
    Run(a);
}
""",
}


@pytest.mark.parametrize("name", sorted(TRICKY))
def test_tricky_constructs_parse_without_error_nodes(name: str) -> None:
    text = TRICKY[name]
    pf = parse(text)
    _same_shape(text, pf.masked)
    assert error_nodes(pf) == [], pf.root


def test_if_zero_branch_is_dropped_and_single_branch_kept() -> None:
    text = "#if 0\nthis is not code (\n#endif\n#ifdef X\nint kept = 1;\n#endif\n"
    pf = parse(text)
    assert error_nodes(pf) == []
    assert lookup(pf, "kept") is not None
    assert "not code" not in pf.masked


def test_tiling_macros_read_as_a_struct_with_fields() -> None:
    pf = parse(TRICKY["tiling_data_macros"])
    (cls,) = classes(pf)
    assert cls.name == "AddTilingData"
    assert [(f.name, f.type_name) for f in cls.fields] == [
        ("totalLength", "uint32_t"), ("shape", "uint32_t"), ("softmax", "SoftMaxTiling"),
    ]
    assert "AddTilingData" in user_defined_names(pf)


# ------------------------------------------------------------------------------------------------ the model


def test_declarations_of_fields_locals_and_params() -> None:
    pf = parse(KERNEL)
    by = {(d.name, d.kind) for d in declarations(pf)}
    assert ("inQueueX", "field") in by and ("progress", "param") in by and ("xLocal", "local") in by
    assert ("BUFFER_NUM", "global") in by
    q = next(d for d in declarations(pf) if d.name == "inQueueX")
    assert q.type_name == "TQue" and q.template_args == ("QuePosition::VECIN", "BUFFER_NUM") and q.owner == "KernelAdd"
    g = next(d for d in declarations(pf) if d.name == "BUFFER_NUM")
    assert g.is_constexpr and g.init is not None and pf.node_text(g.init) == "2"


def test_functions_classes_and_kernel_entries() -> None:
    pf = parse(KERNEL)
    (kernel,) = kernel_entries(pf)
    assert kernel.name == "add_custom" and [p.name for p in kernel.params] == ["x", "z", "workspace", "tiling"]
    (cls,) = classes(pf)
    assert cls.name == "KernelAdd"
    assert [m.name for m in cls.methods] == ["KernelAdd", "Init", "Process", "CopyIn", "Compute", "CopyOut"]
    assert [f.name for f in cls.fields][:3] == ["pipe", "inQueueX", "outQueueZ"]
    assert cls.field("tmpBuf") is not None and cls.field("tmpBuf").type_name == "TBuf"  # type: ignore[union-attr]
    host = next(f for f in functions(pf) if f.name == "add_custom_do")
    assert not host.is_kernel


def test_out_of_line_methods_belong_to_their_class() -> None:
    text = """
class K { public: __aicore__ void Init(); private: TPipe pipe; TQue<TPosition::VECIN, 1> q; };
__aicore__ void K::Init() { pipe.InitBuffer(q, 1, 256); }
"""
    pf = parse(text)
    fn = next(f for f in functions(pf) if f.name == "Init")
    assert fn.class_name == "K" and fn.qualified == "K::Init"
    (cls,) = classes(pf)
    assert [m.name for m in cls.methods] == ["Init"] and cls.method_decls == ("Init",)


def test_user_defined_names() -> None:
    text = """
#define MY_MACRO(x) (x)
typedef float real_t;
using Vec = int;
enum class Mode { FAST, SLOW };
namespace mine { struct Helper {}; }
template <typename TT> __aicore__ void Apply(TT v);
__aicore__ inline void Local() {}
int counter = 0;
"""
    names = user_defined_names(parse(text))
    assert {"MY_MACRO", "real_t", "Vec", "Mode", "FAST", "SLOW", "mine", "Helper", "Apply", "Local", "counter"} <= names
    assert "TT" in names


def test_calls_resolved_with_receiver_types(catalog: Catalog) -> None:
    pf = parse(KERNEL)
    cs = calls(pf, catalog)
    got = {(c.text, c.receiver_type, c.resolved) for c in cs}
    assert ("inQueueX.AllocTensor", "AscendC::TQue", "AscendC::TQueBind::AllocTensor") in got
    assert ("pipe.InitBuffer", "AscendC::TPipe", "AscendC::TPipe::InitBuffer") in got
    assert ("xGm.SetGlobalBuffer", "AscendC::GlobalTensor", "AscendC::GlobalTensor::SetGlobalBuffer") in got
    assert ("tmpBuf.Get", "AscendC::TBuf", "AscendC::TBuf::Get") in got
    assert ("DataCopy", None, "AscendC::DataCopy") in got
    assert ("AscendC::Adds", None, "AscendC::Adds") in got
    assert ("GetTPipePtr()->FetchEventID", "AscendC::TPipe", "AscendC::TPipe::FetchEventID") in got
    # own methods are user-defined, never resolved to the catalog
    copy_in = next(c for c in cs if c.short == "CopyIn")
    assert copy_in.user_defined and copy_in.resolved is None
    # the details of one call
    alloc = next(c for c in cs if c.short == "AllocTensor")
    assert alloc.template_args == ("half",) and alloc.args == () and alloc.qualifier is None
    line = next(i for i, t in enumerate(KERNEL.splitlines(), 1) if "inQueueX.AllocTensor" in t)
    col = KERNEL.splitlines()[line - 1].index("AllocTensor") + 1
    assert (alloc.name_span.line, alloc.name_span.column) == (line, col)
    assert alloc.name_span.end_column == col + len("AllocTensor") and pf.node_text(alloc.receiver) == "inQueueX"  # type: ignore[arg-type]
    assert alloc.in_function is not None
    set_flag = next(c for c in cs if c.short == "SetFlag")
    assert set_flag.template_args == ("HardEvent::MTE3_V",) and len(set_flag.args) == 1
    adds = next(c for c in cs if c.short == "Adds")
    assert adds.qualifier == "AscendC" and len(adds.args) == 4


def test_receiver_type_of_auto_from_deque_and_of_subscripts(catalog: Catalog) -> None:
    pf = parse(KERNEL)
    auto_decl = next(d for d in declarations(pf) if d.name == "xLocal" and d.type_name == "auto")
    assert expr_type(pf, catalog, auto_decl.name_node) == "AscendC::LocalTensor"
    text = """
using namespace AscendC;
__aicore__ void f(GlobalTensor<float> g, LocalTensor<float> l) {
    auto v = g[8].GetValue(0);
    l.ReinterpretCast<int32_t>().SetValue(0, 1);
}
"""
    cs = calls(parse(text), catalog)
    get_value = next(c for c in cs if c.short == "GetValue")
    assert get_value.receiver_type == "AscendC::GlobalTensor"
    set_value = next(c for c in cs if c.short == "SetValue")
    assert set_value.receiver_type == "AscendC::LocalTensor"


def test_unqualified_names_reach_ascendc_only_through_using_or_namespace(catalog: Catalog) -> None:
    without = calls(parse("__aicore__ void f(LocalTensor<half> a) { DataCopy(a, a, 16); }"), catalog)
    assert without[0].resolved is None and not without[0].ascendc_visible
    inside = calls(parse("namespace AscendC { __aicore__ void f() { DataCopy(a, b, 16); } }"), catalog)
    assert inside[0].resolved == "AscendC::DataCopy"
    shadowed = calls(parse("using namespace AscendC;\nvoid DataCopy(int a);\nvoid g() { DataCopy(1); }"), catalog)
    assert shadowed[0].user_defined and shadowed[0].resolved is None


def test_qualified_refs_roles() -> None:
    pf = parse(
        "void f() { AscendC::LocalTensor<half> x; AscendC::SetFlag<AscendC::HardEvent::V_S>(0); AscendC::TPipe p; }"
    )
    got = [(r.parts, r.role) for r in qualified_refs(pf)]
    assert (("AscendC", "LocalTensor"), "template") in got
    assert (("AscendC", "SetFlag"), "call") in got
    assert (("AscendC", "HardEvent", "V_S"), "type") in got
    assert (("AscendC", "TPipe"), "type") in got


def test_foreign_names_possible() -> None:
    assert not foreign_names_possible(parse('#include "kernel_operator.h"\n#include <cstdint>\nusing namespace AscendC;'))
    assert foreign_names_possible(parse('#include "kernel_operator.h"\n#include "my_helpers.h"\n'))
    assert foreign_names_possible(parse("using namespace AscendC;\nusing namespace AscendC::Te;\n"))


def test_macros_object_and_function_like() -> None:
    ms = macros(parse("#define A 4\n#define F(x, y) ((x) + (y))\n#if 0\n#define HIDDEN 1\n#endif\n"))
    assert ms["A"].params is None and ms["A"].body == "4"
    assert ms["F"].params == ("x", "y")
    assert "HIDDEN" in ms  # defines in dropped branches are still the file's names


# ------------------------------------------------------------------------------------------------ const_eval

CONSTS = """
#define TILE 256
#define DOUBLE_TILE (TILE * 2)
#define ELEM_T float
constexpr int32_t BUFFER_NUM = 2;
const uint32_t MASK = 0xFFu;
static const int64_t BIG = 1'000'000LL;
enum Mode { A, B = 5, C };
using TT = bfloat16_t;
class K {
    static constexpr uint32_t ALIGN = 32 / sizeof(half);
    __aicore__ void f(uint32_t n) {
        const int32_t local = BUFFER_NUM * TILE + ALIGN;
        int32_t notConst = 3;
        uint8_t wrapped = static_cast<uint8_t>(258);
        auto m = std::min(local, 100);
    }
};
"""


@pytest.mark.parametrize(
    ("expr", "value"),
    [
        ("42", 42), ("0x1F", 31), ("0b101", 5), ("017", 15), ("10u", 10), ("7ULL", 7), ("1'024", 1024),
        ("TILE", 256), ("DOUBLE_TILE", 512), ("BUFFER_NUM", 2), ("MASK", 255), ("BIG", 1_000_000),
        ("A", 0), ("B", 5), ("C", 6), ("K::ALIGN", 16), ("sizeof(half)", 2), ("sizeof(float)", 4),
        ("sizeof(bfloat16_t)", 2), ("sizeof(int8_t)", 1), ("sizeof(uint64_t)", 8), ("sizeof(TT)", 2),
        ("sizeof(ELEM_T)", 4), ("(TILE + 1) * 2", 514), ("7 / 2", 3), ("-7 / 2", -3), ("7 % -2", 1),
        ("1 << 10", 1024), ("0xF0 >> 4", 15), ("6 & 3", 2), ("6 | 1", 7), ("6 ^ 3", 5), ("~0", -1), ("!0", 1),
        ("TILE > 100 ? 1 : 2", 1), ("(uint8_t)300", 44), ("static_cast<int32_t>(TILE)", 256),
        ("std::min(3, TILE)", 3), ("std::max<int>(3, TILE)", 256), ("uint32_t(5)", 5), ("true + true", 2),
    ],
)
def test_const_eval_values(expr: str, value: int) -> None:
    assert const_eval(expr, parse(CONSTS)) == value


@pytest.mark.parametrize("expr", ["notConst", "n", "1 / 0", "5 % 0", "3.5", "unknown_name", "sizeof(Mystery)", "f()", ""])
def test_const_eval_unknown_is_none(expr: str) -> None:
    pf = parse(CONSTS)
    f = next(fn for fn in functions(pf) if fn.name == "f")
    assert const_eval(expr, pf, at=f.body) is None


def test_const_eval_locals_env_and_types() -> None:
    pf = parse(CONSTS)
    local = next(d for d in declarations(pf) if d.name == "local")
    assert const_eval(local.init, pf) == 528  # type: ignore[arg-type]
    assert const_eval("local + 1", pf, at=local.name_node) == 529
    wrapped = next(d for d in declarations(pf) if d.name == "wrapped")
    assert const_eval(wrapped.init, pf) == 2  # type: ignore[arg-type]
    m = next(d for d in declarations(pf) if d.name == "m")
    assert const_eval(m.init, pf, at=m.name_node) == 100  # type: ignore[arg-type]
    assert const_eval("n * 2", pf, env={"n": 21}) == 42
    assert const_eval("sizeof(T) * 8", pf, types={"T": "half"}) == 16


def test_const_eval_cycles_do_not_hang() -> None:
    pf = parse("#define X (Y + 1)\n#define Y (X + 1)\nconst int a = b;\nconst int b = a;\n")
    assert const_eval("X", pf) is None
    assert const_eval("a", pf) is None


# ------------------------------------------------------------------------------------------------ robustness


def _exercise(text: str, catalog: Catalog) -> None:
    pf = parse(text)
    assert len(pf.masked) == len(text)
    for c in calls(pf, catalog):
        c.name_span  # noqa: B018 - spans of every call must be computable
    for d in declarations(pf)[:50]:
        if d.init is not None:
            const_eval(d.init, pf)
    classes(pf)
    kernel_entries(pf)
    user_defined_names(pf)
    qualified_refs(pf)


def test_a_100000_line_file_does_not_crash(catalog: Catalog) -> None:
    body = KERNEL.replace("class KernelAdd", "class KernelAddN").replace("add_custom", "add_customN")
    text = "\n".join(body.replace("N", str(i)) for i in range(100_000 // body.count("\n") + 1))
    assert text.count("\n") >= 100_000
    _exercise(text, catalog)


def test_binary_garbage_does_not_crash(catalog: Catalog) -> None:
    garbage = bytes(range(256)).decode("latin-1") * 50 + "\x00\ud800" + "{{{(((<<<" * 100 + "#if\n" * 50
    _exercise(garbage, catalog)
    assert const_eval("((((((((", parse("")) is None


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cut=st.integers(min_value=0, max_value=len(KERNEL)))
def test_every_prefix_of_a_kernel_is_handled(catalog: Catalog, cut: int) -> None:
    _exercise(KERNEL[:cut], catalog)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    data=st.lists(
        st.tuples(st.integers(min_value=0, max_value=len(KERNEL)), st.sampled_from(["", "{", "}", "(", ")", "<", ">",
                                                                                   "#if X\n", "#endif\n", ";",
                                                                                   "\"", "/*", "ASSERT(", "::"])),
        max_size=6,
    )
)
def test_mutated_kernels_are_handled(catalog: Catalog, data: list[tuple[int, str]]) -> None:
    text = KERNEL
    for pos, insert in sorted(data, reverse=True):
        text = text[:pos] + insert + text[pos + 1 :]
    _exercise(text, catalog)


def test_walk_is_iterative_on_deep_nesting() -> None:
    text = "int x = " + "(" * 3000 + "1" + ")" * 3000 + ";\n"
    pf = parse(text)
    assert len(walk(pf.root)) > 3000


def test_ascendc_fields_of_a_kernel_class(catalog: Catalog) -> None:
    from akgen_lsp.ascendc.syntax import ascendc_fields

    pf = parse(KERNEL)
    (cls,) = classes(pf)
    got = {k: [d.name for d in v] for k, v in ascendc_fields(pf, catalog, cls).items()}
    assert got == {
        "TPipe": ["pipe"], "TQue": ["inQueueX", "outQueueZ"], "TBuf": ["tmpBuf"], "GlobalTensor": ["xGm", "zGm"],
    }


def test_helpers_work_around_an_error_in_the_middle(catalog: Catalog) -> None:
    broken = KERNEL.replace("blockLength = totalLength / GetBlockNum();", "blockLength = totalLength / ;;) }")
    pf = parse(broken)
    assert error_nodes(pf)
    shorts = [c.short for c in calls(pf, catalog)]
    # calls after the damage are still found and resolved
    assert "FreeTensor" in shorts and "SetFlag" in shorts
    assert kernel_entries(pf)[0].name == "add_custom"


def test_const_eval_of_names_defined_differently_in_if_branches_is_unknown() -> None:
    text = (
        "#if X\n#define TILE 128\nconstexpr int N = 1;\n#else\n#define TILE 256\nconstexpr int N = 2;\n#endif\n"
        "#ifdef Y\n#define SAME 4\n#else\n#define SAME 4\n#endif\n"
    )
    pf = parse(text)
    assert const_eval("TILE", pf) is None and macros(pf)["TILE"].ambiguous
    assert const_eval("N", pf) is None
    assert const_eval("SAME", pf) == 4
