"""Shared fixtures, and llama.cpp's OpenAI-compatible server over a tiny GGUF for the tests that need a real one."""

from __future__ import annotations

import contextlib
import os
import shutil
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

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "samples"


@pytest.fixture
def repo() -> Path:
    return REPO


@pytest.fixture
def samples() -> Path:
    return SAMPLES


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
class LlamaServer:
    base_url: str
    log: Path
    proc: subprocess.Popen[bytes]

    def log_text(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")


@contextlib.contextmanager
def llama_server_process(model: Path, log: Path, n_ctx: int = 1024, extra: tuple[str, ...] = ()
                         ) -> Iterator[LlamaServer]:
    """`python -m llama_cpp.server` over `model` on a free loopback port, stopped (its whole group) on exit;
    `extra`: more of its options."""
    pytest.importorskip("llama_cpp.server", reason="llama-cpp-python's [server] extra is not installed")
    port = free_port()
    with log.open("wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-u", "-c", ORPHAN_GUARD, str(os.getpid()), "--model", str(model),
             "--host", "127.0.0.1", "--port", str(port), "--n_ctx", str(n_ctx), "--verbose", "False", *extra],
            stdout=out, stderr=subprocess.STDOUT, start_new_session=True,
        )
    server = LlamaServer(f"http://127.0.0.1:{port}/v1", log, proc)
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


def pytest_configure(config: pytest.Config) -> None:
    """The tests run as a user who trusts this checkout and the tests' own temporary folders (`akgen trust add`), in
    a private user-level configuration folder of the test session (not the real user's): workspaces the tests make
    may set every key, as a trusted project does. The hostile tests point AKGEN_CONFIG_DIR elsewhere."""
    if os.environ.get("AKGEN_TESTS_CONFIG_DIR"):  # a subprocess of the session: already set up
        return
    import getpass
    import tempfile

    given = config.option.basetemp
    base = Path(given).resolve() if given else Path(tempfile.gettempdir()).resolve() / f"pytest-of-{getpass.getuser()}"
    folder = Path(tempfile.mkdtemp(prefix="akgen-test-config-"))
    (folder / "trusted").write_text(f"{REPO}\n{base}\n", encoding="utf-8")
    os.environ["AKGEN_CONFIG_DIR"] = os.environ["AKGEN_TESTS_CONFIG_DIR"] = str(folder)


@pytest.fixture
def samples_copy(tmp_path: Path) -> Path:
    """A copy of samples/ (its akgen.toml, kernels and broken kernels) that a test may change. (tests/mcp has no
    conftest.py of its own: with no __init__.py there, so that its name does not hide the MCP SDK's `mcp` package, its
    conftest would be imported as `conftest` and hide this file from the tests that import from it.)"""
    dest = tmp_path / "samples"
    shutil.copytree(Path(__file__).resolve().parents[1] / "samples", dest, ignore=shutil.ignore_patterns(".vscode"))
    return dest
