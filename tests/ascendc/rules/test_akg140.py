"""AKG140 alignment: DataCopy lengths in whole 32-byte blocks, Compare counts in whole 256-byte repeats."""

from __future__ import annotations

from akgen_lsp.findings import Severity

from .conftest import apply_fix, at, fixture_text, lint


def test_good_fixture_is_clean() -> None:
    assert lint(fixture_text("akg140_good.cpp"), "AKG140") == []


def test_bad_fixture_findings_in_place() -> None:
    found = lint(fixture_text("akg140_bad.cpp"), "AKG140")
    assert [at(f) for f in found] == [(22, 31), (26, 57), (32, 40)]
    gm_to_ub, compare, ub_to_gm = found
    assert gm_to_ub.message.startswith(
        "DataCopy length is 100 x sizeof(float) = 400 bytes, not a multiple of 32: DataCopy rounds it down to 384 "
        "bytes and the last 16 bytes are silently not copied")
    assert "DataCopyPad" in gm_to_ub.message and "DataCopyExtParams{1, 400, 0, 0, 0}" in gm_to_ub.message
    assert gm_to_ub.severity is Severity.WARNING and gm_to_ub.error_class == "memory"
    assert compare.message.startswith("Compare count is 100 x sizeof(float) = 400 bytes, not a multiple of 256")
    assert "rounds it down to 0 bytes: nothing is copied" in ub_to_gm.message


def test_datacopy_pad_fixes_are_unsafe_and_keep_the_qualifier() -> None:
    text = fixture_text("akg140_bad.cpp")
    gm_to_ub, _compare, ub_to_gm = lint(text, "AKG140")
    assert not gm_to_ub.fixes[0].safe
    assert ("DataCopyPad(xLocal, xGm, DataCopyExtParams{1, 400, 0, 0, 0}, DataCopyPadExtParams<float>{false, 0, 0, 0});"
            in apply_fix(text, gm_to_ub))
    assert ("AscendC::DataCopyPad(yGm, yLocal, AscendC::DataCopyExtParams{1, 12, 0, 0, 0});"
            in apply_fix(text, ub_to_gm))


KERNEL = """#include "kernel_operator.h"
using namespace AscendC;
#define ELEMS 48
template <typename T>
__aicore__ inline void k(GM_ADDR x, uint32_t n)
{{
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> q;
    GlobalTensor<half> gm;
    GlobalTensor<T> tgm;
    pipe.InitBuffer(q, 1, 4096);
    auto t = q.AllocTensor<half>();
    LocalTensor<T> g = q.AllocTensor<T>();
    {call}
}}
"""


def _found(call: str) -> list[tuple[int, int]]:
    return [at(f) for f in lint(KERNEL.format(call=call), "AKG140")]


def test_known_and_unknown_counts_and_types() -> None:
    assert _found("DataCopy(t, gm, 16);") == []
    assert _found("DataCopy(t, gm, ELEMS);") == []  # 96 bytes
    assert _found("DataCopy(t, gm, ELEMS + 1);") == [(14, 21)]
    assert _found("DataCopy(t, gm, n);") == []  # runtime length
    assert _found("DataCopy(g, tgm, 7);") == []  # element type is a template parameter
    assert _found("DataCopy(t[16], gm[3], 8 * 3);") == [(14, 28)]
    assert _found("DataCopy(t, gm, {1, 1, 0, 0});") == []


def test_compare_counts() -> None:
    assert _found("Compare(t, t, t[128], CMPMODE::LT, 128);") == []
    assert _found("Compare(t, t, t[128], CMPMODE::LT, 64);") == [(14, 40)]
    assert _found("Compare(t, t, t[128], CMPMODE::LT, n);") == []


TEMPLATE = """#include "kernel_operator.h"
using namespace AscendC;
template <typename T, int32_t TILE>
class KernelX {{
public:
    __aicore__ inline void Run()
    {{
        LocalTensor<T> x = q.AllocTensor<T>();
        DataCopy(x, gm, {count});
        q.FreeTensor(x);
    }}
private:
    TQue<QuePosition::VECIN, 1> q;
    GlobalTensor<T> gm;
}};
extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR workspace, GM_ADDR tiling)
{{
{ops}
}}
"""


def _template_findings(count: str, ops: str) -> list[str]:
    return [f.message for f in lint(TEMPLATE.format(count=count, ops=ops), "AKG140")]


def test_class_template_instantiations_written_in_the_file_are_checked() -> None:
    (message,) = _template_findings("8", "    KernelX<float, 64> a;\n    KernelX<half, 64> b;")
    assert message.startswith("DataCopy length is 8 x sizeof(half) = 16 bytes (in KernelX<T = half, TILE = 64>)")
    assert _template_findings("8", "    KernelX<float, 64> a;") == []
    (message,) = _template_findings("TILE", "    KernelX<float, 100> a;")
    assert message.startswith("DataCopy length is 100 x sizeof(float) = 400 bytes (in KernelX<T = float, TILE = 100>)")
    assert _template_findings("TILE", "    KernelX<DTYPE_X, 100> a;") == []  # the build defines DTYPE_X
    assert _template_findings("TILE", "") == []  # never instantiated here


def test_fix_for_a_template_keeps_the_length_generic() -> None:
    text = TEMPLATE.format(count="TILE", ops="    KernelX<half, 7> a;")
    (finding,) = lint(text, "AKG140")
    assert ("DataCopyPad(x, gm, DataCopyExtParams{1, static_cast<uint32_t>((TILE) * sizeof(T)), 0, 0, 0}, "
            "DataCopyPadExtParams<T>{false, 0, 0, 0});") in apply_fix(text, finding)
