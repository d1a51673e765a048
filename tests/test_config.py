from __future__ import annotations

from pathlib import Path

import pytest

from akgen_lsp.config import SettingsError, env_var, load_settings


def test_defaults() -> None:
    s = load_settings(None, env={})
    assert s["model.backend"] == "none"
    assert s["arch"] == "Ascend910B2"
    assert s.origin("arch") == "default"


def test_layers_file_then_env_then_editor(tmp_path: Path) -> None:
    (tmp_path / "akgen.toml").write_text('arch = "Ascend910B4"\n[model]\nbackend = "llama_cpp"\npath = "a.gguf"\n')
    sub = tmp_path / "kernels"
    sub.mkdir()
    s = load_settings(sub, env={"AKGEN_MODEL_PATH": "b.gguf", "AKGEN_LINT_DEBOUNCE_MS": "90"})
    assert s["arch"] == "Ascend910B4"
    assert s["model.backend"] == "llama_cpp"
    assert s["model.path"] == "b.gguf"
    assert s["lint.debounce_ms"] == 90
    assert s.origin("model.path") == "environment variable AKGEN_MODEL_PATH"
    s2 = load_settings(sub, env={}, editor_options={"akgen": {"model": {"path": "c.gguf"}}, "lint.ignore": ["AKG160"]})
    assert s2["model.path"] == "c.gguf"
    assert s2["lint.ignore"] == ["AKG160"]


def test_env_var_name() -> None:
    assert env_var("model.path") == "AKGEN_MODEL_PATH"


def test_unknown_key_names_key_and_file(tmp_path: Path) -> None:
    (tmp_path / "akgen.toml").write_text("[model]\npaht = 'x'\n")
    with pytest.raises(SettingsError) as err:
        load_settings(tmp_path, env={})
    msg = str(err.value)
    assert "'model.paht'" in msg and "akgen.toml" in msg and "model.path" in msg


def test_wrong_type_names_key_and_origin(tmp_path: Path) -> None:
    (tmp_path / "akgen.toml").write_text("lint.debounce_ms = 'soon'\n")
    with pytest.raises(SettingsError, match=r"'lint.debounce_ms'.*akgen.toml.*integer"):
        load_settings(tmp_path, env={})
    with pytest.raises(SettingsError, match="AKGEN_LINT_ENABLE"):
        load_settings(None, env={"AKGEN_LINT_ENABLE": "maybe"})
    with pytest.raises(SettingsError, match="one of"):
        load_settings(None, env={}, editor_options={"model": {"backend": "gpt"}})


def test_bad_toml_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "akgen.toml").write_text("arch = \n")
    with pytest.raises(SettingsError, match="not valid TOML"):
        load_settings(tmp_path, env={})
