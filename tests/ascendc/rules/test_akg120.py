"""AKG120 queue-protocol: AllocTensor / EnQue / DeQue / FreeTensor across a kernel class's methods."""

from __future__ import annotations

from akgen_lsp.findings import Severity

from .conftest import apply_fix, fixture_text, lint


def test_good_fixture_is_clean() -> None:
    assert lint(fixture_text("akg120_good.cpp"), "AKG120") == []


def test_bad_fixture_findings_in_place() -> None:
    found = lint(fixture_text("akg120_bad.cpp"), "AKG120")
    assert [(f.span.line, f.span.column) for f in found] == [(18, 9), (25, 46), (32, 46), (33, 46), (34, 46), (47, 48)]
    per_position, never_enqueued, never_freed, deque_y, deque_w, depth0 = found
    assert per_position.message.startswith("current size is 9, max buffer number in same queue position is 8")
    assert "inQueueX: 3, inQueueY: 3, inQueueW: 3" in per_position.message
    assert per_position.severity is Severity.WARNING
    assert "'yLocal' allocated from 'inQueueY' is never enqueued or freed in 'CopyIn'" in never_enqueued.message
    assert "'xLocal' dequeued from 'inQueueX' is never freed in 'Compute'" in never_freed.message
    assert "nothing ever calls inQueueY.EnQue" in deque_y.message and deque_y.severity is Severity.ERROR
    assert "inQueueW" in deque_w.message
    assert depth0.message.startswith(
        "static assertion failed: must use AllocTensor<LocalTensor&> api while tque's depth is zero")
    assert all(f.error_class == "memory" for f in found)


def test_free_fix_appends_free_tensor_at_the_end_of_the_function() -> None:
    text = fixture_text("akg120_bad.cpp")
    finding = next(f for f in lint(text, "AKG120") if "never freed" in f.message)
    fix = finding.fixes[0]
    assert not fix.safe
    fixed = apply_fix(text, finding)
    assert "        inQueueW.FreeTensor(wLocal);\n        inQueueX.FreeTensor(xLocal);\n    }" in fixed
    assert not any("never freed" in f.message for f in lint(fixed, "AKG120"))


KERNEL = """#include "kernel_operator.h"
using namespace AscendC;
class KernelX {{
public:
    __aicore__ inline void Init() {{ pipe.InitBuffer(inQ, 2, 256); pipe.InitBuffer(outQ, 2, 256); }}
{body}
private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ;
    TQue<QuePosition::VECOUT, 2> outQ;
    GlobalTensor<half> xGm;
    LocalTensor<half> kept;
}};
__aicore__ inline void Helper(LocalTensor<half>& t) {{}}
"""


def _lint_body(body: str) -> list[str]:
    return [f.message for f in lint(KERNEL.format(body=body), "AKG120")]


def test_tensor_handed_on_is_not_reported() -> None:
    assert _lint_body("""
    __aicore__ inline void A() { LocalTensor<half> t = inQ.AllocTensor<half>(); Helper(t); }
    __aicore__ inline void B() { LocalTensor<half> t = inQ.AllocTensor<half>(); kept = t; }
    __aicore__ inline void C() { kept = inQ.AllocTensor<half>(); }
    __aicore__ inline LocalTensor<half> D() { LocalTensor<half> t = inQ.AllocTensor<half>(); return t; }
    __aicore__ inline void E() { inQ.EnQue(kept); auto t = inQ.DeQue<half>(); outQ.EnQue(t); }
    __aicore__ inline void F() { auto t = outQ.DeQue<half>(); kept = t; }
""") == []


def test_freeing_an_alias_of_the_dequeued_buffer_is_accepted() -> None:
    # the dequeued tensor is the enqueued buffer: freeing either name frees it
    assert _lint_body("""
    __aicore__ inline void A()
    {
        LocalTensor<half> in = inQ.AllocTensor<half>();
        DataCopy(in, xGm, 128);
        inQ.EnQue(in);
        LocalTensor<half> out = inQ.DeQue<half>();
        Abs(out, out, 128);
        inQ.FreeTensor(in);
    }
""") == []


def test_dropped_alloc_and_use_only_in_api_calls_is_reported() -> None:
    messages = _lint_body("""
    __aicore__ inline void A() { LocalTensor<half> t = inQ.AllocTensor<half>(); Duplicate(t, (half)0, 128); }
""")
    assert len(messages) == 1 and "'t' allocated from 'inQ' is never enqueued or freed in 'A'" in messages[0]


def test_queue_passed_by_reference_is_not_followed() -> None:
    text = """#include "kernel_operator.h"
using namespace AscendC;
class KernelX {
public:
    __aicore__ inline void Fill(TQue<QuePosition::VECIN, 1>& q) { auto t = q.AllocTensor<half>(); q.EnQue(t); }
    __aicore__ inline void Go() { Fill(inQ); auto t = inQ.DeQue<half>(); inQ.FreeTensor(t); }
private:
    TQue<QuePosition::VECIN, 1> inQ;
};
"""
    assert lint(text, "AKG120") == []


def test_depth_zero_in_place_forms_and_deque() -> None:
    text = """#include "kernel_operator.h"
using namespace AscendC;
__aicore__ inline void k()
{
    TPipe pipe;
    TQue<TPosition::VECIN, 0> q;
    pipe.InitBuffer(q, 1, 256);
    LocalTensor<half> t;
    q.AllocTensor<half>(t);
    q.EnQue(t);
    q.DeQue<half>(t);
    q.FreeTensor(t);
    auto u = q.DeQue<half>();
}
"""
    found = lint(text, "AKG120")
    assert [(f.span.line, f.span.column) for f in found] == [(13, 16)]
    assert "must use DeQue<LocalTensor&> api while tque's depth is zero" in found[0].message


def test_tque_bind_and_template_keyword_forms() -> None:
    text = """#include "kernel_operator.h"
using namespace AscendC;
template <typename T>
class KernelX {
public:
    __aicore__ inline void Init() { pipe.InitBuffer(q, 1, 256); }
    __aicore__ inline void In() { auto t = q.template AllocTensor<T>(); q.template EnQue(t); }
    __aicore__ inline void Out() { auto t = q.template DeQue<T>(); q.template FreeTensor(t); }
private:
    TPipe pipe;
    TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> q;
};
"""
    assert lint(text, "AKG120") == []


def test_buffers_per_position_counts_only_unconditional_constant_calls() -> None:
    text = """#include "kernel_operator.h"
using namespace AscendC;
class KernelX {
public:
    __aicore__ inline void Init(uint32_t n, bool big)
    {
        pipe.InitBuffer(a, 4, 256);
        pipe.InitBuffer(b, 4, 256);
        if (big) { pipe.InitBuffer(c, 4, 256); }
        pipe.InitBuffer(d, n, 256);
        pipe.InitBuffer(e, 8, 256);
    }
private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> a, b, c;
    TQue<QuePosition::VECOUT, 1> d;
    TQue<QuePosition::VECOUT, 1> e;
};
"""
    assert lint(text, "AKG120") == []


def test_queue_operations_inside_macros_are_trusted() -> None:
    text = """#include "kernel_operator.h"
using namespace AscendC;
#define PUSH(q, t) q.EnQue(t)
class KernelX {
public:
    __aicore__ inline void Init() { pipe.InitBuffer(inQ, 2, 256); }
    __aicore__ inline void In()
    {
        LocalTensor<half> t = inQ.AllocTensor<half>();
        PUSH(inQ, t)
    }
    __aicore__ inline void Out() { LocalTensor<half> t = inQ.DeQue<half>(); inQ.FreeTensor(t); }
private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 2> inQ;
};
"""
    assert lint(text, "AKG120") == []
