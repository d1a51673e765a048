"""Settings for the server (layers, invalid editor options) and the per-source diagnostic store."""

from __future__ import annotations

from pathlib import Path

from akgen_lsp.server.session import DocumentDiagnostics, SettingsProvider, strip_client_sections


def test_client_only_sections_are_dropped():
    options = {"akgen": {"server": {"command": ["akgen"]}, "trace": {"server": "off"}, "arch": "Ascend310P"}}
    assert strip_client_sections(options) == {"akgen": {"arch": "Ascend310P"}}
    assert strip_client_sections({"trace.server": "off", "lint.enable": False}) == {"lint.enable": False}


def test_invalid_editor_options_are_dropped_with_a_sentence(tmp_path: Path):
    provider = SettingsProvider(tmp_path, env={})
    problem = provider.set_options({"lint": {"debounce_ms": "soon"}})
    assert problem is not None and "lint.debounce_ms" in problem and "fix them" in problem
    assert provider.for_path(str(tmp_path / "k.cpp"))["lint.debounce_ms"] == 150
    assert provider.take_problems() == [problem]
    assert provider.take_problems() == []


def test_layers_file_then_env_then_editor(tmp_path: Path):
    (tmp_path / "akgen.toml").write_text('arch = "Ascend910B3"\n[lint]\ndebounce_ms = 40\n', encoding="utf-8")
    sub = tmp_path / "op_kernel"
    sub.mkdir()
    provider = SettingsProvider(tmp_path, env={"AKGEN_CANN_VERSION": "8.3"})
    settings = provider.for_path(str(sub / "k.cpp"))
    assert settings["arch"] == "Ascend910B3" and settings["lint.debounce_ms"] == 40
    assert settings["cann.version"] == "8.3"
    assert provider.set_options({"akgen": {"lint": {"debounce_ms": 10}}}) is None
    assert provider.for_path(str(sub / "k.cpp"))["lint.debounce_ms"] == 10


def test_a_broken_config_file_is_reported_and_the_defaults_used(tmp_path: Path):
    (tmp_path / "akgen.toml").write_text("arch = [", encoding="utf-8")
    provider = SettingsProvider(tmp_path, env={})
    settings = provider.for_path(str(tmp_path / "k.cpp"))
    assert settings["arch"] == "Ascend910B2"
    problems = provider.take_problems()
    assert len(problems) == 1 and "akgen.toml" in problems[0]


def test_sources_are_merged_in_a_fixed_order():
    doc = DocumentDiagnostics()
    doc.set("run", 3, ["r"])
    doc.set("lint", 3, ["l1", "l2"])
    doc.set("build", 2, ["b"])
    assert doc.merged() == ["l1", "l2", "b", "r"]
    doc.clear("build")
    assert doc.merged() == ["l1", "l2", "r"]
    assert doc.version("lint") == 3 and doc.version("build") is None


def test_luas_empty_table_is_no_settings() -> None:
    provider = SettingsProvider(env={})
    assert provider.set_options({"akgen": []}) is None and provider.options == {}
    assert strip_client_sections({"akgen": [], "arch": "Ascend910B4"}) == {"arch": "Ascend910B4"}
