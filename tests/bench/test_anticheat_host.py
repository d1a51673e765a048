from __future__ import annotations

from akgen_lsp.ascendc.arch import load_arch
from akgen_lsp.bench.anticheat import check_run, static_check
from akgen_lsp.bench.host_tiling import find_tiling_struct, run_host_tiling
from akgen_lsp.bench.tasks import Task


def test_check_run_uses_per_pipe_work() -> None:
    ok = {"pipes": {"MTE2": {"busy_us": 1.0}, "V": {"busy_us": 1.0}, "MTE3": {"busy_us": 0.0}}, "gm_bytes": 64}
    assert check_run(ok, "k.cpp") is None
    no_in = {"pipes": {"V": {"busy_us": 1.0}, "MTE3": {"busy_us": 1.0}}, "gm_bytes": 64}
    f = check_run(no_in, "k.cpp")
    assert f is not None and f.error_class == "anti_cheat" and "MTE2" in f.message
    assert check_run(no_in, "k.cpp", has_inputs=False) is None  # tensor creation reads nothing
    assert check_run({"pipes": {}, "gm_bytes": 0}, "k.cpp") is not None
    assert check_run({"pipes": {"MTE2": {}}}, "k.cpp") is not None  # nothing written back
    assert check_run(None, "k.cpp") is None  # no figures: the static check decides


def test_static_fallback() -> None:
    assert static_check("void k() { DataCopy(a, b, 16); }", "k.cpp") is None
    f = static_check("void k() { /* DataCopy(a, b, 16); */ }", "k.cpp")
    assert f is not None and f.code == "BENCH-NO-WORK"


def test_host_tiling_adapter_runs_the_tiling_func(add_task: Task) -> None:
    a = add_task.answers[0]
    struct = find_tiling_struct([a.tiling_header], "AddMath")
    assert struct is not None and struct.name == "optiling::AddMathTilingData"
    assert [f[0] for f in struct.fields] == ["totalLength", "perCore", "tileLength"]
    arch = load_arch("Ascend910B2")
    t = run_host_tiling(a.host, [a.tiling_header], "AddMath", [("float16", (1000,)), ("float16", (1000,))],
                        [("float16", (1000,))], {}, arch)
    # 1000 elements in 64-element chunks: 16 chunks over 48 cores -> one chunk (64) per core, 16 cores
    assert t.fields == {"totalLength": 1000, "perCore": 64, "tileLength": 64}
    assert t.block_dim == 16 and t.workspace == [0]
