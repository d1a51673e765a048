"""The static synchronisation audit (AKG170-AKG173) on our own small kernels."""

from __future__ import annotations

from .conftest import expected, fixture_text, found, lint


def test_bad_fixture_reports_every_marked_line() -> None:
    text = fixture_text("sync_bad.cpp")
    assert found(lint(text, "AKG17")) == expected(text)


def test_good_fixture_is_clean() -> None:
    assert lint(fixture_text("sync_good.cpp"), "AKG17") == []


def test_backwards_event_names_the_right_direction() -> None:
    (f,) = [f for f in lint(fixture_text("sync_bad.cpp"), "AKG172") if "backwards" in f.message]
    assert "use HardEvent::MTE2_V" in f.message and f.data["suggested"] == "MTE2_V"


def test_set_without_wait_is_a_warning_and_wait_without_set_an_error() -> None:
    text = fixture_text("sync_bad.cpp")
    sev = {(f.span.line, f.severity.value) for f in lint(text, "AKG170")}
    lines = text.splitlines()
    set_line = next(i for i, t in enumerate(lines, 1) if "S_MTE3" in t)
    wait_line = next(i for i, t in enumerate(lines, 1) if "MTE3_V>" in t)
    assert (set_line, "warning") in sev and (wait_line, "error") in sev


def test_event_from_a_template_parameter_keeps_the_audit_to_literal_waits() -> None:
    text = """#include "kernel_operator.h"
using namespace AscendC;
template <HardEvent E>
__aicore__ inline void Sync(int32_t id) { SetFlag<E>(id); WaitFlag<E>(id); }
__aicore__ inline void Go() { SetFlag<HardEvent::V_S>(0); Sync<HardEvent::MTE2_V>(1); }
"""
    assert lint(text, "AKG170") == []


def test_exclusive_branches_are_not_an_early_return() -> None:
    text = """#include "kernel_operator.h"
using namespace AscendC;
__aicore__ inline void Go(int32_t n) {
    if (n > 0) {
        SetFlag<HardEvent::V_S>(EVENT_ID0);
    } else {
        return;
    }
    WaitFlag<HardEvent::V_S>(EVENT_ID0);
}
"""
    assert lint(text, "AKG171") == []


def test_event_id_limit_follows_the_profile() -> None:
    text = "#include \"kernel_operator.h\"\nusing namespace AscendC;\n__aicore__ inline void G() {\n" \
           "    SetFlag<HardEvent::V_S>(EVENT_ID7);\n    WaitFlag<HardEvent::V_S>(EVENT_ID7);\n}\n"
    assert lint(text, "AKG173") == []


def test_wait_whose_only_set_is_in_another_branch_is_unreached() -> None:
    text = """#include "kernel_operator.h"
using namespace AscendC;
template <int S>
__aicore__ inline void Go(LocalTensor<float> x, GlobalTensor<float> g) {
    if constexpr (S == 0) {
        DataCopy(x, g, 64);
        WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
        Abs(x, x, 64);
    } else {
        DataCopy(x, g, 64);
        SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
        Abs(x, x, 64);
    }
}
"""
    (f,) = lint(text, "AKG170")
    assert f.span.line == 7 and f.severity.value == "error" and "another branch" in f.message


def test_pairs_in_one_case_of_a_switch_are_on_one_path() -> None:
    text = """#include "kernel_operator.h"
using namespace AscendC;
__aicore__ inline void Sync(int32_t e) {
    switch (e) {
        case 0:
            SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
            WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
            break;
        default:
            SetFlag<HardEvent::V_MTE3>(EVENT_ID0);
            WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
            break;
    }
}
"""
    assert lint(text, "AKG170") == []


def test_backwards_event_is_seen_through_an_if_and_declarations() -> None:
    text = """#include "kernel_operator.h"
using namespace AscendC;
template <int S>
__aicore__ inline void Go(LocalTensor<float> x, LocalTensor<float> y, GlobalTensor<float> g) {
    if constexpr (S == 0) {
        DataCopy(x, g, 64);
    } else {
        DataCopy(y, g, 64);
    }
    SetFlag<HardEvent::V_MTE2>(EVENT_ID0);
    WaitFlag<HardEvent::V_MTE2>(EVENT_ID0);
    uint32_t n = 64;
    float s = 2.0f;
    uint32_t m = n;
    Muls(x, y, s, m);
}
"""
    (f,) = lint(text, "AKG172")
    assert f.span.line == 10 and "use HardEvent::MTE2_V" in f.message
