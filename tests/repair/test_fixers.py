"""Each deterministic fixer on a broken copy of a real kernel, given the finding the compiler or the simulator
reports (its real wording, recorded from g++ and the simulator): the fix it proposes restores the kernel."""

from __future__ import annotations

import dataclasses

import pytest

from akgen_lsp.config import defaults
from akgen_lsp.findings import Finding, Severity, Span, apply_edits
from akgen_lsp.repair.fixers import FixContext, propose

from .conftest import broken, original

PATH = "/ws/abs.cpp"


def _line(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def _finding(text: str, needle: str, code: str, message: str, severity: Severity = Severity.ERROR) -> Finding:
    line = _line(text, needle)
    col = text.splitlines()[line - 1].index(needle) + 1
    source = "akgen-build" if code == "CXX" else "akgen-run"
    return Finding(code, message, Span.point(PATH, line, col), severity, source)


def _fixed(text: str, finding: Finding, settings=None) -> list[tuple[str, str, bool]]:
    ctx = FixContext(text, PATH, settings or defaults())
    return [(p.fix.title, apply_edits(text, p.fix.edits), p.certain) for p in propose(ctx, finding)]


CASES = [
    # (name, breakage, where, code, message)
    ("invented name", ("Abs(yLocal, xIn, TILE_LENGTH);", "AscendC::Abss(yLocal, xIn, TILE_LENGTH);"), "Abss", "CXX",
     "'Abss' is not a member of 'AscendC'; did you mean 'Abs'?"),
    ("member", ("inQueueX.DeQue<half>()", "inQueueX.Dequeue<half>()"), "Dequeue", "CXX",
     "'class AscendC::TQue<AscendC::TPosition::VECIN, 2>' has no member named 'Dequeue'; did you mean 'DeQue'?"),
    ("member (clang)", ("inQueueX.DeQue<half>()", "inQueueX.Deque<half>()"), "Deque", "CXX",
     "no member named 'Deque' in 'AscendC::TQue<AscendC::TPosition::VECIN, 2>'; did you mean 'DeQue'?"),
    ("template argument", ("inQueueX.AllocTensor<half>()", "inQueueX.AllocTensor()"), "AllocTensor", "CXX",
     "no matching function for call to 'AscendC::TQue<AscendC::TPosition::VECIN, 2>::AllocTensor()'"),
    ("untyped DeQue", ("inQueueX.DeQue<half>()", "inQueueX.DeQue()"), "DeQue", "CXX",
     "conversion from 'AscendC::TBufHandle' {aka 'unsigned char*'} to non-scalar type 'AscendC::LocalTensor<half>' "
     "requested"),
    ("dropped count", ("Abs(yLocal, xIn, TILE_LENGTH);", "Abs(yLocal, xIn);"), "Abs(", "CXX",
     "no matching function for call to 'Abs(AscendC::LocalTensor<half>&, AscendC::LocalTensor<half>&)'"),
    ("extra argument", ("Abs(yLocal, xIn, TILE_LENGTH);", "Abs(yLocal, xIn, TILE_LENGTH, TILE_LENGTH);"), "Abs(",
     "CXX", "no matching function for call to 'Abs(AscendC::LocalTensor<half>&, AscendC::LocalTensor<half>&, const "
     "int32_t&, const int32_t&)'"),
    ("DeQue from the wrong queue", ("LocalTensor<half> yOut = outQueueY.DeQue<half>();",
                                    "LocalTensor<half> yOut = inQueueX.DeQue<half>();"), "yOut", "SIM-QUE-EMPTY",
     "DeQue from an empty queue: no tensor was EnQue'd (on the NPU this waits forever)"),
    ("wrong element type", ("LocalTensor<half> xIn = inQueueX.DeQue<half>();",
                            "LocalTensor<half> xIn = inQueueX.DeQue<float>();"), "DeQue<float>", "CXX",
     "conversion from 'AscendC::LocalTensor<float>' to non-scalar type 'AscendC::LocalTensor<half>' requested"),
    ("dropped count after an enumerator", ("Abs(yLocal, xIn, TILE_LENGTH);",
                                           "Cast(yLocal, xIn, RoundMode::CAST_NONE);"), "Cast(", "CXX",
     "no matching function for call to 'Cast(AscendC::LocalTensor<half>&, AscendC::LocalTensor<half>&, "
     "AscendC::RoundMode)'"),
    ("never freed", ("            inQueueX.FreeTensor(xIn);\n", ""), "inQueueX.AllocTensor", "SIM-QUE-ALLOC",
     "AllocTensor with no free buffer: all 2 buffers of this queue are in use (free one with FreeTensor first; on the "
     "NPU this hangs)"),
]


@pytest.mark.parametrize(("name", "pair", "where", "code", "message"), CASES, ids=[c[0] for c in CASES])
def test_the_fix_restores_the_kernel(name: str, pair: tuple[str, str], where: str, code: str, message: str) -> None:
    text = broken(pair)
    fixed = _fixed(text, _finding(text, where, code, message))
    assert fixed, f"{name}: no fix proposed"
    restored = [f for f in fixed if f[1].replace("AscendC::Abs(", "Abs(") == original()]
    if name == "never freed":  # the free goes to the end of the loop body (the tensor's block), not where it was
        restored = [f for f in fixed if f[1].count("inQueueX.FreeTensor(xIn);") == 1
                    and "outQueueY.FreeTensor(yOut);\n            inQueueX.FreeTensor(xIn);\n        }" in f[1]]
    if name == "dropped count after an enumerator":  # the count goes after the RoundMode, the one slot it fits
        restored = [f for f in fixed if "Cast(yLocal, xIn, RoundMode::CAST_NONE, TILE_LENGTH);" in f[1]]
    assert restored, (name, [f[0] for f in fixed])


def test_float16_is_replaced_at_every_use() -> None:
    text = broken(("LocalTensor<half> yLocal = outQueueY.AllocTensor<half>();",
                   "LocalTensor<float16> yLocal = outQueueY.AllocTensor<float16>();"))
    f = _finding(text, "float16", "CXX", "'float16' was not declared in this scope; did you mean 'bfloat16'?")
    fixed = _fixed(text, f)
    (title, new, certain) = next(x for x in fixed if "half" in x[0])
    assert new == original() and certain and title == "Replace 'float16' with 'half' (2 uses)"


def test_an_unaligned_datacopy_gets_datacopypad_with_the_exact_bytes_and_a_rounded_count() -> None:
    text = broken(("DataCopy(xLocal, xGm[i * TILE_LENGTH], TILE_LENGTH);",
                   "DataCopy(xLocal, xGm[i * TILE_LENGTH], TILE_LENGTH - 3);"))
    f = _finding(text, "DataCopy(xLocal", "SIM-DC-ROUNDDOWN", "DataCopy of 1021 elements x 2 B = 2042 B is not a "
                 "multiple of 32 B: the hardware copies only the first 2016 B and silently drops the tail",
                 Severity.WARNING)
    titles = {t: new for t, new, _c in _fixed(text, f)}
    pad = titles["Use DataCopyPad with the exact length (2042)"]
    assert ("DataCopyPad(xLocal, xGm[i * TILE_LENGTH], DataCopyExtParams{1, 2042, 0, 0, 0}, "
            "DataCopyPadExtParams<half>{false, 0, 0, 0});") in pad
    assert titles["Round the length up to whole 32-byte blocks (1024 elements)"].count("TILE_LENGTH - 3") == 0


def test_a_repeat_time_over_255_becomes_a_loop() -> None:
    text = broken(("Abs(yLocal, xIn, TILE_LENGTH);", "Abs(yLocal, xIn, 128, 300, UnaryRepeatParams(1, 1, 8, 8));"))
    f = _finding(text, "Abs(", "SIM-REPEAT", "Abs: repeatTime 300 is out of range [0, 255]; the hardware takes it as "
                 "a uint8_t, so it would wrap to 44")
    ((title, new, certain),) = _fixed(text, f)
    assert title == "Split Abs into steps of at most 255 repeats" and not certain
    assert "for (uint32_t akgDone = 0, akgRepeats = 300; akgDone < akgRepeats; akgDone += 255) {" in new
    assert "Abs(yLocal[akgDone * 128], xIn[akgDone * 128], 128, static_cast<uint8_t>(akgRepeats - akgDone < 255 ? " \
           "akgRepeats - akgDone : 255), UnaryRepeatParams(1, 1, 8, 8));" in new


def test_a_double_free_loses_its_second_free() -> None:
    text = broken(("            inQueueX.FreeTensor(xIn);\n",
                   "            inQueueX.FreeTensor(xIn);\n            inQueueX.FreeTensor(xIn);\n"))
    line = _line(text, "inQueueX.FreeTensor(xIn);") + 1
    f = Finding("SIM-QUE-DOUBLE-FREE", "FreeTensor: the tensor was already freed (ErrorFree: double free)",
                Span.point(PATH, line, 13), source="akgen-run")
    ((_title, new, certain),) = _fixed(text, f)
    assert new == original() and certain


@pytest.mark.parametrize(("written", "version"), [("OldAbs", "9.1"), ("NewAbs", "8.5")])
def test_a_name_of_another_cann_version(written: str, version: str) -> None:
    """The catalog's versions: a name removed before the configured CANN (``replaced_by`` says its new name), or one
    added after it (the name it replaces is the configured version's)."""
    from akgen_lsp.ascendc.catalog import Catalog, load_catalog

    real = load_catalog()
    entries = [e for e in real if e.name != "AscendC::Abs"]
    abs_entry = real.get("AscendC::Abs")
    assert abs_entry is not None
    extra = [
        dataclasses.replace(abs_entry, name="AscendC::OldAbs", removed="9.0", replaced_by="AscendC::Abs"),
        dataclasses.replace(abs_entry, name="AscendC::NewAbs", since="9.5"),
        dataclasses.replace(abs_entry, replaced_by="AscendC::NewAbs"),
    ]
    catalog = Catalog([*entries, *extra], real.invented.values())
    text = broken(("Abs(yLocal, xIn, TILE_LENGTH);", f"AscendC::{written}(yLocal, xIn, TILE_LENGTH);"))
    f = _finding(text, written, "CXX", f"'{written}' is not a member of 'AscendC'")
    settings = defaults().with_overrides({"cann.version": version}, "test")
    ctx = FixContext(text, PATH, settings, catalog)
    fixed = [(p.fix.title, apply_edits(text, p.fix.edits)) for p in propose(ctx, f)]
    assert any(new.replace("AscendC::Abs(", "Abs(") == original() for _t, new in fixed), fixed


def test_a_message_no_fixer_knows_gets_nothing() -> None:
    text = original()
    f = Finding("SIM-UB-OOB", "UB access out of bounds", Span.point(PATH, 5), source="akgen-run")
    assert _fixed(text, f) == []


_TWO_INPUTS = """#include "kernel_operator.h"
using namespace AscendC;
class KernelSub {
public:
    __aicore__ inline void CopyIn()
    {
        LocalTensor<half> x = inQueueX.AllocTensor<half>();
        inQueueX.EnQue(x);
        LocalTensor<half> y = inQueueY.AllocTensor<half>();
        inQueueY.EnQue(y);
    }
    __aicore__ inline void Compute()
    {
        LocalTensor<half> xLocal = inQueueX.DeQue<half>();
        LocalTensor<half> yLocal = inQueueY.DeQue<half>();
        LocalTensor<half> zLocal = outQueueZ.AllocTensor<half>();
        Sub(zLocal, xLocal, yLocal, 1024);
        outQueueZ.EnQue(zLocal);
        inQueueX.FreeTensor(xLocal);
        inQueueY.FreeTensor(yLocal);
    }
    __aicore__ inline void CopyOut()
    {
        LocalTensor<half> zLocal = outQueueZ.DeQue<half>();
        outQueueZ.FreeTensor(zLocal);
    }
private:
    TQue<QuePosition::VECIN, 1> inQueueX, inQueueY;
    TQue<QuePosition::VECOUT, 1> outQueueZ;
};
"""


def test_a_dequeue_that_took_another_queues_tensor_is_a_place_of_the_fix_too() -> None:
    """``x = qY.DeQue(); y = qY.DeQue();``: the second DeQue finds qY empty, and the mistake is the first one. Both
    places are proposed (changing the second swaps the operands, which only the cases tell), neither as certain; in
    abs.cpp, where the other DeQue of the queue comes before the right queue is filled, the one place is certain."""
    text = _TWO_INPUTS.replace("xLocal = inQueueX.DeQue", "xLocal = inQueueY.DeQue")
    f = _finding(text, "yLocal = inQueueY", "SIM-QUE-EMPTY", "DeQue from an empty queue: no tensor was EnQue'd")
    fixed = _fixed(text, f)
    assert [new == _TWO_INPUTS for _t, new, _c in fixed] == [False, True] and not any(c for _t, _n, c in fixed)
    assert "xLocal = inQueueY.DeQue" in fixed[0][1] and "yLocal = inQueueX.DeQue" in fixed[0][1]
    text = broken(("LocalTensor<half> yOut = outQueueY.DeQue<half>();",
                   "LocalTensor<half> yOut = inQueueX.DeQue<half>();"))
    ((_title, new, certain),) = _fixed(text, _finding(text, "yOut", "SIM-QUE-EMPTY", "DeQue from an empty queue"))
    assert new == original() and certain


def test_subs_of_a_later_cann_becomes_adds_of_the_negated_scalar() -> None:
    """CANN 8.5 has no Subs (bisheng: ``'Subs' was not declared in this scope``): the fix is the linter's, Adds with
    the scalar negated, never the bare rename (which compiles and adds instead of subtracting)."""
    meant = broken(("Abs(yLocal, xIn, TILE_LENGTH);", "Adds(yLocal, xIn, -scale, TILE_LENGTH);"))
    text = meant.replace("Adds(yLocal, xIn, -scale,", "Subs(yLocal, xIn, -(-scale),")
    cann_8_5 = defaults().with_overrides({"cann.version": "8.5"}, "akgen.toml")  # the default is CANN 9.0 now
    fixed = _fixed(text, _finding(text, "Subs", "CXX", "'Subs' was not declared in this scope"), cann_8_5)
    assert [(new == meant, certain) for _t, new, certain in fixed] == [(True, False)], fixed


@pytest.mark.parametrize("dequeued_at_once", [False, True])
def test_a_tensor_never_enqueued_is_enqueued_after_its_last_use(dequeued_at_once: bool) -> None:
    """A dropped ``EnQue``: the DeQue of the queue finds nothing. The EnQue goes after the tensor's last use, before
    a DeQue of the queue in the same block."""
    text = original()
    if dequeued_at_once:  # the tensor comes back from the queue in the same block
        text = text.replace("            inQueueX.EnQue(xLocal);\n            LocalTensor<half> xIn = inQueueX.DeQue<half>();\n",
                            "            inQueueX.EnQue(xLocal);\n            xLocal = inQueueX.DeQue<half>();\n"
                            "            LocalTensor<half> xIn = xLocal;\n")
    meant = text
    text = text.replace("            inQueueX.EnQue(xLocal);\n", "")
    f = _finding(text, "inQueueX.DeQue", "SIM-QUE-EMPTY", "DeQue from an empty queue: no tensor was EnQue'd")
    fixed = [(t, new, c) for t, new, c in _fixed(text, f) if t.startswith("EnQue")]
    assert [(new == meant, certain) for _t, new, certain in fixed] == [(True, False)], fixed


def test_an_extra_argument_of_a_template_function_is_read_from_the_compilers_types() -> None:
    """The file leaves ``src``'s element type open (a template parameter); the compiler's message lists every
    argument's type, and a number binds no parameter struct (``DataCopyParams``), so only the count form fits."""
    meant = ("#include \"kernel_operator.h\"\nusing namespace AscendC;\ntemplate <typename S>\n"
             "__aicore__ inline void ToFloat(const LocalTensor<float>& dst, const LocalTensor<S>& src, uint32_t count)\n"
             "{\n    DataCopy(dst, src, count);\n}\n")
    text = meant.replace("DataCopy(dst, src, count);", "DataCopy(dst, src, count, count);")
    f = _finding(text, "DataCopy(", "CXX", "no matching function for call to 'DataCopy(const AscendC::LocalTensor<float>&, "
                 "const AscendC::LocalTensor<float>&, uint32_t&, uint32_t&)'")
    assert [new == meant for _t, new, _c in _fixed(text, f)] == [True]
