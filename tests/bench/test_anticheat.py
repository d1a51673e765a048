from __future__ import annotations

from akgen_lsp.bench.anticheat import check_run, static_check


def test_check_run_uses_per_pipe_work() -> None:
    ok = {"pipes": {"MTE2": {"busy_us": 1.0}, "V": {"busy_us": 1.0}, "MTE3": {"busy_us": 0.0}}, "gm_bytes": 64}
    assert check_run(ok, "k.cpp") is None
    no_in = {"pipes": {"V": {"busy_us": 1.0}, "MTE3": {"busy_us": 1.0}}, "gm_bytes": 64}
    assert check_run(no_in, "k.cpp") is None  # creation ops (Eye, ZerosLike) need only the shape
    scalar_out = {"pipes": {"MTE2": {"busy_us": 1.0}, "V": {"busy_us": 1.0}}, "gm_bytes": 64}
    assert check_run(scalar_out, "k.cpp") is None  # a reduction may store its scalar with SetValue
    scalar_only = {"pipes": {"S": {"busy_us": 3.0}}, "gm_bytes": 0}
    f = check_run(scalar_only, "k.cpp")
    assert f is not None and f.error_class == "anti_cheat" and "scalar accesses" in f.message
    assert check_run({"pipes": {}, "gm_bytes": 0}, "k.cpp") is not None
    assert check_run(None, "k.cpp") is None  # no figures: the static check decides


def test_static_fallback() -> None:
    assert static_check("void k() { DataCopy(a, b, 16); }", "k.cpp") is None
    f = static_check("void k() { /* DataCopy(a, b, 16); */ }", "k.cpp")
    assert f is not None and f.code == "BENCH-NO-WORK"
