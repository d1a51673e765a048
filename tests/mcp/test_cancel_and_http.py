"""A cancelled check (the client's notifications/cancelled) kills the kernel's processes and the server goes on; the
HTTP transport answers only loopback requests that carry its bearer token."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import anyio
import httpx
import httpx2
import pytest
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp_helpers import REPO, mcp_session, needs_gxx, server_env

from akgen_lsp.check.worker import MODULE as WORKER  # the check worker's command line names it
from akgen_lsp.mcp.transport import TransportError, check_loopback, read_token

BUSY = "    for (volatile unsigned long long i = 0; i < 400000000000ULL; i = i + 1) {}\n    op.Process();"


def _children(pid: int) -> list[tuple[int, str]]:
    out = []
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            stat_line = Path(f"/proc/{name}/stat").read_bytes()
            cmd = Path(f"/proc/{name}/cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if int(stat_line[stat_line.rfind(b")") + 2:].split()[1]) == pid:
            out.append((int(name), cmd))
    return out


def _descendants(pid: int) -> list[int]:
    todo, found = [pid], []
    while todo:
        kids = [p for p, _ in _children(todo.pop())]
        found += kids
        todo += kids
    return found


@needs_gxx
@pytest.mark.slow
async def test_a_cancelled_check_kills_its_job_and_the_next_check_runs(samples_copy: Path) -> None:
    kernel = samples_copy / "kernels/add_custom.cpp"
    busy = kernel.read_text(encoding="utf-8").replace("    op.Process();", BUSY)
    # --no-warm: the check is the worker's only job (no precompiled-header build beside it)
    async with mcp_session(samples_copy, [samples_copy], "--no-warm") as s:
        [server] = [p for p, cmd in _children(os.getpid()) if "akgen_lsp mcp" in cmd]
        answers: list[Any] = []

        async def check() -> None:
            answers.append(await s.call_tool("check", {"path": "kernels/add_custom.cpp", "text": busy}))

        async with anyio.create_task_group() as tg:
            tg.start_soon(check)
            with anyio.fail_after(300):  # until the job of the check runs a program (the kernel spins until the sandbox's time limit)
                while True:
                    assert not answers, f"the check ended before it could be cancelled: {answers[0]}"
                    workers = [p for p, cmd in _children(server) if WORKER in cmd]
                    if workers and _descendants(workers[0]):  # a job: a fork of the idle worker, and its children
                        break
                    await anyio.sleep(0.2)
            await anyio.sleep(3.0)
            jobs = _descendants(workers[0])
            assert jobs and not answers
            tg.cancel_scope.cancel()
        with anyio.fail_after(30):
            while _descendants(workers[0]):
                await anyio.sleep(0.2)
        assert not any(Path(f"/proc/{p}").exists() for p in jobs)
        res = await s.call_tool("check", {"path": "kernels/add_custom.cpp"})
        assert not res.is_error and res.structured_content["passes"], res.content[0].text
        assert [p for p, cmd in _children(server) if WORKER in cmd] == workers  # the same warm worker


def test_the_token_file_is_private_and_the_host_is_loopback(tmp_path: Path) -> None:
    made = tmp_path / "d/token"
    token = read_token(made)
    assert len(token) >= 32 and stat.S_IMODE(made.stat().st_mode) == 0o600 and read_token(made) == token
    made.chmod(0o644)
    with pytest.raises(TransportError, match="chmod 600"):
        read_token(made)
    for host in ("127.0.0.1", "::1", "localhost"):
        check_loopback(host)
    for host in ("0.0.0.0", "192.168.1.5", "example.org"):
        with pytest.raises(TransportError, match="not a loopback address"):
            check_loopback(host)


def _free_port() -> int:
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


async def test_http_needs_the_bearer_token(samples_copy: Path, tmp_path: Path) -> None:
    port, token_file = _free_port(), tmp_path / "token"
    proc = subprocess.Popen([sys.executable, "-m", "akgen_lsp", "mcp", "--http", "--port", str(port), "--token-file",
                             str(token_file), "--root", str(samples_copy), "--no-warm"], env=server_env(), cwd=REPO,
                            stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                answer = httpx.post(url, json={"jsonrpc": "2.0", "id": 1, "method": "ping"}, timeout=5)
                break
            except httpx.TransportError:
                assert proc.poll() is None and time.monotonic() < deadline, proc.stderr.read().decode()  # type: ignore[union-attr]
                time.sleep(0.3)
        assert answer.status_code == 401 and answer.headers["www-authenticate"] == "Bearer"
        wrong = httpx.post(url, json={}, headers={"Authorization": "Bearer nope"}, timeout=5)
        assert wrong.status_code == 401
        token = token_file.read_text(encoding="utf-8").strip()
        assert stat.S_IMODE(token_file.stat().st_mode) == 0o600
        async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}) as http, \
                streamable_http_client(url, http_client=http) as (read, write), ClientSession(read, write) as s:
            await s.initialize()
            assert {t.name for t in (await s.list_tools()).tools} >= {"lint", "check", "explain"}
            res = await s.call_tool("lint", {"path": "broken/akg120_dequeued_not_freed.cpp"})
            assert not res.is_error and res.structured_content["findings"][0]["code"] == "AKG120"
            refused = await s.call_tool("lint", {"path": "/etc/passwd"})
            assert refused.is_error and "outside the server's roots" in refused.content[0].text
    finally:
        proc.terminate()
        proc.wait(10)
