"""`akgen serve --tcp HOST:PORT`: the server answers `initialize` over a socket, to a client that sends the session's
token first; without it (or with another) the connection is closed unanswered."""

from __future__ import annotations

import asyncio
import json
import os
import socket
import subprocess
import sys
from pathlib import Path

import pytest

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


START_BOUND_S = 300.0  # a bound, not a timing: the server starting (importing pygls, the catalog) on a loaded machine


async def _connect(port: int, proc: subprocess.Popen) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """Connect once the server listens: retried while its process lives (its exit fails at once, with its stderr)."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + START_BOUND_S
    while loop.time() < deadline:
        try:
            return await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            assert proc.poll() is None, proc.stderr.read().decode() if proc.stderr else ""
            await asyncio.sleep(0.05)
    raise AssertionError(f"the server did not listen within {START_BOUND_S:.0f} s")


INITIALIZE = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
              "params": {"processId": None, "rootUri": None, "capabilities": {}}}


async def test_tcp_server_initializes(tmp_path):
    port = _free_port()
    token_file = tmp_path / "token"
    proc = subprocess.Popen([*SERVER, f"127.0.0.1:{port}", "--token-file", str(token_file)], stderr=subprocess.PIPE)
    try:
        reader, writer = await _connect(port, proc)
        assert token_file.stat().st_mode & 0o777 == 0o600
        writer.write(b"Akgen-Token: " + token_file.read_text().strip().encode() + b"\r\n")
        reply = await asyncio.wait_for(
            _request(reader, writer, {"jsonrpc": "2.0", "id": 1, "method": "initialize",
                                      "params": {"processId": None, "rootUri": None, "capabilities": {}}}),
            START_BOUND_S,
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
            listener.settimeout(START_BOUND_S)  # the server connects once it has started
            conn, _ = listener.accept()
            with conn:
                conn.sendall(_frame(_initialize(None)))
                reply = _read_reply(conn.makefile("rb"))
                assert reply["result"]["capabilities"]["hoverProvider"]
        finally:
            proc.kill()
            proc.wait(timeout=10)


def test_node_ipc_is_refused_with_a_sentence():
    out = subprocess.run([*STDIO, "--node-ipc"], capture_output=True, text=True, timeout=START_BOUND_S)
    assert out.returncode == 2 and "stdio" in out.stderr


@pytest.mark.hostile
@pytest.mark.parametrize("first", [b"", b"Akgen-Token: 0123456789abcdef0123\r\n", b"Content-Length: 2\r\n"],
                         ids=["no-token", "wrong-token", "plain-lsp"])
async def test_a_client_without_the_token_is_not_served(tmp_path, first: bytes):
    port = _free_port()
    token_file = tmp_path / "token"
    proc = subprocess.Popen([*SERVER, f"127.0.0.1:{port}", "--token-file", str(token_file)], stderr=subprocess.PIPE)
    try:
        reader, writer = await _connect(port, proc)
        body = json.dumps(INITIALIZE).encode()
        writer.write(first + b"Content-Length: %d\r\n\r\n" % len(body) + body)
        await writer.drain()
        answer = await asyncio.wait_for(reader.read(), START_BOUND_S)  # the server closes the connection: b""
        assert answer == b""
        assert proc.poll() is None  # and goes on serving others
    finally:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.mark.hostile
def test_a_token_file_others_may_read_is_refused(tmp_path):
    token_file = tmp_path / "token"
    token_file.write_text("0123456789abcdef0123456789abcdef\n")
    token_file.chmod(0o644)
    res = subprocess.run([*SERVER, f"127.0.0.1:{_free_port()}", "--token-file", str(token_file)],
                         capture_output=True, text=True, timeout=START_BOUND_S)
    assert res.returncode == 2 and "chmod 600" in res.stderr


@pytest.mark.hostile
def test_socket_refuses_a_listener_of_another_user(tmp_path):
    """--socket=PORT connects to the editor's listener: one another user opened on that port is refused."""
    from trust_helpers import other_uid

    uid = other_uid()
    port = _free_port()
    listener = subprocess.Popen(
        ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", sys.executable, "-c",
         "import socket,sys,time\ns=socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)\n"
         f"s.bind(('127.0.0.1', {port})); s.listen(); print('up', flush=True)\nc,_=s.accept()\n"
         "data=c.recv(65536)\nprint('GOT', len(data), flush=True)\n"],
        stdout=subprocess.PIPE, text=True)
    try:
        assert listener.stdout is not None and listener.stdout.readline().strip() == "up"
        res = subprocess.run([sys.executable, "-c", "from akgen_lsp.cli import main; main()", "serve",
                              f"--socket={port}"], capture_output=True, text=True, timeout=START_BOUND_S)
        assert res.returncode != 0 and "another user" in res.stderr
        out, _ = listener.communicate(timeout=10)
        assert "GOT 0" in out  # nothing was sent to the other user's listener
    finally:
        listener.kill()


@pytest.mark.hostile
def test_pipe_refuses_a_socket_of_another_user(tmp_path):
    from trust_helpers import other_uid

    uid = other_uid()
    import shutil
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="akgen-pipe-", dir="/tmp"))  # where the other user can reach (tmp_path is 0700)
    folder.chmod(0o755)
    os.chown(folder, uid, -1)
    path = folder / "sock"
    listener = subprocess.Popen(
        ["setpriv", f"--reuid={uid}", f"--regid={uid}", "--clear-groups", sys.executable, "-c",
         f"import socket,os\ns=socket.socket(socket.AF_UNIX); s.bind({str(path)!r}); os.chmod({str(path)!r}, 0o777);"
         " s.listen(); print('up', flush=True)\nc,_=s.accept()\nprint('GOT', len(c.recv(65536)), flush=True)\n"],
        stdout=subprocess.PIPE, text=True)
    try:
        assert listener.stdout is not None and listener.stdout.readline().strip() == "up"
        res = subprocess.run([sys.executable, "-c", "from akgen_lsp.cli import main; main()", "serve",
                              f"--pipe={path}"], capture_output=True, text=True, timeout=START_BOUND_S)
        assert res.returncode != 0 and "another user" in res.stderr
        out, _ = listener.communicate(timeout=10)
        assert "GOT 0" in out
    finally:
        listener.kill()
        shutil.rmtree(folder, ignore_errors=True)
