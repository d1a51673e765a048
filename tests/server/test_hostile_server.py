"""The hostile suite, at the server: `akgen serve` survives broken framing (a real server process fed raw bytes),
and nothing of a check on save outlives a close, a new save or a shutdown (a kernel that spins forever, saved over
LSP; the test looks for its processes from outside, whatever the server's worker looks like)."""

from __future__ import annotations

import asyncio
import json
import os
import select
import subprocess
import time
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, LanguageClient

from tests.check.test_worker import SPIN as SPIN_KERNEL
from tests.check.test_worker import TOML as SPIN_TASK

from .lsp_helpers import CONFIG, SERVER, initialize_params, make_client

pytestmark = pytest.mark.hostile

INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}, "processId": None,
                                                                       "rootUri": None}}


def frame(obj: object, length: int | str | None = None) -> bytes:
    body = json.dumps(obj).encode()
    return f"Content-Length: {len(body) if length is None else length}\r\n\r\n".encode() + body


def read_answers(proc: subprocess.Popen[bytes], want: int, timeout: float = 30.0) -> list[dict[str, object]]:
    """Answers with an id from the server's stdout until `want` of them came (or the time is up)."""
    assert proc.stdout is not None
    buf = b""
    out: list[dict[str, object]] = []
    deadline = time.time() + timeout
    while time.time() < deadline and len([a for a in out if "id" in a]) < want:
        ready, _, _ = select.select([proc.stdout], [], [], 0.2)
        if ready:
            chunk = os.read(proc.stdout.fileno(), 65536)
            if not chunk:
                break
            buf += chunk
        while b"\r\n\r\n" in buf:
            head, rest = buf.split(b"\r\n\r\n", 1)
            n = int(head.split(b"Content-Length:")[1].split(b"\r\n")[0])
            if len(rest) < n:
                break
            out.append(json.loads(rest[:n]))
            buf = rest[n:]
    return out


@pytest.mark.parametrize("bad", [10**12, -1, "twelve", 3, None], ids=["huge", "negative", "non-numeric",
                                                                       "too-short", "missing"])
def test_the_server_answers_after_a_broken_frame(bad: int | str | None) -> None:
    shutdown = {"jsonrpc": "2.0", "id": 2, "method": "shutdown", "params": None}
    broken = {"jsonrpc": "2.0", "id": 9, "method": "shutdown", "params": None}
    garbage = (b"Content-Type: x\r\n\r\n" + json.dumps(broken).encode()) if bad is None else frame(broken, bad)
    proc = subprocess.Popen(SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert proc.stdin is not None
        proc.stdin.write(frame(INIT) + garbage + frame(shutdown))
        proc.stdin.flush()
        answers = read_answers(proc, 2)
        assert [a["id"] for a in answers if "id" in a] == [1, 2], answers
        assert proc.poll() is None  # alive, no MemoryError
        logs = [a for a in answers if a.get("method") == "window/logMessage"]
        assert any("framing" in str(a["params"]) for a in logs), answers
        proc.stdin.write(frame({"jsonrpc": "2.0", "method": "exit", "params": None}))
        proc.stdin.close()
        assert proc.wait(20) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()


# ------------------------------------------------------------------------------------------------ cancellation

# the check worker's own spinning kernel and its task (a kernel that never ends: only a cancel stops it)
SPIN = SPIN_KERNEL
TASK = SPIN_TASK


@pytest.fixture(scope="module")
def marker(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A TMPDIR of its own for the servers of this module: every run folder, and so every process of a check's
    kernel, names it."""
    folder = tmp_path_factory.mktemp(f"akgen-hostile-{uuid.uuid4().hex[:8]}")
    saved = {k: os.environ.get(k) for k in ("TMPDIR", "AKGEN_CACHE_DIR")}
    os.environ["TMPDIR"] = str(folder / "tmp")
    os.environ["AKGEN_CACHE_DIR"] = str(folder / "cache")
    (folder / "tmp").mkdir()
    yield str(folder / "tmp")
    for k, v in saved.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v


def kernel_processes(marker: str) -> set[int]:
    pids = set()
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        if marker.encode() in cmd and b"spec.txt" in cmd:
            pids.add(int(pid))
    return pids


async def until(predicate, timeout: float) -> bool:  # type: ignore[no-untyped-def]
    deadline = time.time() + timeout
    while time.time() < deadline:
        if predicate():
            return True
        await asyncio.sleep(0.1)
    return bool(predicate())


@pytest_lsp.fixture(config=CONFIG)
async def client(lsp_client: LanguageClient, marker: str, tmp_path: Path) -> AsyncIterator[LanguageClient]:
    (tmp_path / "akgen.toml").write_text(TASK, encoding="utf-8")
    (tmp_path / "spin.cpp").write_text(SPIN, encoding="utf-8")
    options = {"toolchain": {"timeout_s": 300.0}, "check_on_save": "always"}
    await lsp_client.initialize_session(initialize_params("visual-studio-code", options, root=tmp_path))
    lsp_client.spin_path = tmp_path / "spin.cpp"  # type: ignore[attr-defined]
    yield lsp_client
    await lsp_client.shutdown_session()


def open_and_save(client: LanguageClient, path: Path) -> str:
    uri = path.as_uri()
    client.text_document_did_open(types.DidOpenTextDocumentParams(
        text_document=types.TextDocumentItem(uri=uri, language_id="cpp", version=1, text=path.read_text("utf-8"))))
    save(client, uri)
    return uri


def save(client: LanguageClient, uri: str) -> None:
    client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))


async def running(marker: str) -> set[int]:
    assert await until(lambda: bool(kernel_processes(marker)), 180.0), "the spinning kernel never started"
    return kernel_processes(marker)


async def test_closing_the_document_stops_its_kernel(client: LanguageClient, marker: str) -> None:
    uri = open_and_save(client, client.spin_path)  # type: ignore[attr-defined]
    first = await running(marker)
    client.text_document_did_close(types.DidCloseTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    assert await until(lambda: not (kernel_processes(marker) & first), 15.0), kernel_processes(marker)


async def test_a_new_save_stops_the_previous_kernel(client: LanguageClient, marker: str) -> None:
    uri = open_and_save(client, client.spin_path)  # type: ignore[attr-defined]
    first = await running(marker)
    save(client, uri)
    assert await until(lambda: not (kernel_processes(marker) & first), 15.0), (first, kernel_processes(marker))
    client.text_document_did_close(types.DidCloseTextDocumentParams(
        text_document=types.TextDocumentIdentifier(uri=uri)))
    assert await until(lambda: not kernel_processes(marker), 15.0)


@pytest_lsp.fixture(config=CONFIG)
async def bare(lsp_client: LanguageClient, marker: str) -> AsyncIterator[LanguageClient]:
    """A server the test initializes and shuts down itself."""
    yield lsp_client


async def test_shutdown_stops_every_kernel(bare: LanguageClient, marker: str, tmp_path: Path) -> None:
    lsp_client = bare
    (tmp_path / "akgen.toml").write_text(TASK, encoding="utf-8")
    (tmp_path / "spin.cpp").write_text(SPIN, encoding="utf-8")
    await lsp_client.initialize_session(initialize_params(
        "visual-studio-code", {"toolchain": {"timeout_s": 300.0}, "check_on_save": "always"}, root=tmp_path))
    open_and_save(lsp_client, tmp_path / "spin.cpp")
    await running(marker)
    await lsp_client.shutdown_session()
    assert await until(lambda: not kernel_processes(marker), 15.0), kernel_processes(marker)


# the sandbox switched off where it may be: the user's own environment (user-level configuration)
CONFIG_OFF = ClientServerConfig(server_command=SERVER, client_factory=make_client,
                                server_env={**os.environ, "AKGEN_SIM_SANDBOX": "off"})


@pytest_lsp.fixture(config=CONFIG_OFF)
async def user_off(lsp_client: LanguageClient, marker: str) -> AsyncIterator[LanguageClient]:
    yield lsp_client


async def test_sandbox_off_is_a_warning_on_every_check(user_off: LanguageClient, marker: str, tmp_path: Path) -> None:
    bare = user_off
    (tmp_path / "akgen.toml").write_text(TASK.replace("spin.cpp", "ok.cpp"), encoding="utf-8")
    (tmp_path / "ok.cpp").write_text(SPIN.replace("volatile int forever = 1;", "volatile int forever = 0;"),
                                     encoding="utf-8")
    await bare.initialize_session(initialize_params("visual-studio-code", {"check_on_save": "always"}, root=tmp_path))
    uri = open_and_save(bare, tmp_path / "ok.cpp")
    save(bare, uri)

    def warnings() -> list[str]:
        return [m.message for m in bare.messages if m.type == types.MessageType.Warning and "sim.sandbox" in m.message]

    assert await until(lambda: len(warnings()) >= 2, 120.0), [m.message for m in bare.messages]
    assert '"off"' in warnings()[0] and "with your rights" in warnings()[0]
    assert "AKGEN_SIM_SANDBOX" in warnings()[0]
    await bare.shutdown_session()


async def test_an_editor_cannot_name_the_compiler_or_switch_the_sandbox_off(bare: LanguageClient, marker: str,
                                                                            tmp_path: Path) -> None:
    """A client (a workspace's .vscode/settings.json, or anyone reaching --tcp) sends a compiler path and the sandbox
    switch in its initialization options, claiming a trusted workspace: both are ignored, each named once in a
    window/showMessage, and the check runs confined with the real compiler (the planted one never runs)."""
    evil = tmp_path / "evil-cxx"
    flag = tmp_path / f"ran-{marker}"
    evil.write_text(f"#!/bin/sh\ntouch {flag}\nexec g++ \"$@\"\n")
    evil.chmod(0o755)
    (tmp_path / "akgen.toml").write_text(TASK.replace("spin.cpp", "ok.cpp"), encoding="utf-8")
    (tmp_path / "ok.cpp").write_text(SPIN.replace("volatile int forever = 1;", "volatile int forever = 0;"),
                                     encoding="utf-8")
    options = {"workspaceTrust": True, "check_on_save": "always",
               "akgen": {"toolchain": {"cxx": str(evil)}, "sim": {"sandbox": "off"}}}
    await bare.initialize_session(initialize_params("visual-studio-code", options, root=tmp_path))
    uri = open_and_save(bare, tmp_path / "ok.cpp")

    def said(key: str) -> list[str]:
        return [m.message for m in bare.messages if f"ignored {key}" in m.message]

    assert await until(lambda: said("toolchain.cxx") and said("sim.sandbox"), 60.0), [m.message for m in bare.messages]
    assert await until(lambda: any(d.source == "akgen-run" for d in bare.diagnostics.get(uri, [])), 180.0), \
        [m.message for m in bare.messages]
    assert not flag.exists(), "the editor's compiler ran"
    assert len(said("toolchain.cxx")) == 1
    await bare.shutdown_session()
