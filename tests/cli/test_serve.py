"""`akgen serve --tcp HOST:PORT`: the server answers `initialize` over a socket."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys

SERVER = [sys.executable, "-c", "from akgen_lsp.cli import main; main()", "serve", "--tcp"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def _request(reader: asyncio.StreamReader, writer: asyncio.StreamWriter, msg: dict) -> dict:
    body = json.dumps(msg).encode()
    writer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    await writer.drain()
    while True:
        length = 0
        while True:
            header = (await reader.readline()).decode().strip()
            if not header:
                break
            if header.lower().startswith("content-length:"):
                length = int(header.split(":")[1])
        reply = json.loads(await reader.readexactly(length))
        if reply.get("id") == msg["id"]:
            return reply


async def _connect(port: int, proc: subprocess.Popen) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    for _ in range(200):
        try:
            return await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
            await asyncio.sleep(0.05)
    raise AssertionError("the server did not listen")


async def test_tcp_server_initializes():
    port = _free_port()
    proc = subprocess.Popen([*SERVER, f"127.0.0.1:{port}"], stderr=subprocess.PIPE)
    try:
        reader, writer = await _connect(port, proc)
        reply = await asyncio.wait_for(
            _request(reader, writer, {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                                      "params": {"processId": None, "rootUri": None, "capabilities": {}}}),
            30,
        )
        caps = reply["result"]["capabilities"]
        assert caps["hoverProvider"] and caps["codeActionProvider"]["resolveProvider"] is True
        assert reply["result"]["serverInfo"]["name"] == "akgen-lsp"
        reply = await asyncio.wait_for(_request(reader, writer, {"jsonrpc": "2.0", "id": 2, "method": "shutdown"}), 10)
        assert reply["result"] is None
        writer.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)


STDIO = [sys.executable, "-c", "from akgen_lsp.cli import main; main()", "serve"]


def _frame(msg: dict) -> bytes:
    body = json.dumps(msg).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def _initialize(pid: int | None) -> dict:
    return {"jsonrpc": "2.0", "id": 1, "method": "initialize",
            "params": {"processId": pid, "rootUri": None, "capabilities": {}}}


def _read_reply(stream) -> dict:  # type: ignore[no-untyped-def]
    length = 0
    while True:
        header = stream.readline().decode().strip()
        if not header:
            break
        if header.lower().startswith("content-length:"):
            length = int(header.split(":")[1])
    return json.loads(stream.read(length))


def test_the_flags_vscode_languageclient_adds_are_accepted():
    # TransportKind.stdio appends --stdio; a node server also gets --clientProcessId=<pid>
    proc = subprocess.Popen([*STDIO, "--stdio", f"--clientProcessId={os.getpid()}"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(_frame(_initialize(os.getpid())))
        proc.stdin.flush()
        reply = _read_reply(proc.stdout)
        assert reply["result"]["serverInfo"]["name"] == "akgen-lsp"
    finally:
        proc.kill()
        proc.wait(timeout=10)


def test_the_server_exits_when_the_editor_process_dies():
    editor = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(120)"])
    proc = subprocess.Popen(STDIO, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write(_frame(_initialize(editor.pid)))
        proc.stdin.flush()
        assert "result" in _read_reply(proc.stdout)
        editor.kill()
        editor.wait(timeout=10)
        # stdin stays open (nobody closed it): the server notices the editor's processId is gone and exits
        assert proc.wait(timeout=20) == 0
    finally:
        editor.kill()
        proc.kill()
        proc.wait(timeout=10)


def test_socket_transport_connects_to_the_client():
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        port = listener.getsockname()[1]
        proc = subprocess.Popen([*STDIO, f"--socket={port}"], stderr=subprocess.PIPE)
        try:
            listener.settimeout(30)
            conn, _ = listener.accept()
            with conn:
                conn.sendall(_frame(_initialize(None)))
                reply = _read_reply(conn.makefile("rb"))
                assert reply["result"]["capabilities"]["hoverProvider"]
        finally:
            proc.kill()
            proc.wait(timeout=10)


def test_node_ipc_is_refused_with_a_sentence():
    out = subprocess.run([*STDIO, "--node-ipc"], capture_output=True, text=True, timeout=60)
    assert out.returncode == 2 and "stdio" in out.stderr
