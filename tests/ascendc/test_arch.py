"""The bundled hardware profiles (akgen_lsp/ascendc/catalog/arch/*.toml) and the profile loader."""

from __future__ import annotations

from pathlib import Path

import pytest

from akgen_lsp.ascendc.arch import ArchError, ArchProfile, arch_names, canonical_arch, load_arch

A2A3 = ("Ascend910B1", "Ascend910B2", "Ascend910B3", "Ascend910B4", "Ascend910_93")
ALL = (*A2A3, "Ascend310P")
# the vector ops of the shared reference §7 cost table (keys of [cost.vector])
SECTION7_OPS = ("add", "sub", "mul", "max", "min", "adds", "muls", "maxs", "mins", "abs", "relu", "exp", "ln", "sqrt", "div",
                "rsqrt", "duplicate", "whole_reduce_sum", "block_reduce_sum", "select", "cast")
BANDWIDTH_KEYS = ("gm_to_ub", "gm_to_l1", "ub_to_gm", "ub_to_ub", "l0c_to_gm", "l1_to_l0a", "l1_to_l0b")


def test_all_profiles_listed_and_private_files_hidden() -> None:
    names = arch_names()
    assert set(ALL) <= set(names)
    assert not any(n.startswith("_") for n in names)


@pytest.mark.parametrize("name", ALL)
def test_profile_loads_with_sane_values(name: str) -> None:
    a = load_arch(name)
    assert isinstance(a, ArchProfile) and a.name == name
    assert a.aic_cores > 0 and a.aiv_cores > 0 and 0.5 < a.clock_ghz < 3.0 and a.hbm_gbps > 0
    mem = a.memory
    for key in ("ub", "l1", "l0a", "l0b", "l0c", "l2", "ub_usable", "bias_table", "fixpipe_buffer"):
        assert key in mem, f"{name} lacks memory.{key}"
    assert mem["ub_usable"] <= mem["ub"] < mem["l1"] < mem["l2"]
    assert mem["l0a"] == mem["l0b"] == 65536
    assert a.alignment["ub"] == 32 and a.alignment["l0a"] == 512 and a.alignment["l0c"] == 64
    assert a.alignment["compare"] == 256 and a.alignment["datacopy"] == 32
    lim = a.limits
    assert lim["buffers_per_position"] == 8 and lim["buffers_per_pipe"] == 64
    assert lim["max_repeat"] == 255 and lim["max_block_count"] == 4095 and lim["event_ids"] == 8
    assert set(BANDWIDTH_KEYS) <= set(a.bandwidth_gibps)
    assert a.bandwidth_gibps["gm_to_ub"] == 101.0 and a.bandwidth_gibps["l1_to_l0a"] == 441.0
    assert "parameter" in a.doc


@pytest.mark.parametrize("name", A2A3)
def test_a2a3_memory_and_arch(name: str) -> None:
    a = load_arch(name)
    assert a.npu_arch == "2201"
    assert a.ub_bytes == 196608 and a.ub_usable_bytes == 196608
    assert a.memory["l1"] == 524288 and a.memory["l0c"] == 131072
    assert a.memory["bias_table"] == 1024 and a.memory["fixpipe_buffer"] == 7168
    assert a.clock_ghz == pytest.approx(1.85)


def test_core_counts_and_hbm_parameter() -> None:
    for name in ("Ascend910B1", "Ascend910B2", "Ascend910_93"):
        a = load_arch(name)
        assert (a.aic_cores, a.aiv_cores) == (24, 48)
    for name in ("Ascend910B3", "Ascend910B4"):
        a = load_arch(name)
        assert (a.aic_cores, a.aiv_cores) == (20, 40)
    assert load_arch("Ascend910B4").hbm_gbps == 800.0
    # 1.8 TB/s: the GM peak of the asc-devkit performance guide (benchmarks/sim_calibration.py)
    assert all(load_arch(n).hbm_gbps == 1800.0 for n in ("Ascend910B1", "Ascend910B2", "Ascend910B3", "Ascend910_93"))
    assert "not officially published" in load_arch("Ascend910B2").doc


def test_310p_profile() -> None:
    a = load_arch("Ascend310P")
    assert a.npu_arch == "2002"
    assert a.ub_bytes == 262144 and a.ub_usable_bytes == 253952
    assert a.memory["l1"] == 1048576 and a.memory["l0c"] == 262144
    assert (a.aic_cores, a.aiv_cores) == (8, 7)
    assert a.extra["cube_vector_split"] is False and load_arch("Ascend910B2").extra["cube_vector_split"] is True


@pytest.mark.parametrize("name", ALL)
def test_cost_tables_cover_section7(name: str) -> None:
    a = load_arch(name)
    assert a.cost["source"] and a.cost["vector"] and a.cost["cube"] and a.cost["dma"]
    for op in SECTION7_OPS:
        assert op in a.cost["vector"], f"{name}: [cost.vector] lacks {op}"
        startup, slope = a.vector_cost(op)
        assert startup >= 0 and slope > 0
    assert a.cost["cube"]["macs_per_cycle_fp16"] == 4096 and a.cost["cube"]["macs_per_cycle_int8"] == 8192


def test_vector_cost_picks_width_and_integer_columns() -> None:
    a = load_arch("Ascend910B2")
    assert a.vector_cost("exp", 2) == pytest.approx((12.012, 3.988))
    assert a.vector_cost("exp", 4) == pytest.approx((12.0, 2.0))
    assert a.vector_cost("div", 2)[1] == 8.0 and a.vector_cost("div", 4)[1] == 4.0
    assert a.vector_cost("add", 4, integer=True) == pytest.approx((4.986, 2.001))
    assert a.vector_cost("Mul", 2) == pytest.approx((6.866, 2.134))
    assert a.vector_cost("no_such_op") == (6.0, 2.0)
    assert a.cast_cost("f16_to_f32") == (5.0, 2.0)
    assert a.cast_cost("f32_to_f16") == (14.0, 2.0)


def test_aliases_resolve() -> None:
    assert canonical_arch("910b4") == "Ascend910B4"
    assert canonical_arch("ascend310p") == "Ascend310P"
    assert load_arch("910_93").name == "Ascend910_93"


def test_unknown_arch_and_inheritance_errors(tmp_path: Path) -> None:
    with pytest.raises(ArchError, match="known: "):
        load_arch("Ascend999", tmp_path)
    (tmp_path / "A.toml").write_text('inherits = "B"\nname = "A"\n', encoding="utf-8")
    (tmp_path / "B.toml").write_text('inherits = "A"\nname = "B"\n', encoding="utf-8")
    with pytest.raises(ArchError, match="circle"):
        load_arch("A", tmp_path)
    (tmp_path / "C.toml").write_text('name = "C"\nnpu_arch = "2201"\n', encoding="utf-8")
    with pytest.raises(ArchError, match="lacks"):
        load_arch("C", tmp_path)
