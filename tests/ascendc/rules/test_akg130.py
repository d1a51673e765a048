"""AKG130 ub-budget: the sum of constant InitBuffer sizes over the UB, and buffers per TPipe."""

from __future__ import annotations

from dataclasses import replace

from akgen_lsp.ascendc.arch import load_arch
from akgen_lsp.ascendc.catalog import load_catalog
from akgen_lsp.ascendc.context import LintContext
from akgen_lsp.ascendc.rules import rule_by_code
from akgen_lsp.ascendc.syntax import parse
from akgen_lsp.config import defaults

from .conftest import at, fixture_text, lint


def test_good_fixture_is_clean() -> None:
    assert lint(fixture_text("akg130_good.cpp"), "AKG130") == []


def test_bad_fixture_findings_in_place() -> None:
    found = lint(fixture_text("akg130_bad.cpp"), "AKG130")
    assert [at(f) for f in found] == [(18, 9), (25, 9)]
    budget, count = found
    # 2 x 65536 + 2 x 65536 + 1 x 1024 (1000 rounded up to 32 bytes)
    assert budget.message.startswith("buffer size is 263168, exceeds the limit 196608")
    assert "tmpBuf 1 x 1024" in budget.message
    assert budget.data == {"total": 263168, "limit": 196608}
    assert budget.error_class == "memory"
    assert count.message.startswith("Total buffer num managed by TPipe is 66, should be in range (0, 64]")


def _kernel(init: str) -> str:
    return f"""#include "kernel_operator.h"
using namespace AscendC;
constexpr uint32_t TILE = 32768;
class KernelX {{
public:
    __aicore__ inline void Init(uint32_t n)
    {{
{init}
    }}
private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> a;
    TQue<QuePosition::VECOUT, 1> b;
    TBuf<TPosition::VECCALC> c;
    TQue<QuePosition::B1, 1> l1;
}};
"""


def test_exactly_the_ub_size_fits_and_one_more_block_does_not() -> None:
    fits = "pipe.InitBuffer(a, 2, TILE);\npipe.InitBuffer(b, 2, TILE);\npipe.InitBuffer(c, 2 * TILE);"
    assert lint(_kernel(fits), "AKG130") == []
    over = fits + "\npipe.InitBuffer(c, 1);"  # c initialised twice: not a plain sum, silent
    assert lint(_kernel(over), "AKG130") == []
    over = "pipe.InitBuffer(a, 2, TILE);\npipe.InitBuffer(b, 2, TILE);\npipe.InitBuffer(c, 2 * TILE + 1);"
    (finding,) = lint(_kernel(over), "AKG130")
    assert finding.message.startswith("buffer size is 196640, exceeds the limit 196608")


def test_unknown_sizes_and_other_memories_stay_silent() -> None:
    assert lint(_kernel("pipe.InitBuffer(a, 2, TILE * 4);\npipe.InitBuffer(b, 2, n);"), "AKG130") == []
    assert lint(_kernel("pipe.InitBuffer(l1, 2, TILE * 8);\npipe.InitBuffer(a, 1, 1024);"), "AKG130") == []


def test_pipe_reset_between_inits_stays_silent() -> None:
    text = _kernel("pipe.InitBuffer(a, 2, TILE * 2);\npipe.Reset();\npipe.InitBuffer(b, 2, TILE * 2);")
    assert lint(text, "AKG130") == []


def test_arch_profile_sets_the_limit() -> None:
    text = _kernel("pipe.InitBuffer(a, 2, TILE);\npipe.InitBuffer(b, 2, TILE);\npipe.InitBuffer(c, 3 * TILE);")
    arch = load_arch(defaults()["arch"])
    rule = rule_by_code("AKG130")
    assert rule is not None

    def run(ub: int) -> list[str]:
        profile = replace(arch, memory={**arch.memory, "ub": ub, "ub_usable": ub})
        ctx = LintContext(parse(text, "k.cpp"), load_catalog(), profile, "8.0")
        return [f.message for f in rule.check(ctx)]

    assert run(arch.ub_bytes)[0].startswith(f"buffer size is 229376, exceeds the limit {arch.ub_bytes}")
    assert run(262144) == []  # a part with 256 KiB of UB


def test_310p_limit_is_its_usable_ub_not_the_whole_256_kib() -> None:
    # 229376 bytes fit in 248 KiB; 253984 (one block over 253952) does not, though it is under 256 KiB
    arch = load_arch("Ascend310P")
    assert arch.ub_usable_bytes < arch.ub_bytes
    rule = rule_by_code("AKG130")
    assert rule is not None

    def run(init: str) -> list[str]:
        ctx = LintContext(parse(_kernel(init), "k.cpp"), load_catalog(), arch, "8.0")
        return [f.message for f in rule.check(ctx)]

    assert run("pipe.InitBuffer(a, 2, TILE);\npipe.InitBuffer(b, 2, TILE);\npipe.InitBuffer(c, 3 * TILE);") == []
    over = f"pipe.InitBuffer(a, 2, TILE);\npipe.InitBuffer(b, 2, TILE);\npipe.InitBuffer(c, {arch.ub_usable_bytes - 4 * 32768 + 32});"
    (msg,) = run(over)
    assert msg.startswith(f"buffer size is {arch.ub_usable_bytes + 32}, exceeds the limit {arch.ub_usable_bytes}")


def test_template_parameter_sizes_are_unknown() -> None:
    text = """#include "kernel_operator.h"
using namespace AscendC;
template <int32_t M>
class KernelX {
public:
    __aicore__ inline void Init() { pipe.InitBuffer(a, 2, M * 1024); }
private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> a;
};
constexpr int32_t M = 4096;
"""
    assert lint(text, "AKG130") == []


def test_instantiations_written_in_the_file_are_summed() -> None:
    text = """#include "kernel_operator.h"
using namespace AscendC;
template <typename T, int32_t TILE, int32_t BUF>
class KernelX {
public:
    __aicore__ inline void Init()
    {
        pipe.InitBuffer(a, BUF, TILE * sizeof(T));
        pipe.InitBuffer(b, BUF, TILE * sizeof(T));
    }
private:
    TPipe pipe;
    TQue<QuePosition::VECIN, 1> a;
    TQue<QuePosition::VECOUT, 1> b;
};
extern "C" __global__ __aicore__ void k(GM_ADDR x)
{
    KernelX<half, 16384, 2> small;
    KernelX<float, 16384, 2> big;
    KernelX<half, 64, 40> many;
}
"""
    found = sorted(lint(text, "AKG130", "AKG120"), key=lambda f: (f.code, f.span.line))
    assert [(f.code, f.span.line, f.message.split(":")[0]) for f in found] == [
        ("AKG120", 8, "current size is 40, max buffer number in same queue position is 8"),
        ("AKG120", 9, "current size is 40, max buffer number in same queue position is 8"),
        ("AKG130", 9, "buffer size is 262144, exceeds the limit 196608"),
        ("AKG130", 9, "Total buffer num managed by TPipe is 80, should be in range (0, 64]"),
    ]
    assert "'Init' (in KernelX<T = float, TILE = 16384, BUF = 2>)" in found[2].message
    assert "(in KernelX<T = half, TILE = 64, BUF = 40>)" in found[3].message
