"""Real tiny models for the backend tests: a GGUF written with `gguf`, llama.cpp's OpenAI-compatible server over it on
loopback, and a HF directory (when torch and transformers are installed)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from conftest import LlamaServer, llama_server_process  # tests/conftest.py

from akgen_lsp.ascendc.catalog import Catalog, load_catalog_dir
from akgen_lsp.model.tiny import write_tiny_gguf, write_tiny_hf

DATA = Path(__file__).with_name("data")
KERNEL = (DATA / "kernel_add.cpp").read_text(encoding="utf-8")
KERNEL_BLANK_LINE = 14  # 0-based: the indented blank line in Compute()

CATALOG_TOML = '''
[meta]
schema = 1
family = "test"

[[entry]]
name = "AscendC"
kind = "namespace"

[[entry]]
name = "AscendC::Add"
kind = "function"
pipe = "V"
doc = "dst = src0 + src1, element by element."
  [[entry.overload]]
  form = "count"
  template = "template <typename T>"
  signature = "void Add(const LocalTensor<T>& dst, const LocalTensor<T>& src0, const LocalTensor<T>& src1, const int32_t& count)"

[[entry]]
name = "AscendC::Adds"
kind = "function"
pipe = "V"
doc = "dst = src + scalar."
  [[entry.overload]]
  signature = "void Adds(const LocalTensor<T>& dst, const LocalTensor<T>& src, const T& scalarValue, const int32_t& count)"

[[entry]]
name = "AscendC::SoftMax"
kind = "function"
pipe = "V"
doc = "Softmax along the last axis; needs a SoftMaxTiling."
  [[entry.overload]]
  signature = "void SoftMax(const LocalTensor<T>& dst, const LocalTensor<T>& src, const SoftMaxTiling& tiling)"

[[entry]]
name = "AscendC::TQue"
kind = "class"
doc = "A queue of local tensors."

[[entry]]
name = "AscendC::TQue::AllocTensor"
kind = "method"
doc = "Takes a free buffer of the queue."
  [[entry.overload]]
  signature = "LocalTensor<T> AllocTensor()"

[[entry]]
name = "AscendC::TQue::DeQue"
kind = "method"
doc = "Takes the oldest tensor out of the queue."
  [[entry.overload]]
  signature = "LocalTensor<T> DeQue()"

[[invented]]
name = "AscendC::Softmax"
replacement = "AscendC::SoftMax"
certain = true
note = "SoftMax also takes a SoftMaxTiling."
'''


@pytest.fixture(scope="session")
def small_catalog(tmp_path_factory: pytest.TempPathFactory) -> Catalog:
    folder = tmp_path_factory.mktemp("catalog")
    (folder / "test.toml").write_text(CATALOG_TOML, encoding="utf-8")
    return load_catalog_dir(folder)


@pytest.fixture(scope="session")
def tiny_gguf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return write_tiny_gguf(tmp_path_factory.mktemp("gguf") / "akgen-tiny.gguf")


@pytest.fixture(scope="session")
def llama_server(tiny_gguf: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[LlamaServer]:
    """`python -m llama_cpp.server` over the tiny GGUF on a free loopback port; stopped at the end of the session."""
    with llama_server_process(tiny_gguf, tmp_path_factory.mktemp("server") / "server.log", n_ctx=1024) as server:
        yield server


@pytest.fixture(scope="session")
def tiny_hf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("torch", reason="torch is not installed (pip install 'akgen-lsp[hf]')")
    pytest.importorskip("transformers", reason="transformers is not installed (pip install 'akgen-lsp[hf]')")
    return write_tiny_hf(tmp_path_factory.mktemp("hf") / "tiny-llama")
