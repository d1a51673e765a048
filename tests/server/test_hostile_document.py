"""A huge document opened in the server (docs/security.md, "Resources"): a 60 MB one-line `.asc` document, opened and
then edited, is not parsed or linted: it gets one finding that says so, the server's memory stays bounded, and the
other documents' requests are answered. Driven through a real `akgen serve` process fed raw LSP frames."""

from __future__ import annotations

import json
import os
import select
import subprocess
import threading
import time
from pathlib import Path

import pytest

from akgen_lsp.server.features.diagnostics import MAX_DOCUMENT_CHARS

from .lsp_helpers import SERVER

pytestmark = pytest.mark.hostile

BIG_CHARS = 60_000_000  # 60 MB on one line: 'A<' repeated, the worst text for the parser
RSS_BOUND = 1536 << 20  # the server's peak memory may not pass this (it held 6 GB before the bound)
SMALL = '#include "kernel_operator.h"\nextern "C" __global__ __aicore__ void k(GM_ADDR x) {}\n'


def frame(obj: object) -> bytes:
    body = json.dumps(obj).encode()
    return f"Content-Length: {len(body)}\r\n\r\n".encode() + body


def rss(pid: int, field: str = "VmHWM") -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024
    return 0


def test_a_huge_document_is_not_parsed_and_the_server_goes_on(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    ws.mkdir()
    big, small = (ws / "big.asc").as_uri(), (ws / "k.asc").as_uri()
    text = "A<" * (BIG_CHARS // 2)
    messages = [
        {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"capabilities": {}, "processId": None, "rootUri": ws.as_uri(),
                    "workspaceFolders": [{"uri": ws.as_uri(), "name": "ws"}]}},
        {"jsonrpc": "2.0", "method": "initialized", "params": {}},
        {"jsonrpc": "2.0", "method": "textDocument/didOpen",
         "params": {"textDocument": {"uri": big, "languageId": "cpp", "version": 1, "text": text}}},
        {"jsonrpc": "2.0", "method": "textDocument/didChange",
         "params": {"textDocument": {"uri": big, "version": 2},
                    "contentChanges": [{"range": {"start": {"line": 0, "character": 0},
                                                  "end": {"line": 0, "character": 0}}, "text": "B"}]}},
        {"jsonrpc": "2.0", "method": "textDocument/didOpen",
         "params": {"textDocument": {"uri": small, "languageId": "cpp", "version": 1, "text": SMALL}}},
        {"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover",
         "params": {"textDocument": {"uri": small}, "position": {"line": 1, "character": 50}}},
    ]
    del text
    env = {**os.environ, "AKGEN_CACHE_DIR": str(tmp_path / "cache"), "TMPDIR": str(tmp_path)}
    proc = subprocess.Popen(SERVER, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, env=env)
    assert proc.stdin is not None and proc.stdout is not None
    writer = threading.Thread(target=lambda: (proc.stdin.write(b"".join(frame(m) for m in messages)),  # type: ignore
                                              proc.stdin.flush()), daemon=True)  # type: ignore[union-attr]
    writer.start()
    state: dict[str, object] = {"buf": b"", "peak": 0}
    answers: list[dict] = []  # type: ignore[type-arg]

    def big_published() -> list[dict]:  # type: ignore[type-arg]
        return [a["params"] for a in answers if a.get("method") == "textDocument/publishDiagnostics"
                and a["params"]["uri"] == big and a["params"].get("version") == 2]

    def pump(done) -> None:  # type: ignore[no-untyped-def]
        """Read the server's messages until `done()`; its memory checked all along."""
        deadline = time.time() + 240  # a hang guard only: a server stuck in the parse never answers
        while time.time() < deadline and not done():
            state["peak"] = max(int(state["peak"]), rss(proc.pid))  # type: ignore[call-overload]
            assert int(state["peak"]) < RSS_BOUND, f"the server grew to {int(state['peak']) >> 20} MiB"  # type: ignore
            ready, _, _ = select.select([proc.stdout], [], [], 0.2)
            if ready:
                chunk = os.read(proc.stdout.fileno(), 1 << 20)  # type: ignore[union-attr]
                if not chunk:
                    break
                state["buf"] = bytes(state["buf"]) + chunk  # type: ignore[arg-type]
            buf = bytes(state["buf"])  # type: ignore[arg-type]
            while b"\r\n\r\n" in buf:
                head, rest = buf.split(b"\r\n\r\n", 1)
                n = int(head.split(b"Content-Length:")[1].split(b"\r\n")[0])
                if len(rest) < n:
                    break
                answers.append(json.loads(rest[:n]))
                buf = rest[n:]
            state["buf"] = buf

    try:
        pump(lambda: big_published() and any(a.get("id") == 2 for a in answers))
        assert any(a.get("id") == 2 for a in answers), "the other document's request was not answered"
        published = big_published()
        assert published, [a.get("method") or a.get("id") for a in answers]
        (diag,) = published[-1]["diagnostics"]
        assert diag["code"] == "AKG000" and f"more than the {MAX_DOCUMENT_CHARS:,}" in diag["message"]
        proc.stdin.write(frame({"jsonrpc": "2.0", "id": 3, "method": "shutdown", "params": None}))
        proc.stdin.flush()
        pump(lambda: any(a.get("id") == 3 for a in answers))
        peak = max(int(state["peak"]), rss(proc.pid))  # type: ignore[call-overload]
        assert proc.poll() is None and peak < RSS_BOUND, f"the server grew to {peak >> 20} MiB"
        print(f"server peak memory {peak >> 20} MiB with a {BIG_CHARS:,}-character document")
        proc.stdin.write(frame({"jsonrpc": "2.0", "method": "exit", "params": None}))
        proc.stdin.close()
        assert proc.wait(30) == 0
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait()
        writer.join(10)
