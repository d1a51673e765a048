"""The kernel model: entries and device qualifiers, queues with positions and depth, InitBuffer sizes, queue ops."""

from __future__ import annotations

from pathlib import Path

import pytest

from akgen_lsp.ascendc.arch import load_arch
from akgen_lsp.ascendc.catalog import load_catalog
from akgen_lsp.ascendc.context import LintContext
from akgen_lsp.ascendc.kernel_model import build_model, kernel_model, tensor_info, type_size
from akgen_lsp.ascendc.syntax import parse

FIXTURES = Path(__file__).resolve().parent / "rules" / "fixtures"

TEXT = """#include "kernel_operator.h"
using namespace AscendC;
#define TILE 128
constexpr int32_t BUFFER_NUM = 2;
using InQue = TQue<QuePosition::VECIN, BUFFER_NUM>;
#define KERNEL_FUNC __aicore__ inline

template <typename T>
class KernelAdd {
public:
    __aicore__ inline KernelAdd() {}
    __aicore__ inline void Init(GM_ADDR x, uint32_t n)
    {
        xGm.SetGlobalBuffer((__gm__ T *)x, n);
        pipe.InitBuffer(inQueueX, BUFFER_NUM, TILE * sizeof(half));
        pipe.InitBuffer(outQueueZ, 1, n * sizeof(T));
        pipe.InitBuffer(bindQ, 1, 100);
        if (n > 0) {
            pipe.InitBuffer(tmp, 64);
        }
    }
    KERNEL_FUNC void CopyIn(int32_t i)
    {
        LocalTensor<T> xLocal = inQueueX.AllocTensor<T>();
        DataCopy(xLocal, xGm[i * TILE], TILE);
        inQueueX.EnQue(xLocal);
    }
    __aicore__ inline void Compute()
    {
        auto xLocal = inQueueX.DeQue<half>();
        outQueueZ.FreeTensor(xLocal);
    }
    void HostOnly() {}
private:
    TPipe pipe;
    InQue inQueueX;
    AscendC::TQue<AscendC::TPosition::VECOUT, 0> outQueueZ;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> bindQ;
    TBuf<> tmp;
    GlobalTensor<T> xGm;
};

uint32_t Tiling(uint32_t n) { return n / 8; }

extern "C" __global__ __aicore__ void add_custom(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{
    KernelAdd<half> op;
    op.Init(x, 1024);
}

__global__ __vector__ void vec_kernel(GM_ADDR x) {}

#ifdef ASCENDC_CPU_DEBUG
void CpuOnly() {}
#endif
"""


@pytest.fixture(scope="module")
def model():  # type: ignore[no-untyped-def]
    return build_model(parse(TEXT, "k.cpp"), load_catalog())


def test_functions_and_device_qualifiers(model) -> None:  # type: ignore[no-untyped-def]
    by = {f.name: f for f in model.functions}
    assert [f.name for f in model.entries] == ["add_custom", "vec_kernel"]
    entry = by["add_custom"]
    assert entry.is_global and entry.is_aicore and entry.extern_c and entry.return_type == "void"
    assert TEXT.encode()[entry.start_byte :].startswith(b"__global__ __aicore__ void add_custom")
    vec = by["vec_kernel"]
    assert vec.is_global and vec.is_aicore and not vec.extern_c
    assert by["CopyIn"].has_device_mark and by["CopyIn"].is_aicore  # through the KERNEL_FUNC macro
    assert by["CopyIn"].class_name == "KernelAdd"
    assert not by["HostOnly"].has_device_mark and model.is_device(by["HostOnly"])  # a kernel class's method
    assert not model.is_device(by["Tiling"])
    assert model.in_cpu_only(by["CpuOnly"].node) and not model.in_cpu_only(by["Tiling"].node)


def test_class_buffers_positions_and_depth(model) -> None:  # type: ignore[no-untyped-def]
    cls = model.classes["KernelAdd"]
    assert cls.pipes == ["pipe"]
    got = {name: (b.kind, b.src, b.dst, b.depth, b.memory) for name, b in cls.buffers.items()}
    assert got == {
        "inQueueX": ("TQue", "VECIN", "VECIN", 2, "ub"),  # through the alias, depth from the constexpr
        "outQueueZ": ("TQue", "VECOUT", "VECOUT", 0, "ub"),
        "bindQ": ("TQueBind", "VECIN", "VECOUT", 1, "ub"),
        "tmp": ("TBuf", "VECCALC", "VECCALC", None, "ub"),
    }


def test_init_buffer_sizes(model) -> None:  # type: ignore[no-untyped-def]
    got = [(ib.target, ib.num, ib.length, ib.rounded_bytes, ib.conditional, ib.pipe) for ib in model.init_buffers]
    assert got == [
        ("inQueueX", 2, 256, 512, False, "pipe"),
        ("outQueueZ", 1, None, None, False, "pipe"),  # n * sizeof(T): a runtime value
        ("bindQ", 1, 100, 128, False, "pipe"),  # 100 rounded up to 32 bytes
        ("tmp", 1, 64, 64, True, "pipe"),
    ]
    assert all(ib.buffer is not None and ib.function.name == "Init" for ib in model.init_buffers)


def test_queue_operations_per_method(model) -> None:  # type: ignore[no-untyped-def]
    got = [(op.function.name, op.queue, op.op, op.tensor, op.nargs) for op in model.queue_ops]
    assert got == [
        ("CopyIn", "inQueueX", "AllocTensor", "xLocal", 0),
        ("CopyIn", "inQueueX", "EnQue", "xLocal", 1),
        ("Compute", "inQueueX", "DeQue", "xLocal", 0),
        ("Compute", "outQueueZ", "FreeTensor", "xLocal", 1),
    ]
    assert all(op.buffer is not None and op.buffer.name == op.queue for op in model.queue_ops)


def test_tensor_types(model) -> None:  # type: ignore[no-untyped-def]
    pf = model.pf
    copy = next(c for cs in model.calls_by_function.values() for c in cs if c.short == "DataCopy")
    assert tensor_info(model, copy.args[0]) == ("LocalTensor", "T")
    assert tensor_info(model, copy.args[1]) == ("GlobalTensor", "T")
    deque = next(op for op in model.queue_ops if op.op == "FreeTensor")
    assert tensor_info(model, deque.call.args[0]) == ("LocalTensor", "half")
    assert type_size(pf, "half") == 2 and type_size(pf, "float") == 4 and type_size(pf, "T") is None


def test_local_queues_and_pipes_in_a_kernel_function() -> None:
    text = """#include "kernel_operator.h"
using namespace AscendC;
extern "C" __global__ __aicore__ void k(GM_ADDR x)
{
    TPipe pipe;
    TQue<TPosition::VECIN, 1> q;
    TQue<TPosition::VECIN, 1>& alias = q;
    pipe.InitBuffer(q, 2, 1024);
    auto t = q.AllocTensor<float>();
    q.FreeTensor(t);
}
"""
    model = build_model(parse(text))
    assert [(b.name, b.owner.startswith("fn:")) for b in model.buffers] == [("q", True)]
    (ib,) = model.init_buffers
    assert (ib.buffer is model.buffers[0], ib.num, ib.length) == (True, 2, 1024)
    assert [op.op for op in model.queue_ops] == ["AllocTensor", "FreeTensor"]


def test_model_is_built_once_per_context() -> None:
    ctx = LintContext(parse(TEXT), load_catalog(), load_arch("Ascend910B2"), "8.0")
    assert kernel_model(ctx) is kernel_model(ctx)


def test_every_fixture_builds() -> None:
    for path in sorted(FIXTURES.glob("akg1[1-5]0_*.cpp")):
        model = build_model(parse(path.read_text(encoding="utf-8"), str(path)))
        assert model.functions, path.name


def test_broken_text_does_not_raise() -> None:
    for text in ("", "class {", "__global__ __aicore__ void (", "void f() { q.InitBuffer(); q.AllocTensor<>(); }",
                 "template <> __aicore__ int x<>::y() { return pipe.InitBuffer(q, , ); }"):
        build_model(parse(text))


def test_qualifiers_the_tree_does_not_cover() -> None:
    text = """template <typename T>
__aicore__ inline __inout_pipe__(V) void Impl(int a)
{
}
#define DEV_INLINE __aicore__ inline
DEV_INLINE void Helper() {}
static __attribute__((always_inline)) inline void Host() {}
"""
    by = {f.name: f for f in build_model(parse(text)).functions}
    assert by["Impl"].is_aicore and text.encode()[by["Impl"].start_byte :].startswith(b"__aicore__ inline __inout")
    assert by["Helper"].is_aicore and text.encode()[by["Helper"].start_byte :].startswith(b"DEV_INLINE void")
    assert not by["Host"].has_device_mark and text.encode()[by["Host"].start_byte :].startswith(b"static __attr")


def test_class_template_instantiations() -> None:
    text = """#include "kernel_operator.h"
constexpr int32_t N = 4;
template <typename T, int32_t TILE> class K { public: __aicore__ inline void Run() {} };
template <typename T> class Unused { public: __aicore__ inline void Run() {} };
extern "C" __global__ __aicore__ void k(GM_ADDR x)
{
    K<half, N * 64> a;
    K<half, 256> b;
    K<float, 32> c;
    K<DTYPE_X, 32> d;
    K<half, 256>* p = nullptr;
}
"""
    model = build_model(parse(text))
    assert [b.label() for b in model.classes["K"].instantiations] == ["T = half, TILE = 256", "T = float, TILE = 32"]
    assert model.classes["Unused"].instantiations == []
    run = next(f for f in model.functions if f.class_name == "K")
    assert len(model.bindings_for(run)) == 2
