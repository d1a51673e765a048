"""LSP framing over any byte stream (akgen_lsp/server/framing.py), with pygls's real protocol object: valid messages
around a broken one are all answered, nothing allocates the claimed length, the end of the stream ends the loop."""

from __future__ import annotations

import asyncio
import io
import json
import logging
import threading

import pytest
from pygls.io_ import StdoutWriter
from pygls.lsp.server import LanguageServer

from akgen_lsp.server.framing import (
    MAX_CONTENT_LENGTH,
    FramingError,
    StdinReader,
    StreamReaderAdapter,
    read_headers,
    run_async,
)


def frame(obj: object, length: int | str | None = None, extra: bytes = b"") -> bytes:
    body = json.dumps(obj).encode()
    n = len(body) if length is None else length
    return f"Content-Length: {n}\r\n".encode() + extra + b"\r\n" + body


def request(i: int, method: str = "shutdown") -> dict[str, object]:
    return {"jsonrpc": "2.0", "id": i, "method": method, "params": None}


INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}, "processId": None}}


def serve(stream: bytes) -> tuple[list[dict[str, object]], list[str]]:
    """Feed `stream` to a real pygls server through the framing loop; the JSON answers it wrote and the framing
    problems it reported."""
    server = LanguageServer("framing-test", "v1")
    out = io.BytesIO()
    server.protocol.set_writer(StdoutWriter(out))
    problems: list[str] = []
    reader = StdinReader(io.BufferedReader(io.BytesIO(stream)))  # type: ignore[arg-type]
    asyncio.run(run_async(threading.Event(), reader, server.protocol, on_error=problems.append))
    answers = []
    data = out.getvalue()
    while data:
        head, _, rest = data.partition(b"\r\n\r\n")
        n = int(head.split(b"\r\n")[0].split(b":")[1])
        answers.append(json.loads(rest[:n]))
        data = rest[n:]
    return answers, problems


def ids(answers: list[dict[str, object]]) -> list[object]:
    return [a.get("id") for a in answers if "id" in a]


def test_well_formed_messages_are_answered() -> None:
    answers, problems = serve(frame(INIT) + frame(request(2)))
    assert ids(answers) == [1, 2] and problems == []


def test_content_type_header_first_is_accepted() -> None:
    body = json.dumps(INIT).encode()
    stream = (b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\nContent-Length: " + str(len(body)).encode()
              + b"\r\n\r\n" + body + frame(request(2)))
    answers, problems = serve(stream)
    assert ids(answers) == [1, 2] and problems == []


@pytest.mark.parametrize("length", [-5, "abc", "12x", 10**12, MAX_CONTENT_LENGTH + 1, "1" * 40])
def test_bad_content_length_is_reported_and_the_next_message_answered(length: int | str) -> None:
    answers, problems = serve(frame(INIT) + frame(request(2), length) + frame(request(3)))
    assert ids(answers) == [1, 3]
    assert len(problems) == 1 and "Content-Length" in problems[0]


def test_too_short_content_length_resynchronises() -> None:
    answers, problems = serve(frame(INIT) + frame(request(2), 10) + frame(request(3)))
    assert ids(answers) == [1, 3]
    assert any("not JSON" in p for p in problems)


def test_missing_content_length_resynchronises() -> None:
    stream = frame(INIT) + b"Content-Type: x\r\n\r\n" + json.dumps(request(2)).encode() + frame(request(3))
    answers, problems = serve(stream)
    assert ids(answers) == [1, 3]
    assert any("without a Content-Length" in p for p in problems)


def test_garbage_between_messages_is_skipped() -> None:
    answers, problems = serve(frame(INIT) + b"hello\nworld" * 5000 + b"\n" + frame(request(3)))
    assert ids(answers) == [1, 3] and problems == []


def test_stream_ending_inside_a_body_ends_the_session_cleanly() -> None:
    answers, problems = serve(frame(INIT) + frame(request(2))[:-5])
    assert ids(answers) == [1]
    assert problems and "session ends" in problems[-1]


def test_huge_claim_never_allocates(caplog: pytest.LogCaptureFixture) -> None:
    import tracemalloc

    tracemalloc.start()
    with caplog.at_level(logging.ERROR, "akgen_lsp.server.framing"):
        answers, _ = serve(frame(request(2), 10**15) + frame(request(3)))
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert ids(answers) == [3] and peak < 32 << 20
    assert any("over the limit" in r.message for r in caplog.records)


def test_tcp_reader_adapter_bounds_lines() -> None:
    async def go() -> tuple[int | None, int | None]:
        sr = asyncio.StreamReader(limit=1024)
        sr.feed_data(b"x" * 5000 + b"\n" + frame(request(1)))
        sr.feed_eof()
        adapter = StreamReaderAdapter(sr)
        first = await read_headers(adapter)
        await adapter.readexactly(first or 0)
        return first, await read_headers(adapter)

    first, second = asyncio.run(go())
    assert first == len(json.dumps(request(1)))
    assert second is None


def test_read_headers_raises_on_a_colonless_header() -> None:
    async def go() -> None:
        sr = asyncio.StreamReader()
        sr.feed_data(b"Content-Length: 2\r\nbogus\r\n\r\n{}")
        sr.feed_eof()
        await read_headers(StreamReaderAdapter(sr))

    with pytest.raises(FramingError, match="without a colon"):
        asyncio.run(go())


def test_a_request_whose_params_do_not_deserialize_does_not_end_the_loop() -> None:
    bad = {"jsonrpc": "2.0", "id": 2, "method": "textDocument/hover", "params": {"textDocument": 42}}
    answers, problems = serve(frame(INIT) + frame(bad) + frame(request(3)))
    assert 3 in ids(answers) and problems == []  # a protocol error, not a framing one: pygls's handling applies
