from __future__ import annotations

import pytest

from akgen_lsp.model.registry import PROJECT_REGISTRY, RegistryError, load_registry, parse_registry


def test_project_registry_knows_every_kernelgen_checkpoint() -> None:
    reg = load_registry()
    assert reg.source == str(PROJECT_REGISTRY)
    names = {m.name for m in reg.models}
    for size in ("1.7B", "4B", "14B", "32B", "32B-RL", "MoE-30B"):
        spec = reg.get(f"KernelGen-LM-{size}")
        assert spec is not None and f"KernelGen-LM-{size}" in names
        assert spec.format == "chat" and spec.think and spec.hf_repo.startswith("AscendKernelGen/")
        assert spec.context >= 32768 and "<|im_end|>" in spec.stop


def test_match_by_file_name_prefers_the_most_specific_entry() -> None:
    reg = load_registry()
    assert reg.for_model(path="models/KernelGen-LM-32B-RL-Q4_K_M.gguf").name == "KernelGen-LM-32B-RL"
    assert reg.for_model(path="models/kernelgen-lm-32b-q4_k_m.gguf").name == "KernelGen-LM-32B"
    assert reg.for_model(path="/x/KernelGen-LM-4B").name == "KernelGen-LM-4B"
    assert reg.for_model(name="kernelgen-lm-14b").name == "KernelGen-LM-14B"
    assert reg.for_model(path="/tmp/akgen-tiny.gguf").format == "fim"


def test_unknown_model_gets_the_defaults() -> None:
    spec = load_registry().for_model(path="/m/some-base-model.gguf")
    assert not spec.known and spec.format == "prefix" and spec.name == "some-base-model.gguf"


def test_bad_registry_is_a_clear_error() -> None:
    with pytest.raises(RegistryError, match="format 'weird'"):
        parse_registry('[[model]]\nname = "x"\nformat = "weird"\n')
    with pytest.raises(RegistryError, match="lacks a name"):
        parse_registry("[[model]]\nformat = 'fim'\n")
    with pytest.raises(RegistryError, match="not valid TOML"):
        parse_registry("[[model]\n")


def test_workspace_registry_comes_first(tmp_path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "models").mkdir()
    (tmp_path / "models" / "registry.toml").write_text('[[model]]\nname = "mine"\nformat = "fim"\n')
    reg = load_registry(tmp_path)
    assert [m.name for m in reg.models] == ["mine"]
