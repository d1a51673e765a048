"""Real tiny models for the backend tests: a GGUF written with `gguf`, llama.cpp's OpenAI-compatible server over it on
loopback, and a HF directory (when torch and transformers are installed)."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest

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


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# Runs llama_cpp.server, and exits as soon as the test process is gone (even killed with SIGKILL, when no finaliser
# runs), so a server never outlives its session.
ORPHAN_GUARD = """
import os, runpy, sys, threading, time
parent = int(sys.argv[1])
def watch():
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(0)
threading.Thread(target=watch, daemon=True).start()
sys.argv = ["llama_cpp.server", *sys.argv[2:]]
runpy.run_module("llama_cpp.server", run_name="__main__", alter_sys=True)
"""


@dataclass
class Server:
    base_url: str
    log: Path
    proc: subprocess.Popen[bytes]

    def log_text(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")


@pytest.fixture(scope="session")
def llama_server(tiny_gguf: Path, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """`python -m llama_cpp.server` over the tiny GGUF on a free loopback port; stopped at the end of the session."""
    pytest.importorskip("llama_cpp.server", reason="llama-cpp-python's [server] extra is not installed")
    port = free_port()
    log = tmp_path_factory.mktemp("server") / "server.log"
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-u", "-c", ORPHAN_GUARD, str(os.getpid()), "--model", str(tiny_gguf),
             "--host", "127.0.0.1", "--port", str(port), "--n_ctx", "1024", "--verbose", "False"],
            stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )
    server = Server(f"http://127.0.0.1:{port}/v1", log, proc)
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                pytest.fail(f"llama_cpp.server exited with {proc.returncode}:\n{server.log_text()[-2000:]}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(server.base_url + "/models", timeout=1.0).status_code == 200:
                    break
            if time.monotonic() > deadline:
                pytest.fail(f"llama_cpp.server did not start within 60 s:\n{server.log_text()[-2000:]}")
            time.sleep(0.1)
        yield server
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)


@pytest.fixture(scope="session")
def tiny_hf(tmp_path_factory: pytest.TempPathFactory) -> Path:
    pytest.importorskip("torch", reason="torch is not installed (pip install 'akgen-lsp[hf]')")
    pytest.importorskip("transformers", reason="transformers is not installed (pip install 'akgen-lsp[hf]')")
    return write_tiny_hf(tmp_path_factory.mktemp("hf") / "tiny-llama")
