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
