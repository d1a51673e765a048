"""`akgen serve --tcp HOST:PORT`: the server answers `initialize` over a socket."""

from __future__ import annotations

import asyncio
import json
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
