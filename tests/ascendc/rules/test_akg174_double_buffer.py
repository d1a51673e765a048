"""AKG174: the previous iteration's buffer index or event id (i - 1) on a loop's first iteration."""

from __future__ import annotations

from .conftest import lint

HEAD = '#include "kernel_operator.h"\nusing namespace AscendC;\n'


def _loop(body: str, start: str = "0", counter: str = "uint32_t") -> str:
    return (HEAD + "__aicore__ inline void Go(LocalTensor<half>* bufs, GlobalTensor<half> yGm, uint32_t n) {\n"
            f"    for ({counter} i = {start}; i < n; i++) {{\n{body}    }}\n}}\n")


def test_previous_buffer_and_event_id_on_the_first_iteration() -> None:
    text = _loop("        WaitFlag<HardEvent::MTE2_V>((i - 1) % 2);\n"
                 "        Abs(bufs[(i - 1) & 1], bufs[(i - 1) & 1], 64);\n"
                 "        DataCopy(yGm[(i - 1) * 64], bufs[0], 64);\n")
    found = lint(text, "AKG174")
    assert [(f.span.line, f.data["use"]) for f in found] == [
        (5, "an event id"), (6, "a buffer index"), (7, "a buffer index")]
    assert all(f.severity.value == "error" and "if (i > 0)" in f.message for f in found)


def test_guards_and_a_loop_from_one_are_clean() -> None:
    guarded = _loop("        if (i > 0) {\n            Abs(bufs[(i - 1) % 2], bufs[0], 64);\n        }\n"
                    "        int32_t k = i == 0 ? 0 : bufs[i - 1].GetSize();\n")
    assert lint(guarded, "AKG174") == []
    skipped = _loop("        if (i == 0) {\n            continue;\n        }\n        Abs(bufs[i - 1], bufs[0], 64);\n")
    assert lint(skipped, "AKG174") == []
    from_one = _loop("        Abs(bufs[(i - 1) % 2], bufs[0], 64);\n", start="1")
    assert lint(from_one, "AKG174") == []


def test_other_arithmetic_on_the_previous_index_is_not_an_index() -> None:
    text = _loop("        uint32_t off = (i - 1) * 64 + 128;\n        Abs(bufs[i + 1 - 1], bufs[0], 64);\n"
                 "        Adds(bufs[0], bufs[0], (half)(i - 1), 64);\n")
    assert lint(text, "AKG174") == []
